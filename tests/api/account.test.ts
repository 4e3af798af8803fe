// Authentication, the business context, problem+json errors, company registration and profile.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { eq } from "drizzle-orm";
import { businessMembers, businessUsers, notifications } from "#db/schema";
import { openDatabase } from "#db/client";
import {
  callApi,
  createTenant,
  createTestApi,
  expectProblem,
  expectStatus,
  fakeVerifyToken,
  mintToken,
  openHarness,
  TEST_KEYS,
  testBackends,
  validCuit,
  type Harness,
} from "./helpers";

const registration = (cuit: string) => ({
  businessName: "Cargas del Sur S.A.",
  cuit,
  businessAddress: "Av. Corrientes 1234, CABA",
  phoneNumber: "+54 11 4567-8900",
});

describe.each(testBackends())("account and auth ($name)", (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(backend);
  });
  afterAll(() => h?.close());

  describe("authentication", () => {
    it("answers 401 problem+json without a token, with a bad token and with a non-bearer scheme", async () => {
      for (const headers of [{} as Record<string, string>, { Authorization: "Bearer nope" }, { Authorization: "Basic dXNlcjpwYXNz" }, { Authorization: "Bearer " }]) {
        const res = await callApi(h.api, "GET", "/Business/BusinessUser", { headers });
        const p = await expectProblem(res, 401);
        expect(p.title).toBe("Sesión inválida o vencida.");
        expect(p.type).toBe("urn:enchufa:problem:unauthenticated");
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    });

    it("applies to every protected base path", async () => {
      for (const path of [
        "/Account/Business",
        "/Business/ChargingStation",
        "/Business/Charger",
        "/Driver/ConnectorType",
        "/Business/Fees",
        "/Business/Activity",
        "/Business/Dashboard",
        "/Business/Graphic",
        "/Business/Notification",
        "/Business/Service",
        "/Business/ChargerBrand",
        "/MercadoPago/BusinessUser",
        "/Pagos360/BusinessUser",
        "/Business/Payments",
      ]) {
        await expectProblem(await h.call("GET", path), 401);
      }
    });

    it("never logs the token", async () => {
      const secret = "test:leaky-uid:leak@example.com:maybe";
      await h.call("GET", "/Business/BusinessUser", { token: secret });
      expect(JSON.stringify(h.logs)).not.toContain(secret);
      expect(JSON.stringify(h.logs)).not.toContain("leaky-uid");
    });

    it("answers 403 with the spec message when the e-mail is not verified", async () => {
      const res = await h.call("GET", "/Account/Business", { token: mintToken("unverified", { verified: false }) });
      const p = await expectProblem(res, 403);
      expect(p.title).toBe("Por favor, verifique su casilla para validar su correo");
      expect(p.type).toBe("urn:enchufa:problem:email-not-verified");
    });

    it("echoes a sane x-request-id and generates one otherwise", async () => {
      const mine = await h.call("GET", "/Account/Business", { headers: { "x-request-id": "abc-123" } });
      expect(mine.headers.get("x-request-id")).toBe("abc-123");
      const weird = await h.call("GET", "/Account/Business", { headers: { "x-request-id": "bad id with spaces" } });
      expect(weird.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("answers unknown routes with a 404 problem", async () => {
      const p = await expectProblem(await h.call("GET", "/Nope", { token: mintToken("x") }), 404);
      expect(p.title).toBe("La ruta no existe.");
    });
  });

  describe("/Account/Business", () => {
    it("reports a missing company, then registers it as PENDING", async () => {
      const token = mintToken("acct-1", { email: "Ops@Cargas.com.ar" });
      expect(await expectStatus(await h.call("GET", "/Account/Business", { token }), 200)).toEqual({ exists: false, email: "Ops@Cargas.com.ar", companies: [] });

      const cuit = validCuit(21_000_001);
      const formatted = `${cuit.slice(0, 2)}-${cuit.slice(2, 10)}-${cuit[10]}`;
      const created = await expectStatus(await h.call("POST", "/Account/Business", { token, body: registration(formatted) }), 201);
      expect(created).toEqual({
        businessAddress: "Av. Corrientes 1234, CABA",
        businessName: "Cargas del Sur S.A.",
        cuit, // normalized to 11 digits
        phoneNumber: "+54 11 4567-8900",
        photoUrl: null,
        status: "PENDING",
        email: "ops@cargas.com.ar",
      });
      const status = await expectStatus(await h.call("GET", "/Account/Business", { token }), 200);
      expect(status).toMatchObject({ exists: true, status: "PENDING", businessName: "Cargas del Sur S.A.", cuit });
    });

    it("refuses a second company for the same account (409)", async () => {
      const token = mintToken("acct-1");
      const p = await expectProblem(await h.call("POST", "/Account/Business", { token, body: registration(validCuit(21_000_500)) }), 409);
      expect(p.title).toBe("Tu cuenta ya tiene una empresa registrada.");
    });

    it("answers a CUIT already registered like a registration pending review, without a company", async () => {
      const cuit = validCuit(21_000_001);
      const answer = await expectStatus(await h.call("POST", "/Account/Business", { token: mintToken("acct-2"), body: registration(cuit) }), 201);
      expect(answer).toMatchObject({ cuit, status: "PENDING", email: "acct-2@example.com" });
      // The account then reads as pending review, as a fresh registrant does; no company exists for it.
      expect(await expectStatus(await h.call("GET", "/Account/Business", { token: mintToken("acct-2") }), 200)).toMatchObject({ exists: true, status: "PENDING", cuit });
      expect(await h.db.select().from(businessMembers).where(eq(businessMembers.firebaseUid, "acct-2"))).toEqual([]);
    });

    it("validates every field with Spanish messages (422)", async () => {
      const token = mintToken("acct-3");
      const empty = await expectProblem(await h.call("POST", "/Account/Business", { token, body: {} }), 422);
      expect(empty.type).toBe("urn:enchufa:problem:validation");
      expect(empty.errors).toEqual({
        businessName: ["Este campo es obligatorio."],
        cuit: ["Este campo es obligatorio."],
        businessAddress: ["Este campo es obligatorio."],
        phoneNumber: ["Este campo es obligatorio."],
      });

      const bad = await expectProblem(
        await h.call("POST", "/Account/Business", {
          token,
          body: { businessName: "X", cuit: "20-12345678-0", businessAddress: "Calle 1", phoneNumber: "abc" },
        }),
        422,
      );
      expect(bad.errors?.businessName).toEqual(["Mínimo 2 caracteres."]);
      expect(bad.errors?.cuit).toEqual(["El dígito verificador del CUIT no es válido."]);
      expect(bad.errors?.phoneNumber?.[0]).toMatch(/^Ingresá un teléfono válido/);

      const shape = await expectProblem(await h.call("POST", "/Account/Business", { token, body: registration("123") }), 422);
      expect(shape.errors?.cuit).toEqual(["Ingresá un CUIT de 11 dígitos (XX-XXXXXXXX-X)."]);
      const prefix = await expectProblem(await h.call("POST", "/Account/Business", { token, body: registration("99123456781") }), 422);
      expect(prefix.errors?.cuit?.[0]).toMatch(/tipo válido/);
    });

    it("answers 400 for a body that is not JSON and 415 for another content type", async () => {
      const token = mintToken("acct-3");
      const bad = await h.call("POST", "/Account/Business", { token, body: "{not json", headers: { "Content-Type": "application/json" } });
      expect((await expectProblem(bad, 400)).title).toBe("El cuerpo de la solicitud no es JSON válido.");
      const form = await h.call("POST", "/Account/Business", { token, body: "a=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      await expectProblem(form, 415);
    });

    it("approves at once (and notifies) when autoApproveBusinesses is on", async () => {
      const local = createTestApi({ db: h.db, verifyToken: fakeVerifyToken, encryptionKeys: TEST_KEYS, autoApproveBusinesses: true, logger: { info() {}, warn() {}, error() {} } });
      const token = mintToken("acct-local");
      const created = await expectStatus(await callApi(local, "POST", "/Account/Business", { token, body: registration(validCuit(21_001_000)) }), 201);
      expect(created.status).toBe("ACTIVE");
      const [b] = await h.db.select().from(businessUsers).where(eq(businessUsers.firebaseUid, "acct-local"));
      const notes = await h.db.select().from(notifications).where(eq(notifications.businessId, b.id));
      expect(notes.map((n) => n.type)).toEqual(["BUSINESS_APPROVED"]);
    });
  });

  describe("business status gates", () => {
    it("403 'registrá tu empresa' without a company, on profile and back office alike", async () => {
      const token = mintToken("no-company");
      for (const path of ["/Business/BusinessUser", "/Business/ChargingStation", "/Driver/ConnectorType"]) {
        const p = await expectProblem(await h.call("GET", path, { token }), 403);
        expect(p.title).toBe("Primero registrá tu empresa.");
        expect(p.type).toBe("urn:enchufa:problem:business-required");
      }
    });

    it.each([
      ["PENDING", "Tu empresa todavía no fue aprobada."],
      ["REJECTED", "La solicitud de alta de tu empresa fue rechazada."],
      ["SUSPENDED", "Tu empresa está suspendida. Comunicate con soporte."],
    ] as const)("a %s company reads its profile but gets 403 on the back office", async (status, message) => {
      const t = await createTenant(h, `gate-${status}`, status);
      const profile = await expectStatus(await h.call("GET", "/Business/BusinessUser", { token: t.token }), 200);
      expect(profile.status).toBe(status);
      for (const path of ["/Business/ChargingStation", "/Business/Charger", "/Business/Fees", "/Business/Dashboard", "/Business/Notification", "/MercadoPago/BusinessUser", "/Business/Service"]) {
        const p = await expectProblem(await h.call("GET", path, { token: t.token }), 403);
        expect(p.title).toBe(message);
        expect(p.type).toBe("urn:enchufa:problem:business-not-active");
      }
    });
  });

  describe("/Business/BusinessUser", () => {
    it("returns the spec's field names", async () => {
      const t = await createTenant(h, "profile-1");
      const body = await expectStatus(await h.call("GET", "/Business/BusinessUser", { token: t.token }), 200);
      expect(Object.keys(body).sort()).toEqual(["businessAddress", "businessName", "cuit", "email", "phoneNumber", "photoUrl", "status"]);
      expect(body).toMatchObject({ status: "ACTIVE", cuit: t.cuit, photoUrl: null });
    });

    it("updates profile fields and answers the updated user", async () => {
      const t = await createTenant(h, "profile-2");
      const res = await h.call("PATCH", "/Business/BusinessUser/Update", {
        token: t.token,
        body: { businessName: "  Nuevo Nombre SRL ", phoneNumber: "0351 555-1234", businessAddress: "Bv. San Juan 100, Córdoba", photoUrl: "https://lh3.googleusercontent.com/a/photo.jpg" },
      });
      const body = await expectStatus(res, 200);
      expect(body).toMatchObject({ businessName: "Nuevo Nombre SRL", phoneNumber: "0351 555-1234", businessAddress: "Bv. San Juan 100, Córdoba", photoUrl: "https://lh3.googleusercontent.com/a/photo.jpg" });
      // The blank placeholder means "no photo".
      const cleared = await expectStatus(await h.call("PATCH", "/Business/BusinessUser/Update", { token: t.token, body: { photoUrl: "/images/blank.png" } }), 200);
      expect(cleared.photoUrl).toBeNull();
    });

    it("validates the update (422) and rejects foreign photo URLs", async () => {
      const t = await createTenant(h, "profile-3");
      const p = await expectProblem(
        await h.call("PATCH", "/Business/BusinessUser/Update", { token: t.token, body: { businessName: "", photoUrl: "javascript:alert(1)" } }),
        422,
      );
      expect(p.errors?.businessName).toEqual(["Este campo es obligatorio."]);
      expect(p.errors?.photoUrl).toEqual(["La foto debe ser una imagen subida o una dirección https."]);
      const ghost = await expectProblem(
        await h.call("PATCH", "/Business/BusinessUser/Update", { token: t.token, body: { photoUrl: `/api/images/${"0".repeat(64)}.png` } }),
        422,
      );
      expect(ghost.errors?.photoUrl?.[0]).toMatch(/no existe/);
    });

    it("lets a company change its CUIT only while not ACTIVE", async () => {
      const active = await createTenant(h, "cuit-active");
      const p = await expectProblem(await h.call("PATCH", "/Business/BusinessUser/Update", { token: active.token, body: { cuit: validCuit(22_000_000) } }), 422);
      expect(p.errors?.cuit?.[0]).toMatch(/no se puede cambiar/);
      // Same CUIT again is not a change.
      await expectStatus(await h.call("PATCH", "/Business/BusinessUser/Update", { token: active.token, body: { cuit: active.cuit } }), 200);

      const pending = await createTenant(h, "cuit-pending", "PENDING");
      const newCuit = validCuit(22_100_000);
      const ok = await expectStatus(await h.call("PATCH", "/Business/BusinessUser/Update", { token: pending.token, body: { cuit: newCuit } }), 200);
      expect(ok.cuit).toBe(newCuit);
      const taken = await expectProblem(await h.call("PATCH", "/Business/BusinessUser/Update", { token: pending.token, body: { cuit: active.cuit } }), 409);
      expect(taken.errors).toEqual({ cuit: ["No pudimos usar ese CUIT. Si es el de tu empresa, escribinos."] });
    });
  });

  describe("unexpected errors", () => {
    it("answer 500 without internals, logged with the request id", async () => {
      // A database that is down answers 503 (tests/api/database-down.test.ts); any other failure
      // of a query is unexpected: a database whose every statement throws an internal error.
      const real = await openDatabase({ inMemory: true });
      onTestFinished(() => real.close());
      const failing = new Proxy(real.db, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (typeof value !== "function") return value;
          return () => {
            throw new Error("select * from business_users: internal failure (PGlite stack)");
          };
        },
      });
      const logs: object[] = [];
      const api = createTestApi({
        db: failing,
        verifyToken: fakeVerifyToken,
        encryptionKeys: TEST_KEYS,
        logger: { info() {}, warn() {}, error: (obj) => logs.push(obj) },
      });
      const token = mintToken("boom");
      const res = await callApi(api, "GET", "/Account/Business", { token, headers: { "x-request-id": "req-500" } });
      const p = await expectProblem(res, 500);
      expect(p.title).toBe("Ocurrió un error inesperado.");
      expect(p.detail).toContain("req-500");
      expect(JSON.stringify(p)).not.toMatch(/select|business_users|stack|PGlite/i);
      expect(res.headers.get("x-request-id")).toBe("req-500");
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ requestId: "req-500", method: "GET", path: "/api/Account/Business" });
      expect(JSON.stringify(logs)).not.toContain(token);
    });
  });
});

describe("request size", () => {
  it("refuses bodies over 1 MiB with a 413 problem", async () => {
    const h = await openHarness(testBackends()[0]);
    try {
      const res = await h.call("POST", "/Account/Business", { token: mintToken("big"), body: { businessName: "x".repeat(1024 * 1024 + 10) } });
      const p = await expectProblem(res, 413);
      expect(p.title).toBe("El contenido es demasiado grande.");
    } finally {
      await h.close();
    }
  });
});
