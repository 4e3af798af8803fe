// The team in the dashboard, loaders and actions over the real Business API: a removed
// member is signed out on the very next page, the header's switcher changes the session's company
// only to one the account belongs to, an invitation link joins, and the Equipo screen's actions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { businessMembers } from "#db/schema";
import { memoryInbox } from "#infra/mail";
import { testBackends } from "../setup/db";
import { createTenant, fakeVerifyToken, openHarness, type Harness, type Tenant } from "../api/helpers";
import { args, cookieJar, fakeVerifyIdToken, makeContext, makeIdToken, run, type TestContext } from "./auth-helpers";
import { sessionStorage, setPendingEmail, startWebSession } from "~/lib/session.server";
import * as layout from "~/routes/app/layout";
import * as company from "~/routes/company";
import * as team from "~/routes/app/team";
import * as invitation from "~/routes/auth/invitation";

const APP = "http://app.test";
const backend = testBackends()[0];

describe("team in the dashboard", () => {
  let h: Harness;
  let owner: Tenant;
  let second: Tenant;
  const inbox = memoryInbox();

  async function cookieFor(uid: string, extra: { businessId?: string } = {}) {
    const email = `${uid}@example.com`;
    const session = await sessionStorage.getSession();
    await startWebSession(session, { uid, email, idToken: makeIdToken({ uid, email, email_verified: true }), refreshToken: "refresh", expiresAt: Date.now() + 3600_000 });
    if (extra.businessId) session.set("businessId", extra.businessId);
    return (await sessionStorage.commitSession(session)).split(";")[0];
  }

  beforeAll(async () => {
    const verifyToken = (token: string) => fakeVerifyToken(token).catch(() => fakeVerifyIdToken(token));
    h = await openHarness(backend, { verifyToken, accountRequestsPerMinute: 100_000, mailer: inbox });
    owner = await createTenant(h, "tr-owner");
    second = await createTenant(h, "tr-second");
  });
  afterAll(() => h?.close());

  const context = (): TestContext => makeContext(undefined, { apiFetch: async (request: Request) => h.api.fetch(request), apiBaseUrl: "http://api.test/api" });
  const get = (path: string, cookie: string) => new Request(`${APP}${path}`, { headers: { Cookie: cookie } });
  const post = (path: string, fields: Record<string, string>, cookie: string) =>
    new Request(`${APP}${path}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

  it("a removed member is signed out on the very next page", async () => {
    await h.db.insert(businessMembers).values({ businessId: owner.businessId, firebaseUid: "tr-gone", email: "tr-gone@example.com", role: "TECHNICIAN" });
    const cookie = await cookieFor("tr-gone", { businessId: owner.businessId });
    expect((await run(() => layout.loader(args(get("/home", cookie), context())))).status).toBe(200);
    await h.db.delete(businessMembers).where(and(eq(businessMembers.businessId, owner.businessId), eq(businessMembers.firebaseUid, "tr-gone")));
    const res = await run(() => layout.loader(args(get("/station", cookie), context())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/login?redirectTo=%2Fstation");
    const jar = cookieJar(res.headers, cookie);
    expect((await sessionStorage.getSession(jar)).get("user")).toBeUndefined();
  });

  it("the switcher: only to a company the account belongs to; the session then acts for it", async () => {
    await h.db.insert(businessMembers).values({ businessId: second.businessId, firebaseUid: owner.uid, email: "tr-owner@example.com", role: "READER" });
    const cookie = await cookieFor(owner.uid, { businessId: owner.businessId });
    const header = await run(() => layout.loader(args(get("/home", cookie), context())));
    expect(header.data.companies.map((c: { businessName: string; roleLabel: string }) => `${c.businessName} ${c.roleLabel}`).sort()).toEqual(["Empresa tr-owner Dueño", "Empresa tr-second Lectura"]);

    const switched = await run(() => company.action(args(post("/company", { businessId: second.businessId }, cookie), context())));
    expect(switched.status).toBe(302);
    expect(switched.location).toBe("/home");
    const jar = cookieJar(switched.headers, cookie);
    expect((await sessionStorage.getSession(jar)).get("businessId")).toBe(second.businessId);
    const after = await run(() => layout.loader(args(get("/home", jar), context())));
    expect(after.data).toMatchObject({ businessName: "Empresa tr-second", access: { role: "READER" }, businessId: second.businessId });
    // As a reader there, the rates are readable and the team is not.
    const teamPage = await run(() => team.loader(args(get("/team", jar), context())));
    expect(teamPage.status).toBe(403);
    expect(teamPage.data.message).toBe("Tu rol (Lectura) no permite ver el equipo.");

    // A company the account is not in: refused, the session unchanged.
    const stranger = await createTenant(h, "tr-stranger");
    const refused = await run(() => company.action(args(post("/company", { businessId: stranger.businessId }, jar), context())));
    expect(refused.status).toBe(302);
    expect((await sessionStorage.getSession(cookieJar(refused.headers, jar))).get("businessId")).toBe(second.businessId);
  });

  it("Equipo: invite, then the invitee (signed in) opens the link and joins; a wrong account is told so", async () => {
    const ownerCookie = await cookieFor(owner.uid, { businessId: owner.businessId });
    const invited = await run(() => team.action(args(post("/team", { intent: "invite", email: "tr-new@example.com", role: "BILLING" }, ownerCookie), context())));
    expect(invited.status).toBe(302);
    const token = /token=([A-Za-z0-9_-]+)/.exec(inbox.messages[0].text)![1];
    const page = await run(() => team.loader(args(get("/team", ownerCookie), context())));
    expect(page.data.invitations.map((i: { email: string }) => i.email)).toContain("tr-new@example.com");

    const stranger = await cookieFor("tr-someone");
    const wrong = await run(() => invitation.loader(args(get(`/auth/invitation?token=${token}`, stranger), context())));
    expect(wrong.data).toMatchObject({ preview: { businessName: "Empresa tr-owner", role: "BILLING" }, signedInAs: "tr-someone@example.com" });
    const refused = await run(() => invitation.action(args(post("/auth/invitation", { token }, stranger), context())));
    expect(refused.status).toBe(403);

    const invitee = await cookieFor("tr-new");
    const joined = await run(() => invitation.action(args(post("/auth/invitation", { token }, invitee), context())));
    expect(joined.status).toBe(302);
    expect(joined.location).toBe("/home");
    expect((await sessionStorage.getSession(cookieJar(joined.headers, invitee))).get("businessId")).toBe(owner.businessId);
    const used = await run(() => invitation.loader(args(get(`/auth/invitation?token=${token}`, invitee), context())));
    expect(used.status).toBe(410);
    expect(used.data.problem).toBe("Esta invitación ya fue usada.");
  });

  it("an anonymous visitor's link is kept (sealed) for the sign-in that follows", async () => {
    const ownerCookie = await cookieFor(owner.uid, { businessId: owner.businessId });
    await run(() => team.action(args(post("/team", { intent: "invite", email: "tr-later@example.com", role: "READER" }, ownerCookie), context())));
    const token = /token=([A-Za-z0-9_-]+)/.exec(inbox.messages[0].text)![1];
    const res = await run(() => invitation.loader(args(new Request(`${APP}/auth/invitation?token=${token}`), context())));
    expect(res.status).toBe(200);
    const kept = (await sessionStorage.getSession(cookieJar(res.headers))).get("invitation");
    expect(kept).toMatchObject({ email: "tr-later@example.com", businessName: "Empresa tr-owner" });
    expect(JSON.stringify(kept)).not.toContain(token);
    // Registering next adds the pending e-mail: the cookie still fits the browsers' 4 KB.
    const session = await sessionStorage.getSession(cookieJar(res.headers));
    setPendingEmail(session, { email: "tr-later@example.com", kind: "verify", refreshToken: "r".repeat(300) });
    expect((await sessionStorage.commitSession(session)).length).toBeLessThan(4096);
    const invalid = await run(() => invitation.loader(args(new Request(`${APP}/auth/invitation?token=${"x".repeat(43)}`), context())));
    expect(invalid.status).toBe(404);
  });
});
