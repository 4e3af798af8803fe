// Access matrix of the dashboard: every app route (layout + its own loader, and the
// actions of the edit screens) × {anonymous, unverified e-mail, no company, pending company,
// another tenant, owner, and a member of each role} → the right redirect or status, never another
// tenant's data; a role that may not see a screen gets 403 in Spanish, one that may not act gets
// 403 for the action (by intent) and nothing changes. The loaders talk to the real Business API
// in-process over a real database (PGlite).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessMembers, chargerDiagnostics, payments, rates, stations } from "#db/schema";
import { createInvoicing, type Invoicing } from "../../invoicing";
import { fakeGateway } from "../mocks/arca-fake";
import { ROLES, ROLE_LABELS, can, type Role } from "#domain/permissions";
import { SCREEN_RULES, holds, needFor, screenRuleFor } from "~/lib/access.server";
import routeConfig from "~/routes";
import { testBackends } from "../setup/db";
import { chargerInput, createTenant, expectStatus, fakeVerifyToken, openHarness, rateInput, stationInput, type Harness, type Tenant } from "../api/helpers";
import { args, fakeVerifyIdToken, makeContext, makeIdToken, run, type TestContext } from "./auth-helpers";
import { sessionStorage, startWebSession } from "~/lib/session.server";
import * as layout from "~/routes/app/layout";

/** Route.LoaderArgs / Route.ActionArgs of any of these routes: the ones with an :id read it, the rest ignore it. */
type AnyRouteArgs = ReturnType<typeof args<{ id: string }>>;
type Loader = (args: AnyRouteArgs) => unknown;
type Action = (args: AnyRouteArgs) => unknown;
interface RouteModule {
  loader?: Loader;
  action?: Action;
}

/** The payment provider screen as a URL reaches it: its loader and action get that `:provider`. */
function providerScreen(provider: string) {
  return () =>
    import("~/routes/app/payment/provider").then(
      (m): RouteModule => ({
        loader: (a) => m.loader({ ...a, params: { provider } } as never),
        action: (a) => m.action({ ...a, params: { provider } } as never),
      }),
    );
}

/** Every route under the app layout (app/routes.ts), with its module. */
const ROUTES: [string, () => Promise<RouteModule>][] = [
  ["/home", () => import("~/routes/app/home")],
  ["/station", () => import("~/routes/app/station/index")],
  ["/station/new", () => import("~/routes/app/station/new")],
  ["/station/edit/:station", () => import("~/routes/app/station/edit")],
  ["/charger", () => import("~/routes/app/charger/index")],
  ["/charger/new", () => import("~/routes/app/charger/new")],
  ["/charger/edit/:charger", () => import("~/routes/app/charger/edit")],
  ["/charger/add", () => import("~/routes/app/charger/add")],
  ["/charger/edit/:charger/messages", () => import("~/routes/app/charger/messages")],
  ["/charger/edit/:charger/maintenance", () => import("~/routes/app/charger/maintenance")],
  ["/activity", () => import("~/routes/app/activity")],
  ["/rate", () => import("~/routes/app/rate/index")],
  ["/rate/new", () => import("~/routes/app/rate/new")],
  ["/rate/reprice", () => import("~/routes/app/rate/reprice")],
  ["/rate/holidays", () => import("~/routes/app/rate/holidays")],
  ["/rate/edit/:rate", () => import("~/routes/app/rate/edit")],
  ["/tag", () => import("~/routes/app/tag/index")],
  ["/tag/new", () => import("~/routes/app/tag/new")],
  ["/tag/edit/:tag", () => import("~/routes/app/tag/edit")],
  ["/tag/import", () => import("~/routes/app/tag/import")],
  ["/group", () => import("~/routes/app/group/index")],
  ["/group/new", () => import("~/routes/app/group/new")],
  ["/group/edit/:group", () => import("~/routes/app/group/edit")],
  ["/reservation", () => import("~/routes/app/reservation/index")],
  ["/reservation/new", () => import("~/routes/app/reservation/new")],
  ["/notification", () => import("~/routes/app/notification")],
  ["/user", () => import("~/routes/app/user")],
  ["/payment", () => import("~/routes/app/payment/index")],
  // One module (payment/payments/:provider) for both providers, listed by its URLs.
  ["/payment/payments/mercadoPago", providerScreen("mercadoPago")],
  ["/payment/payments/pagos360", providerScreen("pagos360")],
  ["/payment/reconciliation", () => import("~/routes/app/payment/reconciliation")],
  ["/payment/invoice", () => import("~/routes/app/payment/invoice")],
  ["/payment/invoice/:invoice", () => import("~/routes/app/payment/invoice-detail")],
  ["/team", () => import("~/routes/app/team")],
  ["/audit", () => import("~/routes/app/audit")],
  ["/roaming", () => import("~/routes/app/roaming")],
  ["/fiscal", () => import("~/routes/app/fiscal")],
];
/** Resource routes outside the layout that need the same guard. */
const RESOURCES: [string, () => Promise<RouteModule>][] = [
  ["/activity/export.csv", () => import("~/routes/app/activity-export")],
  ["/audit/export.csv", () => import("~/routes/app/audit-export")],
  ["/tag/export.csv", () => import("~/routes/app/tag/export")],
  ["/payment/reconciliation/export.csv", () => import("~/routes/app/payment/reconciliation-export")],
  ["/payment/invoice/export.csv", () => import("~/routes/app/payment/invoice-export")],
  ["/payment/invoice/:invoice/pdf", () => import("~/routes/app/payment/invoice-pdf")],
  ["/charger/edit/:charger/messages.csv", () => import("~/routes/app/charger/messages-export")],
  // Its params are { id, diagnosticsId }: concrete() gives both.
  ["/charger/edit/:charger/diagnostics/:diagnosticsId", () => import("~/routes/app/charger/diagnostics-file") as Promise<unknown> as Promise<RouteModule>],
  ["/charger/qr/:charger", () => import("~/routes/app/charger/qr")],
  ["/charger/stickers/:charger", () => import("~/routes/app/charger/stickers")],
  ["/station/stickers/:station", () => import("~/routes/app/station/stickers")],
];

const SECRETS = ["Estacion-Propia", "Tarifa-Propia", "Cargador-Propio"];
const APP = "http://app.test";

const backend = testBackends()[0]; // PGlite: the route logic is the same on both

describe("access matrix of the app routes", () => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  let pending: Tenant;
  // `provider` is the payment provider screen's parameter (a name, not a row's id), for the hostile posts.
  const ids: Record<string, string> = { provider: "mercadoPago" };
  // Vouchers from an in-memory ARCA; the API is built before the database, so it reaches the service through this.
  const gateway = fakeGateway();
  let invoicingService: Invoicing;
  const invoicing = new Proxy({} as Invoicing, { get: (_, k: keyof Invoicing) => invoicingService[k] });
  const cookies: Record<string, string> = {};
  /** A member of the owner's company for each role (OWNER: the owner). */
  const roleCookies = {} as Record<Role, string>;

  async function cookieFor(uid: string, verified = true) {
    const email = `${uid}@example.com`;
    const session = await sessionStorage.getSession();
    await startWebSession(session, {
      uid,
      email,
      idToken: makeIdToken({ uid, email, email_verified: verified }),
      refreshToken: "refresh",
      expiresAt: Date.now() + 3600_000,
    });
    return (await sessionStorage.commitSession(session)).split(";")[0];
  }

  beforeAll(async () => {
    // The API accepts both the harness's tokens and the unsigned ones the route tests mint (makeIdToken).
    const verifyToken = (token: string) => fakeVerifyToken(token).catch(() => fakeVerifyIdToken(token));
    h = await openHarness(backend, { verifyToken, accountRequestsPerMinute: 100_000, invoicing });
    invoicingService = createInvoicing({ db: h.db, gateway, logger: { info: () => {}, warn: () => {}, error: () => {} } });
    owner = await createTenant(h, "route-owner", "ACTIVE");
    other = await createTenant(h, "route-other", "ACTIVE");
    pending = await createTenant(h, "route-pending", "PENDING");
    const t = owner.token;
    ids.station = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t, body: stationInput({ name: "Estacion-Propia" }) }), 201)).id;
    ids.rate = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t, body: rateInput({ name: "Tarifa-Propia" }) }), 201)).id;
    ids.charger = (await expectStatus(await h.call("POST", "/Business/Charger", { token: t, body: chargerInput({ name: "Cargador-Propio", stationId: ids.station }) }), 201)).id;
    ids.group = (await expectStatus(await h.call("POST", "/Business/AccessGroup", { token: t, body: { name: "Grupo-Propio" } }), 201)).id;
    // An authorised Factura B of a settled QR payment (its PDF is a resource route).
    gateway.settings.set(owner.businessId, { companyId: owner.businessId, cuit: owner.cuit, taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION" });
    const [qr] = await h.db
      .insert(payments)
      .values({ businessId: owner.businessId, provider: "MERCADOPAGO", origin: "QR", step: "FINISHED", status: "PARTIALLY_REFUNDED", amountCents: 500_000, chargedCents: 121_000, refundedCents: 379_000, finishedAt: new Date() })
      .returning();
    ids.invoice = (await invoicingService.paymentSettled(qr.id))!.id;
    ids.tag = (await expectStatus(await h.call("POST", "/Business/Tag", { token: t, body: { idTag: "TAG-PROPIA", holderName: "Titular-Propio", groupId: ids.group } }), 201)).id;
    const [diagnostics] = await h.db
      .insert(chargerDiagnostics)
      .values({ businessId: owner.businessId, chargerId: ids.charger, requestId: 1, tokenHash: "x", status: "UPLOADED", content: Buffer.from("diagnostico"), sizeBytes: 11, requestedAt: new Date() })
      .returning();
    ids.diagnosticsId = diagnostics.id;
    cookies.owner = await cookieFor(owner.uid);
    cookies.other = await cookieFor(other.uid);
    cookies.pending = await cookieFor(pending.uid);
    cookies.nocompany = await cookieFor("route-nobody");
    cookies.unverified = await cookieFor(owner.uid, false);
    roleCookies.OWNER = cookies.owner;
    for (const role of ROLES.filter((r) => r !== "OWNER")) {
      const uid = `route-${role.toLowerCase()}`;
      await h.db.insert(businessMembers).values({ businessId: owner.businessId, firebaseUid: uid, email: `${uid}@example.com`, role });
      roleCookies[role] = await cookieFor(uid);
    }
  });
  afterAll(() => h?.close());

  function context(): TestContext {
    return makeContext(undefined, { apiFetch: async (request: Request) => h.api.fetch(request), apiBaseUrl: "http://api.test/api" });
  }

  function concrete(pattern: string) {
    // The first parameter is the route's `id`; a second (a charger's diagnostics file) keeps its name.
    const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
    if (names.length === 0) return { path: pattern, params: {} as { id: string } };
    const path = names.reduce((p, n) => p.replace(`:${n}`, ids[n]), pattern);
    return { path, params: { id: ids[names[0]], ...Object.fromEntries(names.slice(1).map((n) => [n, ids[n]])) } as { id: string } };
  }

  /** What React Router does for a document request: the layout loader and the route's own, each guarded. */
  async function visit(pattern: string, mod: RouteModule, cookie?: string) {
    const { path, params } = concrete(pattern);
    const ctx = context();
    const req = () => new Request(`${APP}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
    const inLayout = ROUTES.some(([p]) => p === pattern);
    const [parent, own] = await Promise.all([
      inLayout ? run(() => layout.loader(args(req(), ctx, params))) : Promise.resolve(undefined),
      mod.loader ? run(() => mod.loader!(args(req(), ctx, params))) : Promise.resolve(undefined),
    ]);
    return { parent, own, body: JSON.stringify([parent?.data, own?.data]) };
  }

  const all = [...ROUTES, ...RESOURCES];

  it.each(all)("%s — anonymous → login with redirectTo", async (pattern, load) => {
    const { parent, own } = await visit(pattern, await load());
    const { path } = concrete(pattern);
    for (const res of [parent, own].filter(Boolean)) {
      expect(res!.status, pattern).toBe(302);
      expect(res!.location, pattern).toBe(path === "/home" ? "/auth/login" : `/auth/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it.each(all)("%s — unverified e-mail → signed out to login", async (pattern, load) => {
    const { parent, own, body } = await visit(pattern, await load(), cookies.unverified);
    for (const res of [parent, own].filter(Boolean)) {
      expect(res!.status, pattern).toBe(302);
      expect(res!.location, pattern).toMatch(/^\/auth\/login/);
    }
    for (const s of SECRETS) expect(body).not.toContain(s);
  });

  it.each(all)("%s — no company → login-company", async (pattern, load) => {
    const { parent, own } = await visit(pattern, await load(), cookies.nocompany);
    for (const res of [parent, own].filter(Boolean)) {
      expect(res!.status, pattern).toBe(302);
      expect(res!.location, pattern).toMatch(/^\/auth\/login-company/);
    }
  });

  it.each(all)("%s — pending company → verify-company", async (pattern, load) => {
    const { parent, own, body } = await visit(pattern, await load(), cookies.pending);
    for (const res of [parent, own].filter(Boolean)) {
      expect(res!.status, pattern).toBe(302);
      expect(res!.location, pattern).toBe("/auth/verify-company");
    }
    for (const s of SECRETS) expect(body).not.toContain(s);
  });

  it.each(all)("%s — another tenant → its own data only; the owner's ids are 404", async (pattern, load) => {
    const { parent, own, body } = await visit(pattern, await load(), cookies.other);
    if (parent) expect(parent.status, pattern).toBe(200);
    if (own) expect(own.status, pattern).toBe(pattern.includes(":") ? 404 : 200);
    for (const s of SECRETS) expect(body, pattern).not.toContain(s);
  });

  it.each(all)("%s — the owner → 200", async (pattern, load) => {
    const { parent, own, body } = await visit(pattern, await load(), cookies.owner);
    if (parent) expect(parent.status, pattern).toBe(200);
    if (own) expect(own.status, `${pattern}: ${String(body).slice(0, 300)}`).toBe(200);
    if (pattern.includes(":station")) expect(body).toContain("Estacion-Propia");
  });

  it("every screen of app/routes.ts has a rule in app/lib/access.ts and is in this matrix; no rule is left over", () => {
    const paths: string[] = [];
    const walk = (entries: { path?: string; children?: unknown[] }[], inLayout: boolean) => {
      for (const e of entries) {
        if (e.children) walk(e.children as never, inLayout || (e as { file?: string }).file === "routes/app/layout.tsx");
        else if (inLayout && e.path) paths.push(`/${e.path}`);
      }
    };
    walk(routeConfig as never, false);
    // The first parameter is the route's :id (a charger's diagnostics file has a second one).
    const asRouted = (p: string) => p.replace(/:\w+/, ":id");
    const matrix = ROUTES.map(([p]) => asRouted(p));
    // A parameter that names a screen rather than a row (the payment provider) is listed by its values.
    const byValue = (p: string) => ROUTES.some(([m]) => !m.includes(":") && new RegExp(`^${p.replace(/:\w+/g, "[^/]+")}$`).test(m));
    expect(paths.filter((p) => !matrix.includes(p) && !byValue(p)), "add these routes to ROUTES").toEqual([]);
    const resources = RESOURCES.map(([r]) => asRouted(r));
    for (const p of [...paths, ...resources]) expect(screenRuleFor(p.replace(":id", crypto.randomUUID())), p).toBeDefined();
    const known = [...paths, ...resources];
    expect(SCREEN_RULES.map((r) => r.pattern).filter((p) => !known.includes(p))).toEqual([]);
  });

  it.each(ROLES)("role %s: the screens it may see answer 200, the others 403 in Spanish (the layout still renders)", async (role) => {
    for (const [pattern, load] of all) {
      const { path } = concrete(pattern);
      const need = needFor(new URL(path, APP).pathname, "GET")!;
      const allowed = holds(role, need);
      const { parent, own, body } = await visit(pattern, await load(), roleCookies[role]);
      if (parent) expect(parent.status, `${role} ${pattern}`).toBe(200);
      if (!own) continue;
      if (allowed) {
        expect(own.status, `${role} ${pattern}: ${String(body).slice(0, 300)}`).toBe(200);
        // Money (revenue, penalties, fees, amounts) reaches only the roles that may see payments; a
        // station's QR prepayment limits are its settings, not figures.
        const money = String(body).match(/"(?!qrM(?:in|ax)Cents")\w*Cents"/g) ?? [];
        if (!can(role, "payment.read")) expect(money, `${role} ${pattern}`).toEqual([]);
        else if (pattern === "/home") expect(money, `${role} ${pattern}`).toContain('"revenueCents"');
      } else {
        expect(own.status, `${role} ${pattern}`).toBe(403);
        expect(own.data.message, `${role} ${pattern}`).toMatch(new RegExp(`^Tu rol \\(${ROLE_LABELS[role]}\\) no permite .+\\.$`));
        for (const s of SECRETS.slice(1)) expect(body, `${role} ${pattern}`).not.toContain(s);
      }
    }
  });

  it.each(ROLES)("role %s: every action by intent is allowed or refused as the table says, and a refused one changes nothing", async (role) => {
    const post = (path: string, fields: Record<string, string>) =>
      new Request(`${APP}${path}`, { method: "POST", headers: { Cookie: roleCookies[role], "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
    for (const [pattern, load] of ROUTES) {
      const mod = await load();
      if (!mod.action) continue;
      const rule = screenRuleFor(concrete(pattern).path)!;
      const intents = typeof rule.write === "object" ? Object.keys(rule.write).map((k) => (k === "*" ? "delete" : k)) : ["delete"];
      for (const intent of intents) {
        // Made-up ids: an allowed action gets as far as "not found" or a validation answer, never changing the owner's rows.
        const made = crypto.randomUUID();
        const path = pattern.replace(/:\w+$/, made);
        const params = { id: made };
        const res = await run(() => mod.action!(args(post(path, { intent, id: crypto.randomUUID() }), context(), params)));
        const allowed = holds(role, needFor(new URL(path, APP).pathname, "POST", intent)!);
        expect(res.status, `${role} ${pattern} ${intent}`).toBeLessThan(500);
        if (allowed) expect(res.status, `${role} ${pattern} ${intent}: ${JSON.stringify(res.data).slice(0, 200)}`).not.toBe(403);
        else {
          expect(res.status, `${role} ${pattern} ${intent}`).toBe(403);
          expect(res.data.message, `${role} ${pattern} ${intent}`).toMatch(/^Tu (rol|cuenta) .+\.$/);
        }
      }
    }
    const [s] = await h.db.select().from(stations).where(eq(stations.id, ids.station));
    expect(s.name).toBe("Estacion-Propia");
  });

  it("another tenant's edit and delete actions on the owner's rows answer 404 and change nothing", async () => {
    const post = (path: string, fields: Record<string, string>) =>
      new Request(`${APP}${path}`, { method: "POST", headers: { Cookie: cookies.other, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
    const station = await import("~/routes/app/station/edit");
    const rate = await import("~/routes/app/rate/edit");
    const charger = await import("~/routes/app/charger/edit");
    const rateList = await import("~/routes/app/rate/index");
    const cases: [Action, string, { id: string }, Record<string, string>][] = [
      [station.action, `/station/edit/${ids.station}`, { id: ids.station }, { name: "Robada", intent: "save" }],
      [station.action, `/station/edit/${ids.station}`, { id: ids.station }, { intent: "delete" }],
      [rate.action, `/rate/edit/${ids.rate}`, { id: ids.rate }, { name: "Robada" }],
      [rate.action, `/rate/edit/${ids.rate}`, { id: ids.rate }, { intent: "delete" }],
      [charger.action, `/charger/edit/${ids.charger}`, { id: ids.charger }, { intent: "delete" }],
      [charger.action, `/charger/edit/${ids.charger}`, { id: ids.charger }, { intent: "rotate-password" }],
      [rateList.action, "/rate", {} as { id: string }, { intent: "delete", id: ids.rate }],
    ];
    for (const [action, path, params, fields] of cases) {
      const res = await run(() => action(args(post(path, fields), context(), params)));
      // 404, a validation answer, or back to the list with "it no longer exists": never done, never a 5xx.
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBeLessThan(500);
      if (res.status < 400) expect(res.location, `${path} ${JSON.stringify(fields)}`).toMatch(/^\/(rate|station|charger)$/);
    }
    const [s] = await h.db.select().from(stations).where(eq(stations.id, ids.station));
    expect(s.name).toBe("Estacion-Propia");
    const [r] = await h.db.select().from(rates).where(eq(rates.id, ids.rate));
    expect(r.name).toBe("Tarifa-Propia");
  });

  // Hostile posts (issue: bad input never a 500): every route of app/routes.ts that has an action,
  // found from the route table itself so a new form is walked as soon as it is routed, gets a
  // JSON body, plain text, a broken multipart body, and forms whose texts carry NUL/control
  // characters or dates out of range. Each goes through the root's form guard and then the action,
  // as React Router runs them: a 4xx or a redirect, never a 5xx.
  const MODULES = import.meta.glob<RouteModule>("/app/routes/**/*.{ts,tsx}");
  const HOSTILE_FIELDS = ["name", "holderName", "idTag", "email", "businessName", "businessAddress", "address", "city", "phoneNumber", "role", "expiresOn", "expiresAt", "from", "to", "partyId", "versionsUrl", "label", "accountLabel"];
  const hostileForm = (value: string, intent?: string) => {
    const form = new URLSearchParams(Object.fromEntries(HOSTILE_FIELDS.map((f) => [f, value])));
    if (intent) form.set("intent", intent);
    form.set("formToken", crypto.randomUUID());
    return form.toString();
  };
  const HOSTILE_POSTS: { type: string; body: string }[] = [
    { type: "application/json", body: JSON.stringify({ name: "x", holderName: "y" }) },
    { type: "text/plain", body: "name=x" },
    { type: "multipart/form-data; boundary=xyz", body: "--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nsin cierre" },
    { type: "multipart/form-data", body: "sin boundary" },
    ...["a%00b", "%01", "9999-12-31", "0001-01-01"].flatMap((v) => [undefined, "save", "create", "delete", "invite"].map((intent) => ({ type: "application/x-www-form-urlencoded", body: hostileForm(decodeURIComponent(v), intent) }))),
  ];

  function routedActions(): { path: string; file: string }[] {
    const out: { path: string; file: string }[] = [];
    const walk = (entries: { path?: string; file: string; children?: unknown[] }[], prefix: string) => {
      for (const e of entries) {
        const path = e.path ? `${prefix}/${e.path}` : prefix || "/";
        out.push({ path, file: e.file });
        if (e.children) walk(e.children as never, e.path ? path : prefix);
      }
    };
    walk(routeConfig as never, "");
    return out;
  }

  it("every action of app/routes.ts × JSON, text, broken multipart, NUL and out-of-range dates → never a 5xx", async () => {
    const { checkFormPost } = await import("~/lib/form-guard.server");
    let walked = 0;
    for (const { path: pattern, file } of routedActions()) {
      const load = MODULES[`/app/${file}`];
      expect(load, file).toBeDefined();
      const mod = await load();
      if (!mod.action || pattern.startsWith("/auth")) continue; // the sign-in screens talk to Firebase, not the API
      walked++;
      const first = pattern.split("/")[1];
      const params = Object.fromEntries([...pattern.matchAll(/:(\w+)/g)].map((m) => [m[1], m[1] === "id" ? (ids[first] ?? ids.station) : (ids[m[1]] ?? "X")])) as { id: string };
      const path = pattern.replace(/:(\w+)/g, (_, n: string) => (params as Record<string, string>)[n]);
      for (const { type, body } of HOSTILE_POSTS) {
        // A sign-in of its own for every post: /logout ends the sign-in it is sent with, and the
        // walk's other posts (and the tests after it) must still be signed in.
        const cookie = await cookieFor(owner.uid);
        const request = new Request(`${APP}${path}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": type }, body });
        const res = await run(async () => {
          await checkFormPost(request);
          return mod.action!(args(request, context(), params));
        });
        expect(res.status, `${path} ${type} ${body.slice(0, 60)}: ${JSON.stringify(res.data).slice(0, 200)}`).toBeLessThan(500);
      }
    }
    expect(walked).toBeGreaterThan(20);
  }, 180_000);

  it("a NUL character in a tag's holder → a field error on the form (not a 502); JSON → 415", async () => {
    const { checkFormPost } = await import("~/lib/form-guard.server");
    const tagNew = await import("~/routes/app/tag/new");
    const form = new URLSearchParams({ idTag: "NUL-TAG", holderName: "Ana\u0000", formToken: crypto.randomUUID() });
    const request = new Request(`${APP}/tag/new`, { method: "POST", headers: { Cookie: cookies.owner, "Content-Type": "application/x-www-form-urlencoded" }, body: form });
    const res = await run(() => tagNew.action(args(request, context(), {})));
    expect([400, 422]).toContain(res.status);
    expect(JSON.stringify(res.data)).toContain("caracteres no permitidos");
    const json = new Request(`${APP}/tag/new`, { method: "POST", headers: { Cookie: cookies.owner, "Content-Type": "application/json" }, body: "{}" });
    const refused = await run(() => checkFormPost(json));
    expect(refused.status).toBe(415);
  });
});
