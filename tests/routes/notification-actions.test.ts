// Notificaciones: the list (newest first, unread marked) and the POST forms that mark one or
// all as read, with toasts that work with JavaScript on and off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as notification from "~/routes/app/notification";
import { API_TEST_BASE_URL, apiUrl, server } from "../mocks/server";
import { fixtures, IDS } from "../mocks/fixtures";
import { args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
});
afterAll(() => server.close());

const ctx = (isDataRequest = false) => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL, isDataRequest });
const signedIn = () => signedInCookie({ uid: "uid-not", email: "ops@cargasdelsur.com.ar" }, { refreshToken: "r-not" });

function recordPosts() {
  const posts: string[] = [];
  server.events.on("request:start", ({ request }) => {
    if (request.method === "POST") posts.push(new URL(request.url).pathname);
  });
  return posts;
}

describe("notifications loader", () => {
  it("lists the notifications with the unread count", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => notification.loader(args(get("/notification", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.items).toEqual(fixtures.notifications.items);
    expect(res.data.unread).toBe(1);
    expect(res.data.unreadOnly).toBe(false);
  });

  it("?unread=1 and ?page=2 reach the API", async () => {
    const { cookie } = await signedIn();
    let params: URLSearchParams | undefined;
    server.use(
      http.get(apiUrl("/Business/Notification"), ({ request }) => {
        params = new URL(request.url).searchParams;
        return HttpResponse.json(fixtures.notifications);
      }),
    );
    const res = await run<Loose>(() => notification.loader(args(get("/notification?unread=1&page=2", cookie), ctx())));
    expect(params?.get("unread")).toBe("1");
    expect(params?.get("page")).toBe("2");
    expect(res.data.unreadOnly).toBe(true);
  });

  it("the API down → a message, not a 500", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Notification"), () => HttpResponse.error()));
    const res = await run<Loose>(() => notification.loader(args(get("/notification", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.error).toMatch(/No pudimos cargar/);
  });
});

describe("notifications actions", () => {
  it("marks one as read (no JavaScript: the toast travels in the same response)", async () => {
    const { cookie } = await signedIn();
    const posts = recordPosts();
    const context = ctx(false);
    const res = await run<Loose>(() => notification.action(args(post("/notification", { intent: "read", id: IDS.notification }, cookie), context)));
    expect(res.status).toBe(200);
    expect(posts).toEqual([`/Business/Notification/${IDS.notification}/Read`]);
    expect(pendingToast(context)).toEqual({ type: "success", message: "Notificación marcada como leída." });
  });

  it("marks all as read (JavaScript: the toast goes in a cookie)", async () => {
    const { cookie } = await signedIn();
    const posts = recordPosts();
    const res = await run<Loose>(() => notification.action(args(post("/notification", { intent: "readAll" }, cookie), ctx(true))));
    expect(res.status).toBe(200);
    expect(posts).toEqual(["/Business/Notification/ReadAll"]);
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
  });

  it("'Ver' marks it read and follows its link, only inside the app", async () => {
    const { cookie } = await signedIn();
    const ok = await run(() => notification.action(args(post("/notification", { intent: "read", id: IDS.notification, goTo: "/charger?status=faulted" }, cookie), ctx())));
    expect(ok.location).toBe("/charger?status=faulted");
    const evil = await run(() => notification.action(args(post("/notification", { intent: "read", id: IDS.notification, goTo: "https://evil.example/" }, cookie), ctx())));
    expect(evil.location).toBe("/notification");
  });

  it("a malformed id → 404 with an error toast, without calling the API", async () => {
    const { cookie } = await signedIn();
    const posts = recordPosts();
    const context = ctx();
    const res = await run(() => notification.action(args(post("/notification", { intent: "read", id: "1 or 1=1" }, cookie), context)));
    expect(res.status).toBe(404);
    expect(posts).toEqual([]);
    expect(pendingToast(context)?.type).toBe("error");
  });

  it("another business's notification (API 404) → error toast", async () => {
    const { cookie } = await signedIn();
    server.use(http.post(apiUrl("/Business/Notification/:id/Read"), () => HttpResponse.json({ title: "La notificación no existe.", status: 404 }, { status: 404 })));
    const context = ctx();
    const res = await run(() => notification.action(args(post("/notification", { intent: "read", id: IDS.payment }, cookie), context)));
    expect(res.status).toBe(404);
    expect(pendingToast(context)).toEqual({ type: "error", message: "No encontramos esa notificación." });
  });

  it("an unknown intent → 400", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => notification.action(args(post("/notification", { intent: "delete" }, cookie), ctx())));
    expect(res.status).toBe(400);
  });

  it("the API down → 503 with an error toast", async () => {
    const { cookie } = await signedIn();
    server.use(http.post(apiUrl("/Business/Notification/ReadAll"), () => HttpResponse.error()));
    const context = ctx();
    const res = await run(() => notification.action(args(post("/notification", { intent: "readAll" }, cookie), context)));
    expect(res.status).toBe(503);
    expect(pendingToast(context)?.message).toMatch(/No pudimos actualizar/);
  });
});
