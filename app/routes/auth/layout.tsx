import { Outlet, useRouteLoaderData } from "react-router";
import { Card } from "@radix-ui/themes";
import { BiSolidPlug } from "~/icons";

export default function AuthLayout() {
  const root = useRouteLoaderData<{ appName: string }>("root");
  return (
    <main id="main" className="auth-shell">
      <div className="auth-card">
        <div className="auth-brand">
          <BiSolidPlug size={32} aria-hidden="true" />
          <span>{root?.appName ?? "Enchufá"}</span>
        </div>
        <Card size="4">
          <Outlet />
        </Card>
      </div>
    </main>
  );
}
