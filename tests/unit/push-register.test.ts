// Web push registration in the browser, with fakes for the service worker,
// Firebase Messaging and the app's action.
import { describe, expect, it, vi } from "vitest";
import {
  needsRefresh,
  PUSH_REFRESH_MS,
  PUSH_STORAGE_KEY,
  PUSH_SW_SCOPE,
  readStored,
  registerPush,
  serviceWorkerUrl,
  toPushRecord,
  type PushDeps,
  type PushRecord,
  type StoredPush,
} from "~/push/register.client";
import { pushRegistrationSchema } from "#contract/schemas/notification";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 0, 15, 12);
const config = {
  apiKey: "api-key",
  projectId: "enchufa-prod",
  authDomain: "enchufa-prod.firebaseapp.com",
  messagingSenderId: "1234",
  appId: "1:1234:web:ab",
  vapidKey: "BVapidKey",
};
const subscription = {
  endpoint: "https://fcm.googleapis.com/fcm/send/xyz",
  toJSON: () => ({
    endpoint: "https://fcm.googleapis.com/fcm/send/xyz",
    keys: { auth: "YXV0aA", p256dh: "cDI1NmRo" },
  }),
};

describe("refresh rule (7 days)", () => {
  const stored = (age: number, over: Partial<StoredPush> = {}): StoredPush => ({
    token: "t",
    createTime: NOW - age,
    vapidKey: config.vapidKey,
    account: "A",
    ...over,
  });
  it("keeps a registration younger than 7 days", () => {
    expect(PUSH_REFRESH_MS).toBe(7 * DAY);
    expect(needsRefresh(stored(0), NOW, config.vapidKey, "A")).toBe(false);
    expect(needsRefresh(stored(7 * DAY - 1), NOW, config.vapidKey, "A")).toBe(
      false
    );
  });
  it("refreshes at 7 days and after", () => {
    expect(needsRefresh(stored(7 * DAY), NOW, config.vapidKey, "A")).toBe(true);
    expect(needsRefresh(stored(30 * DAY), NOW, config.vapidKey, "A")).toBe(
      true
    );
  });
  it("registers when nothing is stored, the VAPID key or the account changed, or the clock is odd", () => {
    expect(needsRefresh(null, NOW, config.vapidKey, "A")).toBe(true);
    expect(
      needsRefresh(
        stored(DAY, { vapidKey: "other" }),
        NOW,
        config.vapidKey,
        "A"
      )
    ).toBe(true);
    expect(needsRefresh(stored(DAY), NOW, config.vapidKey, "B")).toBe(true);
    expect(needsRefresh(stored(-DAY), NOW, config.vapidKey, "A")).toBe(true);
  });
  it("ignores a corrupt stored value", () => {
    expect(readStored({ getItem: () => "{not json" })).toBeNull();
    expect(
      readStored({ getItem: () => JSON.stringify({ token: 1 }) })
    ).toBeNull();
  });
});

describe("registration record", () => {
  it("has token, createTime and the subscription options, and the API schema accepts it", () => {
    const record = toPushRecord("tok", subscription, config.vapidKey, NOW);
    expect(record).toEqual({
      token: "tok",
      createTime: NOW,
      auth: "YXV0aA",
      p256dh: "cDI1NmRo",
      endpoint: "https://fcm.googleapis.com/fcm/send/xyz",
      swScope: "/firebase-cloud-messaging-push-scope",
      vapidKey: "BVapidKey",
    });
    expect(pushRegistrationSchema.safeParse(record).success).toBe(true);
  });
  it("without a subscription the options are null", () => {
    const record = toPushRecord("tok", null, config.vapidKey, NOW);
    expect(record).toMatchObject({ auth: null, p256dh: null, endpoint: null });
    expect(pushRegistrationSchema.safeParse(record).success).toBe(true);
  });
  it("the service worker gets the Firebase config in its URL (it cannot read the page)", () => {
    const url = new URL(serviceWorkerUrl(config), "https://enchufa.test");
    expect(url.pathname).toBe("/firebase-messaging-sw.js");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      apiKey: "api-key",
      projectId: "enchufa-prod",
      messagingSenderId: "1234",
      appId: "1:1234:web:ab",
    });
  });
});

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  };
}

function fakeDeps(over: Partial<PushDeps> = {}) {
  const storage = memoryStorage();
  const posted: PushRecord[] = [];
  const registration = { fake: true } as unknown as ServiceWorkerRegistration;
  const deps = {
    now: () => NOW,
    storage,
    registerServiceWorker: vi.fn(async () => registration),
    getToken: vi.fn(async () => "fcm-token"),
    getSubscription: vi.fn(async () => subscription),
    post: vi.fn(async (r: PushRecord) => {
      posted.push(r);
      return true;
    }),
    log: { info: vi.fn(), warn: vi.fn() },
    ...over,
  } satisfies PushDeps;
  return { deps, storage, posted, registration };
}

describe("register flow", () => {
  it("registers the worker in the FCM scope, gets the token with the VAPID key, posts the record and remembers it", async () => {
    const { deps, storage, posted, registration } = fakeDeps();
    expect(await registerPush(config, deps, { account: "A" })).toBe(
      "registered"
    );
    expect(deps.registerServiceWorker).toHaveBeenCalledWith(
      serviceWorkerUrl(config),
      PUSH_SW_SCOPE
    );
    expect(deps.getToken).toHaveBeenCalledWith(config, registration);
    expect(posted).toEqual([
      toPushRecord("fcm-token", subscription, "BVapidKey", NOW),
    ]);
    expect(JSON.parse(storage.map.get(PUSH_STORAGE_KEY)!)).toEqual({
      token: "fcm-token",
      createTime: NOW,
      vapidKey: "BVapidKey",
      account: "A",
    });
    expect(deps.log.info).toHaveBeenCalledOnce();
  });

  it("does nothing again within 7 days, and refreshes after", async () => {
    const { deps, storage } = fakeDeps();
    await registerPush(config, deps, { account: "A" });
    expect(
      await registerPush(
        config,
        { ...deps, now: () => NOW + 6 * DAY },
        { account: "A" }
      )
    ).toBe("fresh");
    expect(deps.getToken).toHaveBeenCalledTimes(1);
    expect(
      await registerPush(
        config,
        { ...deps, now: () => NOW + 7 * DAY },
        { account: "A" }
      )
    ).toBe("registered");
    expect(deps.getToken).toHaveBeenCalledTimes(2);
    expect(JSON.parse(storage.map.get(PUSH_STORAGE_KEY)!).createTime).toBe(
      NOW + 7 * DAY
    );
  });

  it("force registers even when fresh (the user just allowed it)", async () => {
    const { deps } = fakeDeps();
    await registerPush(config, deps, { account: "A" });
    expect(
      await registerPush(config, deps, { account: "A", force: true })
    ).toBe("registered");
    expect(deps.post).toHaveBeenCalledTimes(2);
  });

  it("without the config (or the VAPID key) nothing happens", async () => {
    const { deps } = fakeDeps();
    expect(await registerPush(undefined, deps, { account: "A" })).toBe(
      "unconfigured"
    );
    expect(
      await registerPush({ ...config, vapidKey: undefined }, deps, {
        account: "A",
      })
    ).toBe("unconfigured");
    expect(deps.registerServiceWorker).not.toHaveBeenCalled();
  });

  it("any failure is only logged, never thrown, and nothing is remembered", async () => {
    for (const over of [
      {
        registerServiceWorker: vi.fn(async () =>
          Promise.reject(new Error("sin SW"))
        ),
      },
      {
        getToken: vi.fn(async () =>
          Promise.reject(new Error("messaging/permission-blocked"))
        ),
      },
      { getToken: vi.fn(async () => "") },
      { post: vi.fn(async () => false) },
    ] satisfies Partial<PushDeps>[]) {
      const { deps, storage } = fakeDeps(over);
      expect(await registerPush(config, deps, { account: "A" })).toBe("failed");
      expect(deps.log.warn).toHaveBeenCalledOnce();
      expect(storage.map.has(PUSH_STORAGE_KEY)).toBe(false);
    }
  });
});
