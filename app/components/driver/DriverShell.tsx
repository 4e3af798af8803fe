// The frame of the public driver pages: one column, large tap targets, no navigation.
import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";

export function DriverShell({ title, children }: { title: string; children: ReactNode }) {
  const root = useRouteLoaderData("root") as { appName?: string } | undefined;
  return (
    <main id="main" className="driver-page">
      <header className="driver-header">
        <span className="driver-brand">{root?.appName ?? "Enchufá"}</span>
        <h1>{title}</h1>
      </header>
      {children}
    </main>
  );
}
