// Access matrix (issue 10): every Business API endpoint × every kind of caller — anonymous, a
// forged token, unverified e-mail, no company yet, a company pending/rejected/suspended,
// another tenant, the owner — answers the right status, never a 5xx, never another tenant's
// data. The endpoint list comes from the app itself, so a new endpoint is covered (or fails
// the first test until it is classified).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { chargingSessions, notifications, payments } from "#db/schema";
import {
  chargerInput,
  createTenant,
  expectStatus,
  imageForm,
  mintToken,
  openHarness,
  PNG_1x1,
  rateInput,
  stationInput,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";

/** Public: no token needed. */
const PUBLIC = new Set(["GET /api/openapi.json", "GET /api/images/:file"]);
/** The caller's own account and company: any company status (a pending company fixes its data). */
const OWN_ACCOUNT = new Set([
  "GET /api/Account/Business",
  "POST /api/Account/Business",
  "GET /api/Business/BusinessUser",
  "PATCH /api/Business/BusinessUser/Update",
  "PATCH /api/Business/Images/ProfilePicture",
  "DELETE /api/Business/Images/ProfilePicture",
]);
/** Needs no company at all (registering one). */
const NO_COMPANY_OK = new Set(["GET /api/Account/Business", "POST /api/Account/Business"]);

/** Texts only the owner's rows contain. */
const OWNER_SECRETS = ["Secreta-Owner", "Tarifa-Owner", "Cargador-Owner", "OWNER-TAG", "Aviso-Owner", "APP_USR-owner-secret", "owner-public"];

interface Endpoint {
  method: string;
  path: string;
  key: string;
}

describe.each(testBackends())("access matrix ($name)", (backend) => {
  let h: Harness;
  let owner: Tenant;
  let other: Tenant;
  let pending: Tenant;
  let rejected: Tenant;
  let suspended: Tenant;
  const ids: Record<string, string> = {};
  let endpoints: Endpoint[] = [];

  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 100_000 });
    owner = await createTenant(h, "matrix-owner");
    other = await createTenant(h, "matrix-other");
    pending = await createTenant(h, "matrix-pending", "PENDING");
    rejected = await createTenant(h, "matrix-rejected", "REJECTED");
    suspended = await createTenant(h, "matrix-suspended", "SUSPENDED");
    const t = owner.token;
    ids.station = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t, body: stationInput({ name: "Secreta-Owner" }) }), 201)).id;
    ids.rate = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t, body: rateInput({ name: "Tarifa-Owner" }) }), 201)).id;
    const charger = await expectStatus(
      await h.call("POST", "/Business/Charger", { token: t, body: chargerInput({ name: "Cargador-Owner", stationId: ids.station }) }),
      201,
    );
    ids.charger = charger.id;
    const [session] = await h.db
      .insert(chargingSessions)
      .values({
        businessId: owner.businessId,
        stationId: ids.station,
        chargerId: ids.charger,
        connectorId: charger.connectors[0].id,
        connectorNumber: 1,
        idTag: "OWNER-TAG",
        startedAt: new Date(),
        stoppedAt: new Date(),
        meterStartWh: 0,
        energyWh: 999,
        status: "COMPLETED",
      })
      .returning();
    ids.session = session.id;
    const [note] = await h.db.insert(notifications).values({ businessId: owner.businessId, type: "SYSTEM", title: "Aviso-Owner", body: "privado" }).returning();
    ids.notification = note.id;
    await h.db.insert(payments).values({ businessId: owner.businessId, sessionId: ids.session, provider: "MERCADOPAGO", amountCents: 777, status: "APPROVED", externalId: "owner-ext" });
    const photo = await expectStatus(await h.call("PATCH", "/Business/Images/ProfilePicture", { token: t, body: imageForm(PNG_1x1) }), 200);
    ids.file = String(photo.photoUrl).split("/").pop()!;
    await expectStatus(await h.call("PUT", "/MercadoPago/BusinessUser", { token: t, body: { publicKey: "APP_USR-owner-public", accessToken: "APP_USR-owner-secret-7777" } }), 200);

    const seen = new Set<string>();
    endpoints = h.api.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, path: r.path, key: `${r.method} ${r.path}` }))
      .filter((e) => !seen.has(e.key) && seen.add(e.key));
  });
  afterAll(() => h?.close());

  /** The concrete URL (without /api) of an endpoint, ids taken from the owner's rows. */
  function url(e: Endpoint): string {
    const base = e.path.replace(/^\/api/, "");
    if (!base.includes(":")) return base;
    const kind = base.startsWith("/Business/ChargingStation")
      ? "station"
      : base.startsWith("/Business/Charger")
        ? "charger"
        : base.startsWith("/Business/Fees")
          ? "rate"
          : base.startsWith("/Business/Activity")
            ? "session"
            : base.startsWith("/Business/Notification")
              ? "notification"
              : "file";
    return base.replace(/:id|:file/, ids[kind]);
  }

  /** A request body that is well-formed enough to get past authentication (validation may refuse it). */
  function body(e: Endpoint): unknown {
    if (e.method === "GET" || e.method === "DELETE") return undefined;
    if (e.path.includes("/Images")) return imageForm(PNG_1x1);
    return {};
  }

  async function call(e: Endpoint, token: string | null) {
    const res = await h.call(e.method, url(e), { token, body: body(e) });
    const type = res.headers.get("content-type") ?? "";
    // Streams (live events) are only checked for their status.
    const text = type.includes("event-stream") ? (await res.body?.cancel(), "") : await res.text();
    return { status: res.status, text, type };
  }

  const auth = (e: Endpoint) => !PUBLIC.has(e.key);

  it("knows every endpoint", () => {
    expect(endpoints.length).toBeGreaterThan(40);
    for (const e of endpoints) expect(e.path.startsWith("/api/"), e.key).toBe(true);
  });

  it("anonymous: 401 problem+json in Spanish on everything but the public contract and images", async () => {
    for (const e of endpoints) {
      const r = await call(e, null);
      if (!auth(e)) expect(r.status, e.key).toBe(200);
      else {
        expect(r.status, e.key).toBe(401);
        expect(r.type, e.key).toContain("application/problem+json");
        expect(JSON.parse(r.text).title, e.key).toBe("Sesión inválida o vencida.");
      }
    }
  });

  it("a malformed, forged or unsigned token: 401 everywhere", async () => {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const unsigned = `${enc({ alg: "none" })}.${enc({ sub: owner.uid, user_id: owner.uid, email_verified: true })}.`;
    for (const token of ["nonsense", unsigned, `${owner.token}x`]) {
      for (const e of endpoints.filter(auth)) expect((await call(e, token)).status, `${e.key} ${token.slice(0, 12)}`).toBe(401);
    }
  });

  it("unverified e-mail: 403 with the spec's message everywhere", async () => {
    const token = mintToken(owner.uid, { verified: false });
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, token);
      expect(r.status, e.key).toBe(403);
      expect(JSON.parse(r.text).title, e.key).toBe("Por favor, verifique su casilla para validar su correo");
    }
  });

  it("no company yet: only registering one (and asking whether there is one) is allowed", async () => {
    const token = mintToken("matrix-nobody");
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, token);
      if (NO_COMPANY_OK.has(e.key)) {
        // GET answers { exists: false }; POST with an empty body is a validation error.
        expect(r.status, e.key).toBe(e.method === "GET" ? 200 : 422);
      } else {
        expect(r.status, e.key).toBe(403);
        expect(JSON.parse(r.text).type, e.key).toBe("urn:enchufa:problem:business-required");
      }
    }
  });

  it.each(["pending", "rejected", "suspended"] as const)("company %s: own account and profile only, the back office answers 403", async (which) => {
    const tenant = { pending, rejected, suspended }[which];
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, tenant.token);
      expect(r.status, e.key).toBeLessThan(500);
      if (OWN_ACCOUNT.has(e.key)) expect([401, 403], e.key).not.toContain(r.status);
      else {
        expect(r.status, e.key).toBe(403);
        expect(JSON.parse(r.text).type, e.key).toBe("urn:enchufa:problem:business-not-active");
      }
      for (const secret of OWNER_SECRETS) expect(r.text, e.key).not.toContain(secret);
    }
  });

  it("another tenant: the owner's ids answer 404, lists show none of the owner's rows, nothing is changed", async () => {
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, other.token);
      expect(r.status, e.key).toBeLessThan(500);
      expect([401, 403], e.key).not.toContain(r.status);
      if (/:id/.test(e.path)) expect(r.status, e.key).toBe(404);
      for (const secret of OWNER_SECRETS) expect(r.text, e.key).not.toContain(secret);
    }
    // The owner's rows are all still there.
    for (const [path, name] of [
      [`/Business/ChargingStation/${ids.station}`, "Secreta-Owner"],
      [`/Business/Fees/${ids.rate}`, "Tarifa-Owner"],
      [`/Business/Charger/${ids.charger}`, "Cargador-Owner"],
    ]) {
      expect(JSON.stringify(await expectStatus(await h.call("GET", path, { token: owner.token }), 200))).toContain(name);
    }
    const [note] = await h.db.select().from(notifications).where(eq(notifications.id, ids.notification));
    expect(note.readAt).toBeNull();
  });

  it("the owner: every endpoint answers (no 401/403, its own ids found, no 5xx); deletes last", async () => {
    const ordered = [...endpoints.filter(auth).filter((e) => e.method !== "DELETE"), ...endpoints.filter((e) => e.method === "DELETE")];
    for (const e of ordered) {
      const r = await call(e, owner.token);
      expect(r.status, `${e.key}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      expect([401, 403], e.key).not.toContain(r.status);
      if (/:id/.test(e.path) && e.method !== "DELETE") expect(r.status, e.key).not.toBe(404);
    }
  });
});
