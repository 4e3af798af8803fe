// The "Activar notificaciones" button of Notificaciones: asks for permission from a user gesture,
// then registers this browser (see PushRegistration.tsx). Kept apart so the layout, on every
// screen, does not ship it.
import { useEffect, useState } from "react";
import { Button } from "@radix-ui/themes";
import { BiBellPlus } from "~/icons";
import { loadRegistration, usePushConfig } from "./PushRegistration";
import { pushSupported } from "./shared";

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
