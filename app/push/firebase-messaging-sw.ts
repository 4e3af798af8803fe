// The Firebase Cloud Messaging service worker, served at /firebase-messaging-sw.js.
// Bundled by scripts/build-server.mjs (esbuild, iife) into <build>/client: nothing loads from a
// CDN. It cannot read the page, so the Firebase web config arrives in its registration URL query
// (see serviceWorkerUrl in register.client.ts). Messages are data-only (server/push.ts): this
// worker shows them and opens their in-app link on click.
import { initializeApp } from "firebase/app";
import { getMessaging, onBackgroundMessage } from "firebase/messaging/sw";

interface NotificationClickEvent {
  notification: { close(): void; data?: { link?: string } };
  waitUntil(p: Promise<unknown>): void;
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
}
interface SwGlobal {
  location: { href: string; origin: string };
  registration: {
    showNotification(
      title: string,
      options: NotificationOptions
    ): Promise<void>;
  };
  clients: {
    matchAll(o: {
      type: "window";
      includeUncontrolled: boolean;
    }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(
    type: "notificationclick",
    fn: (e: NotificationClickEvent) => void
  ): void;
}

const sw = self as unknown as SwGlobal;
const DEFAULT_LINK = "/notification";

/** Only in-app paths: anything else opens the Notificaciones screen. */
export function inAppLink(link: unknown): string {
  return typeof link === "string" &&
    link.startsWith("/") &&
    !link.startsWith("//") &&
    !link.startsWith("/\\")
    ? link
    : DEFAULT_LINK;
}

// Registered first, so it sees the clicks on the notifications this worker shows.
sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(
    inAppLink(event.notification.data?.link),
    sw.location.origin
  ).href;
  event.waitUntil(
    sw.clients
      .matchAll({ type: "window", includeUncontrolled: true })
      .then((open) => {
        const same = open.find((c) => c.url === url);
        return same ? same.focus() : sw.clients.openWindow(url);
      })
  );
});

const params = new URL(sw.location.href).searchParams;
const config = {
  apiKey: params.get("apiKey") ?? "",
  projectId: params.get("projectId") ?? "",
  messagingSenderId: params.get("messagingSenderId") ?? "",
  appId: params.get("appId") ?? "",
};

if (
  config.apiKey &&
  config.projectId &&
  config.messagingSenderId &&
  config.appId
) {
  const messaging = getMessaging(initializeApp(config));
  onBackgroundMessage(messaging, (payload) => {
    const data = payload.data ?? {};
    const title = data.title ?? payload.notification?.title ?? "Enchufá";
    const body = data.body ?? payload.notification?.body ?? "";
    void sw.registration.showNotification(title, {
      body,
      icon: "/favicon.svg",
      tag: data.notificationId,
      data: { link: inAppLink(data.link) },
    });
  });
}
