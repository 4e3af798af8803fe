// Access matrix: every Business API endpoint × every kind of caller — anonymous, a
// forged token, unverified e-mail, no company yet, a company pending/rejected/suspended,
// another tenant, the owner, and each role of a member (Dueño, Administrador, Técnico,
// Facturación, Lectura) — answers the right status, never a 5xx, never another tenant's data.
// The endpoint list comes from the app itself, and every endpoint must have a rule in the access
// table (api/access.ts), so a new endpoint is covered (or fails the first tests until it is).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessMembers, chargerDiagnostics, chargingSessions, notifications, ocpiPartners, payments, reservations } from "#db/schema";
import { ENDPOINT_RULES } from "#api/access";
import { ROLES, can, type Permission, type Role } from "#domain/permissions";
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
import { createInvoicing, type Invoicing } from "../../invoicing";
import { fakeGateway } from "../mocks/arca-fake";

/** Public: no token needed. */
const PUBLIC = new Set([
  "GET /api/openapi.json",
  "GET /api/images/:file",
  "POST /api/Invitation/Lookup",
  // A charger's diagnostics upload: no account, the URL's one-time token (refused here: 401).
  ...["PUT", "POST"].flatMap((m) => [`${m} /api/ChargerUpload/:id/:token`, `${m} /api/ChargerUpload/:id/:token/:fileName`]),
  // Drivers at a connector's QR and the providers' notifications.
  "GET /api/Driver/Charge/:identity/:connector",
  "POST /api/Driver/Charge/:identity/:connector",
  "GET /api/Driver/Payment/:id",
  "GET /api/Driver/Payment/:id/Invoice/Pdf",
  "POST /api/Driver/Payment/:id/Stop",
  "POST /api/Webhook/MercadoPago/:businessId",
  "POST /api/Webhook/Pagos360/:businessId",
]);
/** What a public endpoint answers an anonymous call with the matrix's placeholder ids and bodies. */
const PUBLIC_ANONYMOUS_STATUS: Record<string, number> = {
  "POST /api/Invitation/Lookup": 422,
  "GET /api/Driver/Charge/:identity/:connector": 404,
  "POST /api/Driver/Charge/:identity/:connector": 404,
  "GET /api/Driver/Payment/:id": 404,
  "GET /api/Driver/Payment/:id/Invoice/Pdf": 404,
  "POST /api/Driver/Payment/:id/Stop": 422,
  // Unsigned: refused, and nothing is read.
  "POST /api/Webhook/MercadoPago/:businessId": 401,
  "POST /api/Webhook/Pagos360/:businessId": 400,
  // No valid upload token in the matrix's URL: refused.
  ...Object.fromEntries(["PUT", "POST"].flatMap((m) => [`${m} /api/ChargerUpload/:id/:token`, `${m} /api/ChargerUpload/:id/:token/:fileName`]).map((k) => [k, 401])),
};
/** The caller's own account and company: any company status (a pending company fixes its data). */
const OWN_ACCOUNT = new Set([
  "GET /api/Account/Business",
  "POST /api/Account/Business",
  "GET /api/Business/BusinessUser",
  "PATCH /api/Business/BusinessUser/Update",
  "PATCH /api/Business/Images/ProfilePicture",
  "DELETE /api/Business/Images/ProfilePicture",
]);
/** Needs no company at all (registering one, joining one with an invitation, signing in). */
const NO_COMPANY_OK = new Set([
  "GET /api/Account/Business",
  "POST /api/Account/Business",
  "POST /api/Account/SignIn",
  "POST /api/Business/Member",
]);
/** Any company status: the account's own (joining another company, signing in). */
const ACCOUNT = new Set([...NO_COMPANY_OK]);

/** Texts only the owner's rows contain. */
const OWNER_SECRETS = [
  "Secreta-Owner",
  "Tarifa-Owner",
  "Cargador-Owner",
  "OWNER-TAG",
  "Titular-Owner",
  "Grupo-Owner",
  "Aviso-Owner",
  "APP_USR-owner-secret",
  "owner-public",
  "Socio-Owner",
];

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
  // Vouchers from an in-memory ARCA; the API is built before the database, so it reaches the service through this.
  const gateway = fakeGateway();
  let invoicingService: Invoicing;
  const invoicing = new Proxy({} as Invoicing, { get: (_, k: keyof Invoicing) => invoicingService[k] });
  /** A member of the owner's company per role (OWNER is the owner itself). */
  const staff = {} as Record<Role, { uid: string; token: string }>;
  let endpoints: Endpoint[] = [];

  beforeAll(async () => {
    h = await openHarness(backend, { accountRequestsPerMinute: 100_000, invoicing });
    invoicingService = createInvoicing({ db: h.db, gateway, logger: { info: () => {}, warn: () => {}, error: () => {} } });
    owner = await createTenant(h, "matrix-owner");
    other = await createTenant(h, "matrix-other");
    pending = await createTenant(h, "matrix-pending", "PENDING");
    rejected = await createTenant(h, "matrix-rejected", "REJECTED");
    suspended = await createTenant(h, "matrix-suspended", "SUSPENDED");
    const t = owner.token;
    ids.station = (
      await expectStatus(
        await h.call("POST", "/Business/ChargingStation", {
          token: t,
          body: stationInput({ name: "Secreta-Owner" }),
        }),
        201,
      )
    ).id;
    ids.rate = (
      await expectStatus(
        await h.call("POST", "/Business/Fees", {
          token: t,
          body: rateInput({ name: "Tarifa-Owner" }),
        }),
        201,
      )
    ).id;
    const charger = await expectStatus(
      await h.call("POST", "/Business/Charger", {
        token: t,
        body: chargerInput({ name: "Cargador-Owner", stationId: ids.station }),
      }),
      201,
    );
    ids.charger = charger.id;
    const group = {
      name: "Grupo-Owner",
      allStations: false,
      stationIds: [ids.station],
      rateId: ids.rate,
    };
    ids.group = (
      await expectStatus(
        await h.call("POST", "/Business/AccessGroup", {
          token: t,
          body: group,
        }),
        201,
      )
    ).id;
    ids.tag = (
      await expectStatus(
        await h.call("POST", "/Business/Tag", {
          token: t,
          body: {
            idTag: "MATRIX01",
            holderName: "Titular-Owner",
            groupId: ids.group,
          },
        }),
        201,
      )
    ).id;
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
        // Money that only the roles holding payment.read may see (Técnico does not).
        idleCents: 45_678,
        totalCents: 1_234_567,
      })
      .returning();
    ids.session = session.id;
    const [reservation] = await h.db
      .insert(reservations)
      .values({ businessId: owner.businessId, stationId: ids.station, chargerId: ids.charger, connectorId: charger.connectors[0].id, connectorNumber: 1, idTag: "OWNER-TAG", expiresAt: new Date(Date.now() + 3_600_000), feeSessionId: session.id })
      .returning();
    ids.reservation = reservation.id;
    const [note] = await h.db.insert(notifications).values({ businessId: owner.businessId, type: "SYSTEM", title: "Aviso-Owner", body: "privado" }).returning();
    ids.notification = note.id;
    // Notifications that carry amounts: a completed session's total and a payment.
    await h.db.insert(notifications).values([
      { businessId: owner.businessId, type: "SESSION_COMPLETED", title: "Sesión finalizada", body: "Estación · conector 1: 1,0 kWh, total $ 12.345,67 (incluye $ 456,78 de penalidad por 30 min de inactividad)." },
      { businessId: owner.businessId, type: "PAYMENT_RECEIVED", title: "Pago recibido", body: "Mercado Pago: $ 12.345,67 por una carga con QR." },
    ]);
    const [payment] = await h.db
      .insert(payments)
      .values({
        businessId: owner.businessId,
        sessionId: ids.session,
        provider: "MERCADOPAGO",
        amountCents: 777,
        status: "APPROVED",
        externalId: "owner-ext",
      })
      .returning();
    ids.payment = payment.id;
    // A settled QR payment with its authorised Factura B.
    gateway.settings.set(owner.businessId, { companyId: owner.businessId, cuit: owner.cuit, taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "HOMOLOGACION" });
    const [qr] = await h.db
      .insert(payments)
      .values({ businessId: owner.businessId, provider: "MERCADOPAGO", origin: "QR", step: "FINISHED", status: "PARTIALLY_REFUNDED", amountCents: 2_000_000, chargedCents: 1_234_567, refundedCents: 765_433, finishedAt: new Date() })
      .returning();
    ids.invoice = (await invoicingService.paymentSettled(qr.id))!.id;
    const photo = await expectStatus(
      await h.call("PATCH", "/Business/Images/ProfilePicture", {
        token: t,
        body: imageForm(PNG_1x1),
      }),
      200,
    );
    ids.file = String(photo.photoUrl).split("/").pop()!;
    await expectStatus(
      await h.call("PUT", "/MercadoPago/BusinessUser", {
        token: t,
        body: {
          publicKey: "APP_USR-owner-public",
          accessToken: "APP_USR-owner-secret-7777",
        },
      }),
      200,
    );
    staff.OWNER = { uid: owner.uid, token: owner.token };
    for (const role of ROLES.filter((r) => r !== "OWNER")) {
      const uid = `matrix-${role.toLowerCase()}`;
      await h.db
        .insert(businessMembers)
        .values({
          businessId: owner.businessId,
          firebaseUid: uid,
          email: `${uid}@example.com`,
          role,
        });
      staff[role] = { uid, token: mintToken(uid) };
    }
    const [victim] = await h.db
      .insert(businessMembers)
      .values({
        businessId: owner.businessId,
        firebaseUid: "matrix-victim",
        email: "matrix-victim@example.com",
        role: "READER",
      })
      .returning();
    ids.member = victim.id;
    ids.invitation = crypto.randomUUID();
    const [diagnostics] = await h.db
      .insert(chargerDiagnostics)
      .values({
        businessId: owner.businessId,
        chargerId: ids.charger,
        requestId: 1,
        tokenHash: "x",
        status: "UPLOADED",
        content: Buffer.from("Secreta-Owner diag"),
        sizeBytes: 18,
        requestedAt: new Date(),
      })
      .returning();
    ids.diagnostics = diagnostics.id;
    // A roaming partner, registered: its name must not leak.
    const [partner] = await h.db
      .insert(ocpiPartners)
      .values({
        businessId: owner.businessId,
        status: "REGISTERED",
        name: "Socio-Owner",
        partyId: "SOC",
        countryCode: "NL",
      })
      .returning();
    ids.partner = partner.id;

    const seen = new Set<string>();
    endpoints = h.api.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({
        method: r.method,
        path: r.path,
        key: `${r.method} ${r.path}`,
      }))
      .filter((e) => !seen.has(e.key) && seen.add(e.key));
  });
  afterAll(() => h?.close());

  /** The concrete URL (without /api) of an endpoint, ids taken from the owner's rows. */
  function url(e: Endpoint): string {
    const base = e.path.replace(/^\/api/, "");
    if (!base.includes(":")) return base;
    const kind = base.startsWith("/Business/Roaming/Station")
      ? "station"
      : base.startsWith("/Business/Roaming/Partner")
        ? "partner"
        : base.startsWith("/Business/ChargingStation")
          ? "station"
          : base.startsWith("/Business/Charger")
        ? "charger"
        : base.startsWith("/Business/Fees")
          ? "rate"
          : base.startsWith("/Business/Activity")
            ? "session"
            : base.startsWith("/Business/Notification")
              ? "notification"
              : base.startsWith("/Business/Member")
                ? "member"
                : base.startsWith("/Business/Invitation")
                  ? "invitation"
                  : base.startsWith("/Business/Tag")
                    ? "tag"
                    : base.startsWith("/Business/AccessGroup")
                      ? "group"
                      : base.startsWith("/Business/Reservation")
                        ? "reservation"
                        : base.startsWith("/Business/Payments")
                          ? "payment"
                          : base.startsWith("/Business/Invoice")
                            ? "invoice"
                            : "file";
    return base.replace(/:id|:file/, ids[kind]).replace(":diagnosticsId", ids.diagnostics);
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
    const text = type.includes("event-stream")
      ? (await res.body?.cancel(), "")
      : await res.text();
    return { status: res.status, text, type };
  }

  const auth = (e: Endpoint) => !PUBLIC.has(e.key);

  it("knows every endpoint", () => {
    expect(endpoints.length).toBeGreaterThan(40);
    for (const e of endpoints)
      expect(e.path.startsWith("/api/"), e.key).toBe(true);
  });

  it("every endpoint has a rule in the access table, and the table names only endpoints that exist", () => {
    const keys = endpoints.map((e) => e.key.replace(" /api/", " /"));
    expect(
      keys.filter((k) => !ENDPOINT_RULES[k]),
      "give these endpoints a rule in api/access.ts",
    ).toEqual([]);
    expect(
      Object.keys(ENDPOINT_RULES).filter((k) => !keys.includes(k)),
      "rules for endpoints that do not exist",
    ).toEqual([]);
    // Writes say what they record in the audit log (a resource, "handler" or false): never forgotten.
    for (const [key, rule] of Object.entries(ENDPOINT_RULES)) {
      if (key.startsWith("GET ") || rule.permission === "public") continue;
      expect(
        "audit" in rule && rule.audit !== undefined,
        `${key}: declare its audit`,
      ).toBe(true);
    }
    for (const e of endpoints)
      expect(PUBLIC.has(e.key), e.key).toBe(
        ENDPOINT_RULES[e.key.replace(" /api/", " /")]?.permission === "public",
      );
  });

  it("anonymous: 401 problem+json in Spanish on everything but the public contract and images", async () => {
    for (const e of endpoints) {
      const r = await call(e, null);
      // The invitation preview answers a missing token with a validation error.
      if (!auth(e)) expect(r.status, e.key).toBe(PUBLIC_ANONYMOUS_STATUS[e.key] ?? 200);
      else {
        expect(r.status, e.key).toBe(401);
        expect(r.type, e.key).toContain("application/problem+json");
        expect(JSON.parse(r.text).title, e.key).toBe(
          "Sesión inválida o vencida.",
        );
      }
    }
  });

  it("a malformed, forged or unsigned token: 401 everywhere", async () => {
    const enc = (o: object) =>
      Buffer.from(JSON.stringify(o)).toString("base64url");
    const unsigned = `${enc({ alg: "none" })}.${enc({ sub: owner.uid, user_id: owner.uid, email_verified: true })}.`;
    for (const token of ["nonsense", unsigned, `${owner.token}x`]) {
      for (const e of endpoints.filter(auth))
        expect(
          (await call(e, token)).status,
          `${e.key} ${token.slice(0, 12)}`,
        ).toBe(401);
    }
  });

  it("unverified e-mail: 403 with the spec's message everywhere", async () => {
    const token = mintToken(owner.uid, { verified: false });
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, token);
      expect(r.status, e.key).toBe(403);
      expect(JSON.parse(r.text).title, e.key).toBe(
        "Por favor, verifique su casilla para validar su correo",
      );
    }
  });

  it("no company yet: only registering one (and asking whether there is one) is allowed", async () => {
    const token = mintToken("matrix-nobody");
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, token);
      if (NO_COMPANY_OK.has(e.key)) {
        // GET and sign-in answer { exists: false }; POST with an empty body is a validation error.
        expect(r.status, e.key).toBe(
          e.method === "GET" || e.key.endsWith("SignIn") ? 200 : 422,
        );
      } else {
        expect(r.status, e.key).toBe(403);
        expect(JSON.parse(r.text).type, e.key).toBe(
          "urn:enchufa:problem:business-required",
        );
      }
    }
  });

  it.each(["pending", "rejected", "suspended"] as const)(
    "company %s: own account and profile only, the back office answers 403",
    async (which) => {
      const tenant = { pending, rejected, suspended }[which];
      for (const e of endpoints.filter(auth)) {
        const r = await call(e, tenant.token);
        expect(r.status, e.key).toBeLessThan(500);
        if (OWN_ACCOUNT.has(e.key) || ACCOUNT.has(e.key))
          expect([401, 403], e.key).not.toContain(r.status);
        else {
          expect(r.status, e.key).toBe(403);
          expect(JSON.parse(r.text).type, e.key).toBe(
            "urn:enchufa:problem:business-not-active",
          );
        }
        for (const secret of OWNER_SECRETS)
          expect(r.text, e.key).not.toContain(secret);
      }
    },
  );

  it("another tenant: the owner's ids answer 404, lists show none of the owner's rows, nothing is changed", async () => {
    for (const e of endpoints.filter(auth)) {
      const r = await call(e, other.token);
      expect(r.status, e.key).toBeLessThan(500);
      expect([401, 403], e.key).not.toContain(r.status);
      if (/:id/.test(e.path)) expect(r.status, e.key).toBe(404);
      else if (e.key === "POST /api/Business/Member")
        expect(r.status, e.key).toBe(422);
      for (const secret of OWNER_SECRETS)
        expect(r.text, e.key).not.toContain(secret);
    }
    // The owner's rows are all still there.
    for (const [path, name] of [
      [`/Business/ChargingStation/${ids.station}`, "Secreta-Owner"],
      [`/Business/Fees/${ids.rate}`, "Tarifa-Owner"],
      [`/Business/Charger/${ids.charger}`, "Cargador-Owner"],
    ]) {
      expect(
        JSON.stringify(
          await expectStatus(
            await h.call("GET", path, { token: owner.token }),
            200,
          ),
        ),
      ).toContain(name);
    }
    const [note] = await h.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, ids.notification));
    expect(note.readAt).toBeNull();
  });

  /** The rule's permission, or null for endpoints open to any account. */
  const permissionOf = (e: Endpoint): Permission | null => {
    const p = ENDPOINT_RULES[e.key.replace(" /api/", " /")]?.permission;
    return p === "public" || p === "account" || p === undefined ? null : p;
  };
  /** A write to an id nobody has (404 proves the caller got past the role check) instead of the owner's rows. */
  const harmless = (e: Endpoint) => e.method !== "GET" && /:id/.test(e.path);

  it.each(ROLES)(
    "role %s: what the role holds answers (no 401/403, no 5xx); the rest is 403 in Spanish, and nothing leaks",
    async (role) => {
      const { token } = staff[role];
      for (const e of endpoints.filter(auth)) {
        const permission = permissionOf(e);
        const allowed = permission === null || can(role, permission);
        const target = harmless(e)
          ? { ...e, path: e.path.replace(/:id/, crypto.randomUUID()) }
          : e;
        const r = await call(target, token);
        expect(
          r.status,
          `${role} ${e.key}: ${r.text.slice(0, 200)}`,
        ).toBeLessThan(500);
        if (allowed) {
          expect(
            [401, 403],
            `${role} ${e.key}: ${r.text.slice(0, 200)}`,
          ).not.toContain(r.status);
          if (harmless(e)) expect(r.status, `${role} ${e.key}`).toBe(404);
        } else {
          expect(r.status, `${role} ${e.key}`).toBe(403);
          const problem = JSON.parse(r.text);
          expect(problem.type, `${role} ${e.key}`).toBe(
            "urn:enchufa:problem:forbidden",
          );
          expect(problem.title, `${role} ${e.key}`).toMatch(
            /^Tu rol \((Dueño|Administrador|Técnico|Facturación|Lectura)\) no permite .+\.$/,
          );
          for (const secret of OWNER_SECRETS)
            expect(r.text, e.key).not.toContain(secret);
        }
      }
    },
  );

  it("the roles' reach, spelled out: Técnico has no rates, payments, activity or team; Facturación and Lectura change nothing of stations, chargers or rates", () => {
    const allowedKeys = (role: Role) =>
      endpoints
        .filter(
          (e) =>
            auth(e) &&
            (permissionOf(e) === null || can(role, permissionOf(e)!)),
        )
        .map((e) => e.key);
    const tech = allowedKeys("TECHNICIAN");
    for (const prefix of [
      "/api/Business/Fees",
      "/api/Business/Payments",
      "/api/Business/Payments/",
      "/api/MercadoPago",
      "/api/Pagos360",
      "/api/Business/Activity",
      "/api/Business/Invitation",
      "/api/Business/Audit",
    ]) {
      expect(
        tech.filter((k) => k.split(" ")[1].startsWith(prefix)),
        prefix,
      ).toEqual([]);
    }
    expect(tech).toContain("POST /api/Business/Charger/:id/Command");
    expect(tech).toContain("PUT /api/Business/ChargingStation/:id");
    for (const role of ["BILLING", "READER"] as const) {
      const writes = allowedKeys(role).filter(
        (k) =>
          !k.startsWith("GET ") &&
          /ChargingStation|Charger|Fees\/?(:id)?$|Fees$|BusinessUser|Member\/|Invitation|Images/.test(
            k,
          ),
      );
      expect(writes, role).toEqual([]);
      expect(allowedKeys(role)).toContain(
        "GET /api/Business/Activity/Export.csv",
      );
      expect(allowedKeys(role)).toContain("GET /api/Business/Fees");
    }
    expect(
      allowedKeys("READER").filter(
        (k) =>
          !k.startsWith("GET ") &&
          !ACCOUNT.has(k) &&
          !k.endsWith("/PushRegistration") &&
          !k.endsWith("/Preview"),
      ),
    ).toEqual([]);
    expect(allowedKeys("ADMIN")).toContain("PATCH /api/Business/Member/:id");
    expect(allowedKeys("ADMIN")).toContain("GET /api/Business/Audit");
  });

  /** Keys that carry an amount of money. A station's QR prepayment limits are its settings (the field roles edit them), not figures. */
  const MONEY_KEY = /Cents$|^(cost|price|noShow|payments)$/;
  const NOT_FIGURES = new Set(["qrMinCents", "qrMaxCents"]);
  const moneyKeys = (value: unknown, path = ""): string[] => {
    if (Array.isArray(value)) return value.flatMap((v, i) => moneyKeys(v, `${path}[${i}]`));
    if (!value || typeof value !== "object") return [];
    return Object.entries(value).flatMap(([k, v]) => [
      ...(MONEY_KEY.test(k) && !NOT_FIGURES.has(k) ? [`${path}.${k}`] : []),
      ...moneyKeys(v, `${path}.${k}`),
    ]);
  };
  /** Every GET a role may call, with each graphic series. */
  const readsOf = (role: Role) =>
    endpoints
      .filter((e) => auth(e) && e.method === "GET" && !e.path.endsWith("/Live"))
      .filter((e) => {
        const p = permissionOf(e);
        return p === null || can(role, p);
      })
      .flatMap((e) =>
        e.path.endsWith("/Graphic")
          ? ["energyRevenueByDay", "sessionsByHour", "topStations"].map((series) => ({ ...e, path: `${e.path}?series=${series}` }))
          : [e],
      );

  it.each(ROLES)("role %s: money (amounts, revenue, penalties, fees) only for the roles that may see payments", async (role) => {
    const seesMoney = can(role, "payment.read");
    let sawMoney = false;
    for (const e of readsOf(role)) {
      const r = await call(e, staff[role].token);
      expect(r.status, `${role} ${e.key}`).toBeLessThan(400);
      const found = r.type.includes("json") ? moneyKeys(JSON.parse(r.text)) : [];
      // Amounts written out: in a notification's text or a CSV's cells.
      const written = /\$\s?\d/.test(r.text) || /12\.345,67|1234567|12345\.67/.test(r.text);
      if (seesMoney) sawMoney ||= found.length > 0 || written;
      else {
        expect(found, `${role} ${e.path}`).toEqual([]);
        expect(written, `${role} ${e.path}: ${r.text.slice(0, 300)}`).toBe(false);
      }
    }
    if (seesMoney) expect(sawMoney, role).toBe(true);
    const dashboard = await expectStatus(await h.call("GET", "/Business/Dashboard", { token: staff[role].token }), 200);
    expect(dashboard.revenueCents, role).toBe(seesMoney ? 1_234_567 : undefined);
    expect(dashboard.energyKwh, role).toBeGreaterThan(0);
    const top = await expectStatus(await h.call("GET", "/Business/Graphic?series=topStations", { token: staff[role].token }), 200);
    expect(top.points[0].stationName, role).toBe("Secreta-Owner");
    expect(top.points[0].energyKwh, role).toBeGreaterThan(0);
  });

  it("the owner: every endpoint answers (no 401/403, its own ids found, no 5xx); deletes last", async () => {
    const ordered = [
      ...endpoints.filter(auth).filter((e) => e.method !== "DELETE"),
      ...endpoints.filter((e) => e.method === "DELETE"),
    ];
    for (const e of ordered) {
      const r = await call(e, owner.token);
      expect(r.status, `${e.key}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      expect([401, 403], e.key).not.toContain(r.status);
      // The invitation id is made up (404); the others are the owner's rows.
      if (
        /:id/.test(e.path) &&
        e.method !== "DELETE" &&
        !e.path.includes("/Invitation/")
      )
        expect(r.status, e.key).not.toBe(404);
    }
  });
});
