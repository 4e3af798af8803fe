// GET /Business/Live holds a connection for up to an hour: each account and each client address
// may keep only so many open at once (429 with Retry-After past that), a closed stream frees its
// place, and a stream ends when the ID token it was opened with expires.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TokenClaims } from "#api/app";
import { businessMembers } from "#db/schema";
import { DEFAULT_LIVE_STREAM_LIMITS, TOO_MANY_STREAMS_MESSAGE } from "#api/routes/live";
import { createTenant, expectProblem, fakeVerifyToken, mintToken, openHarness, testBackends, type Harness, type Tenant } from "./helpers";

/** A JWT-shaped token (unsigned: the fake verifier below stands for Firebase's) expiring at `exp` (s). */
function jwt(uid: string, exp: number): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none" })}.${part({ uid, exp })}.sig`;
}

/** Like Firebase's verifier as the server wraps it: the claims it returns carry no `exp`. */
async function verifyToken(token: string): Promise<TokenClaims> {
  const parts = token.split(".");
  if (parts.length !== 3) return fakeVerifyToken(token);
  const { uid, exp } = JSON.parse(Buffer.from(parts[1], "base64url").toString()) as { uid: string; exp: number };
  if (exp * 1000 <= Date.now()) throw Object.assign(new Error("expired"), { code: "auth/id-token-expired" });
  return { uid, email: `${uid}@example.com`, email_verified: true };
}

const timeout = (ms: number) => new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms));

describe.each(testBackends())("live streams ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let other: Tenant;
  const streams: Response[] = [];
  beforeAll(async () => {
    h = await openHarness(backend, { verifyToken, liveStreamLimits: { perAccount: 3, perAddress: 4 } });
    t = await createTenant(h, "live-owner");
    other = await createTenant(h, "live-other");
  });
  afterAll(async () => {
    await Promise.all(streams.map((s) => s.body?.cancel().catch(() => {})));
    await h?.close();
  });

  /** Opens a stream as `token` from `ip`; an accepted one is read up to its "ready" event and kept open. */
  async function open(token: string, ip = "203.0.113.7"): Promise<Response> {
    const res = await h.api.fetch(new Request("http://enchufa.test/api/Business/Live", { headers: { Authorization: `Bearer ${token}` } }), { clientIp: ip });
    if (res.status === 200) {
      streams.push(res);
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      reader.releaseLock();
      expect(first).toContain("event: ready");
    }
    return res;
  }
  async function close(res: Response) {
    await res.body?.cancel().catch(() => {});
    streams.splice(streams.indexOf(res), 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it("an account gets at most its limit of open streams; the next is a 429 with Retry-After, until one closes", async () => {
    const mine = [await open(t.token, "198.51.100.1"), await open(t.token, "198.51.100.2"), await open(t.token, "198.51.100.3")];
    for (const res of mine) expect(res.status).toBe(200);
    const refused = await open(t.token, "198.51.100.4");
    expect(refused.headers.get("retry-after")).toBe("30");
    const p = await expectProblem(refused, 429);
    expect(p.title).toBe(TOO_MANY_STREAMS_MESSAGE);
    // Another account is not held back by this one.
    const theirs = await open(other.token, "198.51.100.5");
    expect(theirs.status).toBe(200);
    await close(mine[0]);
    expect((await open(t.token, "198.51.100.4")).status).toBe(200);
    for (const res of [...streams]) await close(res);
  });

  it("a client address gets at most its limit, whichever accounts open them", async () => {
    const ip = "203.0.113.50";
    for (const token of [t.token, t.token, other.token, other.token]) expect((await open(token, ip)).status).toBe(200);
    const refused = await open(other.token, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    await refused.body?.cancel();
    expect((await open(other.token, "203.0.113.51")).status).toBe(200);
    for (const res of [...streams]) await close(res);
  });

  it("a stream ends when its token expires; one whose token is still valid stays open", async () => {
    const soon = await open(jwt("live-owner", Math.floor(Date.now() / 1000) + 2));
    const later = await open(jwt("live-owner", Math.floor(Date.now() / 1000) + 3600));
    expect([soon.status, later.status]).toEqual([200, 200]);
    const ended = await Promise.race([readToEnd(soon), timeout(6_000)]);
    expect(ended).toBe("ended");
    const reader = later.body!.getReader();
    expect(await Promise.race([reader.read().then((r) => (r.done ? "ended" : "data")), timeout(300)])).toBe("open");
    await reader.cancel();
    streams.splice(streams.indexOf(later), 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Its place is free again: three more fit beside nothing.
    for (let i = 0; i < 3; i++) expect((await open(t.token, `192.0.2.${i}`)).status).toBe(200);
    for (const res of [...streams]) await close(res);
  });

  it("a stream ends once its member is removed from the company, and frees its place", async () => {
    const [member] = await h.db
      .insert(businessMembers)
      .values({ businessId: t.businessId, firebaseUid: "live-admin", email: "live-admin@example.com", role: "ADMIN" })
      .returning({ id: businessMembers.id });
    const token = mintToken("live-admin");
    const res = await open(token);
    expect(res.status).toBe(200);
    await h.db.delete(businessMembers).where(eq(businessMembers.id, member.id));
    // Checked at most every 10 s, on the next event or keepalive (25 s).
    expect(await Promise.race([readToEnd(res), timeout(40_000)])).toBe("ended");
    streams.splice(streams.indexOf(res), 1);
  }, 45_000);
});

async function readToEnd(res: Response): Promise<"ended"> {
  const reader = res.body!.getReader();
  try {
    while (!(await reader.read()).done);
  } finally {
    reader.releaseLock();
  }
  return "ended";
}

describe.each(testBackends())("live streams, default limits ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "live-default");
  });
  afterAll(() => h?.close());

  it(`holds ${DEFAULT_LIVE_STREAM_LIMITS.perAccount} streams of one account, not one more`, async () => {
    const opened: Response[] = [];
    for (let i = 0; i < DEFAULT_LIVE_STREAM_LIMITS.perAccount; i++) {
      const res = await h.call("GET", "/Business/Live", { token: t.token });
      expect(res.status).toBe(200);
      opened.push(res);
    }
    const refused = await h.call("GET", "/Business/Live", { token: t.token });
    expect(refused.status).toBe(429);
    await refused.body?.cancel();
    await Promise.all(opened.map((res) => res.body?.cancel()));
  });
});
