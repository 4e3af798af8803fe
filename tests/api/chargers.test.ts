// /Business/Charger: connectors, OCPP identity and password, assignment to stations.
import { IDENTITY_PROBES_PER_HOUR } from "#api/routes/chargers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { verifyOcppPassword } from "#infra/crypto";
import { chargers, connectors } from "#db/schema";
import {
  chargerInput,
  createTenant,
  expectProblem,
  expectStatus,
  openHarness,
  rateInput,
  stationInput,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";

describe.each(testBackends())("chargers ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  let stationId: string;
  let rateId: string;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "ch-owner");
    stationId = (await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput() }), 201)).id;
    rateId = (await expectStatus(await h.call("POST", "/Business/Fees", { token: t.token, body: rateInput() }), 201)).id;
  });
  afterAll(() => h?.close());

  let chargerId: string;
  let password: string;

  it("creates a charger with connectors and returns the OCPP password once (only its hash is stored)", async () => {
    const input = chargerInput({ name: "Wallbox Norte", stationId, ocppIdentity: "AR-BUE-0001", connectors: [
      { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId },
      { connectorId: 2, standard: "CHADEMO", format: "CABLE", powerType: "DC", maxPowerKw: 62.5 },
    ] });
    const body = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: input }), 201);
    chargerId = body.id;
    password = body.ocppPassword;
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(body).toMatchObject({
      name: "Wallbox Norte",
      stationId,
      stationName: "Estación Palermo",
      ocppIdentity: "AR-BUE-0001",
      ocppUrl: "wss://enchufa.test/ocpp/AR-BUE-0001",
      ocppProtocol: "ocpp1.6",
      hasPassword: true,
      enabled: true,
      online: false,
      statusSummary: { available: 0, charging: 0, faulted: 0, offline: 2 },
    });
    expect(body.connectors).toEqual([
      expect.objectContaining({ connectorId: 1, standard: "IEC_62196_T2", standardLabel: "Tipo 2", maxPowerKw: 22, rateId, rateName: "Tarifa AC", status: "Unavailable", statusLabel: "No disponible", bucket: "offline" }),
      expect.objectContaining({ connectorId: 2, standard: "CHADEMO", standardLabel: "CHAdeMO", maxPowerKw: 62.5, rateId: null, rateName: null }),
    ]);

    const [row] = await h.db.select().from(chargers).where(eq(chargers.id, chargerId));
    expect(row.ocppPasswordHash).toMatch(/^sha256\$/);
    expect(row.ocppPasswordHash).not.toContain(password);
    expect(await verifyOcppPassword(password, row.ocppPasswordHash)).toBe(true);

    const read = await expectStatus(await h.call("GET", `/Business/Charger/${chargerId}`, { token: t.token }), 200);
    expect(read).not.toHaveProperty("ocppPassword");
    expect(JSON.stringify(read)).not.toContain(row.ocppPasswordHash!);
  });

  it("rotates the password: a new one once, the old one stops working", async () => {
    const body = await expectStatus(await h.call("POST", `/Business/Charger/${chargerId}/RotatePassword`, { token: t.token }), 200);
    expect(body.ocppPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(body.ocppPassword).not.toBe(password);
    const [row] = await h.db.select().from(chargers).where(eq(chargers.id, chargerId));
    expect(await verifyOcppPassword(body.ocppPassword, row.ocppPasswordHash)).toBe(true);
    expect(await verifyOcppPassword(password, row.ocppPasswordHash)).toBe(false);
  });

  it("refuses a duplicate OCPP identity (409 field error), even from another business", async () => {
    const p = await expectProblem(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ ocppIdentity: "AR-BUE-0001" }) }), 409);
    expect(p.errors).toEqual({ ocppIdentity: ["Ya tenés un cargador con ese identificador OCPP."] });
  });

  it("another company's identity: refused without saying it is in use, with one under the company's prefix, and probing is rate-limited", async () => {
    const other = await createTenant(h, "ch-other");
    const p = await expectProblem(await h.call("POST", "/Business/Charger", { token: other.token, body: chargerInput({ ocppIdentity: "AR-BUE-0001" }) }), 409);
    const [message] = p.errors!.ocppIdentity;
    expect(message).toMatch(/^Ese identificador OCPP no está disponible\. Probá con «[A-Z0-9]{1,8}-AR-BUE-0001»\.$/);
    expect(JSON.stringify(p)).not.toMatch(/en uso|registrad/);
    // The suggestion is free: it creates the charger.
    const suggestion = /«(.+)»/.exec(message)![1];
    await expectStatus(await h.call("POST", "/Business/Charger", { token: other.token, body: chargerInput({ ocppIdentity: suggestion }) }), 201);
    for (let i = 1; i < IDENTITY_PROBES_PER_HOUR; i++) await expectProblem(await h.call("POST", "/Business/Charger", { token: other.token, body: chargerInput({ ocppIdentity: "AR-BUE-0001" }) }), 409);
    const limited = await expectProblem(await h.call("POST", "/Business/Charger", { token: other.token, body: chargerInput({ ocppIdentity: "AR-BUE-0001" }) }), 429);
    expect(limited.title).toMatch(/^Demasiados intentos\. Esperá \d+ minutos? y probá de nuevo\.$/);
  });

  it("validates identity, connectors and references (422)", async () => {
    const p = await expectProblem(
      await h.call("POST", "/Business/Charger", {
        token: t.token,
        body: chargerInput({
          ocppIdentity: "con espacios/",
          name: "",
          connectors: [
            { connectorId: 1, standard: "IEC_62196_T2", format: "PLUG", powerType: "AC", maxPowerKw: 0 },
            { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "DC", maxPowerKw: 2000 },
          ],
        }),
      }),
      422,
    );
    expect(p.errors).toMatchObject({
      name: ["Este campo es obligatorio."],
      ocppIdentity: ["Usá de 3 a 48 letras, números, puntos, guiones o guiones bajos (sin espacios)."],
      "connectors[0].format": ["Elegí una opción válida."],
      "connectors[0].powerType": ["Elegí una opción válida."],
      "connectors[0].maxPowerKw": ["La potencia debe ser mayor a 0."],
      "connectors[1].maxPowerKw": ["La potencia máxima es 1000 kW."],
    });
    const dup = await expectProblem(
      await h.call("POST", "/Business/Charger", {
        token: t.token,
        body: chargerInput({
          connectors: [
            { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 },
            { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22.123 },
          ],
        }),
      }),
      422,
    );
    expect(dup.errors).toEqual({ "connectors[1].maxPowerKw": ["Como máximo 2 decimales."], "connectors[1].connectorId": ["Ese número de conector está repetido."] });
    const dup2 = await expectProblem(
      await h.call("POST", "/Business/Charger", {
        token: t.token,
        body: chargerInput({
          connectors: [
            { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 },
            { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 },
          ],
        }),
      }),
      422,
    );
    expect(dup2.errors).toEqual({ "connectors[1].connectorId": ["Ese número de conector está repetido."] });
    const none = await expectProblem(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ connectors: [] }) }), 422);
    expect(none.errors).toEqual({ connectors: ["Agregá al menos un conector."] });

    const refs = await expectProblem(
      await h.call("POST", "/Business/Charger", {
        token: t.token,
        body: chargerInput({
          stationId: "00000000-0000-4000-8000-000000000000",
          brandId: 999999,
          connectors: [{ connectorId: 1, standard: "NOPE", format: "SOCKET", powerType: "DC", maxPowerKw: 50, rateId: "00000000-0000-4000-8000-000000000000" }],
        }),
      }),
      422,
    );
    expect(refs.errors).toEqual({
      stationId: ["La estación no existe."],
      brandId: ["Elegí una marca de la lista."],
      "connectors[0].standard": ["Elegí un tipo de conector de la lista."],
      "connectors[0].rateId": ["La tarifa no existe."],
    });
  });

  it("updates with PUT, reconciling connectors by number (status kept, removed ones deleted)", async () => {
    await h.db.update(connectors).set({ status: "Charging" }).where(eq(connectors.chargerId, chargerId));
    await h.db.update(chargers).set({ online: true }).where(eq(chargers.id, chargerId));
    const body = await expectStatus(
      await h.call("PUT", `/Business/Charger/${chargerId}`, {
        token: t.token,
        body: chargerInput({
          name: "Wallbox Norte II",
          stationId: null,
          ocppIdentity: "AR-BUE-0001",
          connectors: [
            { connectorId: 1, standard: "IEC_62196_T2_COMBO", format: "CABLE", powerType: "DC", maxPowerKw: 50, rateId },
            { connectorId: 3, standard: "DOMESTIC_F", format: "SOCKET", powerType: "AC_1_PHASE", maxPowerKw: 3.7 },
          ],
        }),
      }),
      200,
    );
    expect(body).toMatchObject({ name: "Wallbox Norte II", stationId: null, stationName: null, statusSummary: { charging: 1, offline: 1 } });
    expect(body.connectors.map((k: { connectorId: number; standard: string; status: string }) => [k.connectorId, k.standard, k.status])).toEqual([
      [1, "IEC_62196_T2_COMBO", "Charging"],
      [3, "DOMESTIC_F", "Unavailable"],
    ]);
  });

  it("assigns chargers to a station, all or nothing", async () => {
    const second = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ name: "Otro" }) }), 201);
    const unassigned = await expectStatus(await h.call("GET", "/Business/Charger?unassigned=true", { token: t.token }), 200);
    expect(unassigned.items.map((c: { id: string }) => c.id).sort()).toEqual([chargerId, second.id].sort());

    const bad = await expectProblem(
      await h.call("POST", "/Business/Charger/Assign", { token: t.token, body: { stationId, chargerIds: [chargerId, "00000000-0000-4000-8000-000000000000"] } }),
      422,
    );
    expect(bad.errors).toEqual({ chargerIds: ["Uno o más cargadores no existen."] });
    const still = await expectStatus(await h.call("GET", `/Business/Charger/${chargerId}`, { token: t.token }), 200);
    expect(still.stationId).toBeNull();

    const ok = await expectStatus(await h.call("POST", "/Business/Charger/Assign", { token: t.token, body: { stationId, chargerIds: [chargerId, second.id] } }), 200);
    expect(ok.stationId).toBe(stationId);
    expect(ok.items.map((c: { stationName: string }) => c.stationName)).toEqual(["Estación Palermo", "Estación Palermo"]);

    const v = await expectProblem(await h.call("POST", "/Business/Charger/Assign", { token: t.token, body: { stationId: "x", chargerIds: [] } }), 422);
    expect(v.errors).toEqual({ stationId: ["El valor no es válido."], chargerIds: ["Elegí al menos un cargador."] });
  });

  it("lists with filters (q, stationId, status bucket), sort whitelist and pagination", async () => {
    const all = await expectStatus(await h.call("GET", "/Business/Charger", { token: t.token }), 200);
    expect(all).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    expect(all.items.every((c: { connectors: unknown[] }) => c.connectors.length > 0)).toBe(true);

    const byStation = await expectStatus(await h.call("GET", `/Business/Charger?stationId=${stationId}&q=norte`, { token: t.token }), 200);
    expect(byStation.items.map((c: { name: string }) => c.name)).toEqual(["Wallbox Norte II"]);

    const charging = await expectStatus(await h.call("GET", "/Business/Charger?status=charging", { token: t.token }), 200);
    expect(charging.items.map((c: { id: string }) => c.id)).toEqual([chargerId]);
    const offline = await expectStatus(await h.call("GET", "/Business/Charger?status=offline", { token: t.token }), 200);
    expect(offline.total).toBe(2); // the second is offline; the first has an Unavailable connector

    const sorted = await expectStatus(await h.call("GET", "/Business/Charger?sort=-name&pageSize=1", { token: t.token }), 200);
    expect(sorted).toMatchObject({ total: 2, pageSize: 1 });
    expect(sorted.items[0].name).toBe("Wallbox Norte II");

    const p = await expectProblem(await h.call("GET", "/Business/Charger?status=broken&sort=ocpp_password_hash", { token: t.token }), 422);
    expect(Object.keys(p.errors!).sort()).toEqual(["sort", "status"]);
  });

  it("deletes a charger (204), but not while a session is open (409)", async () => {
    const { chargingSessions } = await import("#db/schema");
    const [k] = await h.db.select().from(connectors).where(eq(connectors.chargerId, chargerId)).limit(1);
    await h.db.insert(chargingSessions).values({
      businessId: t.businessId,
      stationId,
      chargerId,
      connectorId: k.id,
      connectorNumber: k.connectorId,
      idTag: "TAG1",
      startedAt: new Date(),
      meterStartWh: 0,
      status: "ACTIVE",
    });
    const p = await expectProblem(await h.call("DELETE", `/Business/Charger/${chargerId}`, { token: t.token }), 409);
    expect(p.title).toMatch(/carga en curso/);
    await h.db.update(chargingSessions).set({ status: "COMPLETED", stoppedAt: new Date() }).where(eq(chargingSessions.chargerId, chargerId));
    expect((await h.call("DELETE", `/Business/Charger/${chargerId}`, { token: t.token })).status).toBe(204);
    await expectProblem(await h.call("GET", `/Business/Charger/${chargerId}`, { token: t.token }), 404);
    await expectProblem(await h.call("POST", `/Business/Charger/${chargerId}/RotatePassword`, { token: t.token }), 404);
  });
});
