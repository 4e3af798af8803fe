// Web push: <PushRegistration /> in the app layout keeps an already-allowed browser
// registered (refreshing the token after 7 days); <EnablePushButton /> (its own module, only
// Notificaciones ships it) asks for permission from a user gesture. Both render nothing without
// JavaScript, without the Firebase config or where the browser cannot do push. The registration
// code is imported only when it is about to run (every screen has this layout; few browsers have
// push allowed).
import { useEffect } from "react";
import { useRouteLoaderData } from "react-router";
import type { PublicConfig } from "~/lib/context";
import { isPushConfigured, pushSupported } from "./shared";

export const loadRegistration = () => import("./register.client");

export function usePushConfig() {
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
