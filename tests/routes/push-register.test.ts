// Web push: the Notificaciones action stores the browser's registration record
// through the API with the user's token; no toast either way (only logged).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as notification from "~/routes/app/notification";
import * as root from "~/root";
import { API_TEST_BASE_URL, apiUrl, server } from "../mocks/server";
import {
  args,
  get,
  makeContext,
  post,
  run,
  signedInCookie,
  type Loose,
} from "./auth-helpers";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = () =>
  makeContext(undefined, {
    apiFetch: (req: Request) => fetch(req),
    apiBaseUrl: API_TEST_BASE_URL,
    isDataRequest: true,
  });
const signedIn = () =>
  signedInCookie(
    { uid: "uid-push", email: "ops@cargasdelsur.com.ar" },
    { refreshToken: "r-push" }
  );

const record = {
  token: "fcm-token-123",
  createTime: 1_750_000_000_000,
  auth: "YXV0aA",
  p256dh: "cDI1NmRo",
  endpoint: "https://fcm.googleapis.com/fcm/send/abc",
  swScope: "/firebase-cloud-messaging-push-scope",
  vapidKey: "BVapid",
};

function captureRegistration(status = 200) {
  const seen: { body?: unknown; auth?: string | null } = {};
  server.use(
    http.post(
      apiUrl("/Business/Notification/PushRegistration"),
      async ({ request }) => {
        seen.body = await request.json();
        seen.auth = request.headers.get("Authorization");
        return status === 200
          ? HttpResponse.json({
              id: "00000000-0000-4000-8000-000000000001",
              token: record.token,
              createTime: new Date(record.createTime).toISOString(),
            })
          : HttpResponse.json({ title: "Error", status }, { status });
      }
    )
  );
  return seen;
}

describe("push registration action (intent=push-register)", () => {
  it("stores the record through the API with the user's token, without a toast", async () => {
    const { cookie } = await signedIn();
    const seen = captureRegistration();
    const context = ctx();
    const res = await run<Loose>(() =>
      notification.action(
        args(
          post(
            "/notification",
            { intent: "push-register", record: JSON.stringify(record) },
            cookie
          ),
          context
        )
      )
    );
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ ok: true, error: null });
    expect(seen.body).toEqual(record);
    expect(seen.auth).toMatch(/^Bearer \S+/);
    expect(pendingToast(context)).toBeNull();
    expect(res.headers.get("Set-Cookie") ?? "").not.toMatch(/toast/);
  });

  it("a malformed record → 400 without calling the API", async () => {
    const { cookie } = await signedIn();
    const seen = captureRegistration();
    for (const bad of [
      "not json",
      JSON.stringify({ ...record, token: "" }),
      JSON.stringify({ ...record, endpoint: "http://insecure.example/x" }),
    ]) {
      const res = await run<Loose>(() =>
        notification.action(
          args(
            post(
              "/notification",
              { intent: "push-register", record: bad },
              cookie
            ),
            ctx()
          )
        )
      );
      expect(res.status).toBe(400);
      expect(res.data.ok).toBe(false);
    }
    expect(seen.body).toBeUndefined();
  });

  it("the API failing or down → an error status (logged by the browser), not a 500", async () => {
    const { cookie } = await signedIn();
    captureRegistration(500);
    const res = await run<Loose>(() =>
      notification.action(
        args(
          post(
            "/notification",
            { intent: "push-register", record: JSON.stringify(record) },
            cookie
          ),
          ctx()
        )
      )
    );
    expect(res.status).toBe(502);
    server.use(
      http.post(apiUrl("/Business/Notification/PushRegistration"), () =>
        HttpResponse.error()
      )
    );
    const down = await run<Loose>(() =>
      notification.action(
        args(
          post(
            "/notification",
            { intent: "push-register", record: JSON.stringify(record) },
            cookie
          ),
          ctx()
        )
      )
    );
    expect(down.status).toBe(503);
  });

  it("signed out → redirected to sign in, nothing stored", async () => {
    const seen = captureRegistration();
    const res = await run(() =>
      notification.action(
        args(
          post("/notification", {
            intent: "push-register",
            record: JSON.stringify(record),
          }),
          ctx()
        )
      )
    );
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    expect(seen.body).toBeUndefined();
  });
});

describe("root loader: the Firebase web config for push", () => {
  const firebase = {
    apiKey: "k",
    projectId: "p",
    authDomain: "p.firebaseapp.com",
    messagingSenderId: "1",
    appId: "1:1:web:1",
    vapidKey: "BVapid",
  };
  it("passes the config when the server has it", async () => {
    const context = makeContext(undefined, {
      config: { appName: "Enchufá", firebase } as Loose,
    });
    const res = await run<Loose>(() =>
      root.loader(args(get("/home"), context))
    );
    expect(res.data.firebase).toEqual(firebase);
  });
  it("null when push is not configured", async () => {
    const res = await run<Loose>(() =>
      root.loader(args(get("/home"), makeContext()))
    );
    expect(res.data.firebase).toBeNull();
  });
});
