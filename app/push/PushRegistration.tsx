// Web push (issue 7): <PushRegistration /> in the app layout keeps an already-allowed browser
// registered (refreshing the token after 7 days); <EnablePushButton /> on Notificaciones asks
// for permission from a user gesture. Both render nothing without JavaScript, without the
// Firebase config or where the browser cannot do push. The registration code is imported only
// when it is about to run (every screen has this layout; few browsers have push allowed).
import { useEffect, useState } from "react";
import { useRouteLoaderData } from "@remix-run/react";
import { Button } from "@radix-ui/themes";
import { BiBellPlus } from "~/icons";
import type { PublicConfig } from "~/lib/context";
import { isPushConfigured, pushSupported } from "./shared";

const loadRegistration = () => import("./register.client");

function usePushConfig() {
  const root = useRouteLoaderData<{
    firebase?: PublicConfig["firebase"] | null;
  }>("root");
  const layout = useRouteLoaderData<{ businessName?: string }>("routes/app/layout");
  const config = isPushConfigured(root?.firebase) ? root.firebase : null;
  return { config, account: layout?.businessName ?? "" };
}

export function PushRegistration() {
  const { config, account } = usePushConfig();
  useEffect(() => {
    if (!config || !pushSupported() || Notification.permission !== "granted") return;
    void loadRegistration().then(({ browserPushDeps, registerPush }) => registerPush(config, browserPushDeps(), { account }));
  }, [config, account]);
  return null;
}

export function EnablePushButton() {
  const { config, account } = usePushConfig();
  const [permission, setPermission] = useState<NotificationPermission | "unsupported" | null>(null);
  useEffect(() => setPermission(pushSupported() ? Notification.permission : "unsupported"), []);
  if (!config || permission !== "default") return null;
  const enable = async () => {
    try {
      const answer = await Notification.requestPermission();
      setPermission(answer);
      if (answer === "granted") {
        const { browserPushDeps, registerPush } = await loadRegistration();
        await registerPush(config, browserPushDeps(), { account, force: true });
      } else console.info("Notificaciones push: el usuario no dio permiso.");
    } catch (err) {
      console.warn("Notificaciones push: no se pudo pedir permiso.", err);
    }
  };
  return (
    <div style={{ marginBottom: 16 }}>
      <Button
        type="button"
        size="2"
        variant="soft"
        onClick={() => void enable()}
        data-testid="push-enable"
        // Wraps to two lines on a phone instead of overflowing its fixed height.
        style={{ height: "auto", minHeight: "var(--space-6)", paddingBlock: 6, whiteSpace: "normal", textAlign: "start" }}
      >
        <BiBellPlus aria-hidden="true" /> Activar notificaciones en este navegador
      </Button>
    </div>
  );
}
