// /Business/ChargingStation and the catalogs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chargerInput,
  createTenant,
  expectProblem,
  expectStatus,
  openHarness,
  stationInput,
  testBackends,
  type Harness,
  type Tenant,
} from "./helpers";

describe.each(testBackends())("stations and catalogs ($name)", (backend) => {
  let h: Harness;
  let t: Tenant;
  beforeAll(async () => {
    h = await openHarness(backend);
    t = await createTenant(h, "st-owner");
  });
  afterAll(() => h?.close());

  describe("catalogs", () => {
    it("lists services, charger brands and connector types in Spanish", async () => {
      const services = await expectStatus(await h.call("GET", "/Business/Service", { token: t.token }), 200);
      expect(services[0]).toEqual({ id: expect.any(Number), code: "WIFI", label: "Wi-Fi" });
      expect(services.map((s: { label: string }) => s.label)).toEqual(expect.arrayContaining(["Baños", "Cafetería", "Supermercado"]));

      const brands = await expectStatus(await h.call("GET", "/Business/ChargerBrand", { token: t.token }), 200);
      expect(brands.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(["ABB", "WEG", "Wallbox"]));

      const types = await expectStatus(await h.call("GET", "/Driver/ConnectorType", { token: t.token }), 200);
      expect(types).toEqual(expect.arrayContaining([{ id: expect.any(Number), code: "IEC_62196_T2", label: "Tipo 2", defaultPowerType: "AC_3_PHASE" }]));
    });
  });

  describe("CRUD", () => {
    let id: string;

    it("creates a station (201) with services, opening hours and defaults", async () => {
      const body = await expectStatus(
        await h.call("POST", "/Business/ChargingStation", {
          token: t.token,
          body: stationInput({
            services: ["WIFI", "CAFE", "WIFI"],
            openingHours: { twentyFourSeven: false, periods: [{ weekday: 1, begin: "08:00", end: "20:00" }] },
          }),
        }),
        201,
      );
      id = body.id;
      expect(body).toMatchObject({
        name: "Estación Palermo",
        province: "AR-C",
        provinceName: "Ciudad Autónoma de Buenos Aires",
        country: "ARG",
        latitude: -34.5875,
        longitude: -58.4097,
        services: ["WIFI", "CAFE"],
        openingHours: { twentyFourSeven: false, periods: [{ weekday: 1, begin: "08:00", end: "20:00" }] },
        timeZone: "America/Argentina/Buenos_Aires",
        published: true,
        chargerCount: 0,
        connectorCount: 0,
        statusSummary: { available: 0, charging: 0, faulted: 0, offline: 0 },
      });
    });

    it("reads it back by id", async () => {
      const body = await expectStatus(await h.call("GET", `/Business/ChargingStation/${id}`, { token: t.token }), 200);
      expect(body.id).toBe(id);
      expect(body.services).toEqual(["WIFI", "CAFE"]);
    });

    it("updates it with PUT (services replaced, 24/7 clears periods)", async () => {
      const body = await expectStatus(
        await h.call("PUT", `/Business/ChargingStation/${id}`, {
          token: t.token,
          body: stationInput({ name: "Palermo Soho", services: ["RESTROOMS"], openingHours: { twentyFourSeven: true, periods: [{ weekday: 2, begin: "08:00", end: "09:00" }] } }),
        }),
        200,
      );
      expect(body).toMatchObject({ name: "Palermo Soho", services: ["RESTROOMS"], openingHours: { twentyFourSeven: true, periods: [] } });
    });

    it("counts chargers and connectors per station, and refuses to delete while it has chargers (409)", async () => {
      const charger = await expectStatus(await h.call("POST", "/Business/Charger", { token: t.token, body: chargerInput({ stationId: id }) }), 201);
      const station = await expectStatus(await h.call("GET", `/Business/ChargingStation/${id}`, { token: t.token }), 200);
      expect(station).toMatchObject({ chargerCount: 1, connectorCount: 2, statusSummary: { available: 0, charging: 0, faulted: 0, offline: 2 } });

      const p = await expectProblem(await h.call("DELETE", `/Business/ChargingStation/${id}`, { token: t.token }), 409);
      expect(p.title).toMatch(/^La estación tiene cargadores/);

      await expectStatus(await h.call("DELETE", `/Business/Charger/${charger.id}`, { token: t.token }), 204);
      const res = await h.call("DELETE", `/Business/ChargingStation/${id}`, { token: t.token });
      expect(res.status).toBe(204);
      await expectProblem(await h.call("GET", `/Business/ChargingStation/${id}`, { token: t.token }), 404);
    });

    it("answers 404 for unknown and malformed ids", async () => {
      await expectProblem(await h.call("GET", "/Business/ChargingStation/00000000-0000-4000-8000-000000000000", { token: t.token }), 404);
      await expectProblem(await h.call("GET", "/Business/ChargingStation/not-a-uuid", { token: t.token }), 404);
      await expectProblem(await h.call("PUT", "/Business/ChargingStation/not-a-uuid", { token: t.token, body: stationInput() }), 404);
      await expectProblem(await h.call("DELETE", "/Business/ChargingStation/00000000-0000-4000-8000-000000000000", { token: t.token }), 404);
    });
  });

  describe("validation", () => {
    it("rejects out-of-range coordinates, unknown provinces and missing fields (422, Spanish)", async () => {
      const p = await expectProblem(
        await h.call("POST", "/Business/ChargingStation", {
          token: t.token,
          body: stationInput({ latitude: -91, longitude: 181, province: "Buenos Aires", name: "", postalCode: "ABC" }),
        }),
        422,
      );
      expect(p.errors).toMatchObject({
        latitude: ["La latitud debe estar entre -90 y 90."],
        longitude: ["La longitud debe estar entre -180 y 180."],
        province: ["Elegí una provincia de la lista."],
        name: ["Este campo es obligatorio."],
        postalCode: ["Ingresá un código postal válido (1425 o C1425ABC)."],
      });
    });

    it("checks the opening hours shape", async () => {
      const p = await expectProblem(
        await h.call("POST", "/Business/ChargingStation", {
          token: t.token,
          body: stationInput({
            openingHours: {
              twentyFourSeven: false,
              periods: [
                { weekday: 8, begin: "25:00", end: "10:00" },
                { weekday: 1, begin: "10:00", end: "10:00" },
              ],
            },
          }),
        }),
        422,
      );
      expect(p.errors).toMatchObject({
        "openingHours.periods[0].weekday": ["Día inválido."],
        "openingHours.periods[0].begin": ["Ingresá una hora con formato HH:MM."],
        "openingHours.periods[1].end": ["El horario de cierre debe ser distinto del de apertura."],
      });
      const none = await expectProblem(
        await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ openingHours: { twentyFourSeven: false, periods: [] } }) }),
        422,
      );
      expect(none.errors).toEqual({ "openingHours.periods": ["Indicá al menos una franja horaria o marcá 24 horas."] });
    });

    it("accepts only services from the catalog", async () => {
      const p = await expectProblem(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ services: ["WIFI", "JACUZZI"] }) }), 422);
      expect(p.errors).toEqual({ services: ["Servicio desconocido: JACUZZI."] });
    });

    it("rejects a photo that is not one of the business's images", async () => {
      const p = await expectProblem(
        await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ photoUrl: `/api/images/${"a".repeat(64)}.jpg` }) }),
        422,
      );
      expect(p.errors?.photoUrl?.[0]).toMatch(/no existe/);
    });
  });

  describe("list", () => {
    beforeAll(async () => {
      const rows: [string, string, string, boolean][] = [
        ["Córdoba Centro", "AR-X", "Córdoba", true],
        ["Mendoza Ruta 7", "AR-M", "Mendoza", false],
        ["Rosario 100% Costanera", "AR-S", "Rosario", true],
        ["Bariloche Centro", "AR-R", "San Carlos de Bariloche", true],
      ];
      for (const [name, province, city, published] of rows) {
        await expectStatus(await h.call("POST", "/Business/ChargingStation", { token: t.token, body: stationInput({ name, province, city, published }) }), 201);
      }
    });

    it("paginates with total, page and pageSize", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/ChargingStation?pageSize=2&page=2", { token: t.token }), 200);
      expect(body).toMatchObject({ total: 4, page: 2, pageSize: 2 });
      expect(body.items.map((s: { name: string }) => s.name)).toEqual(["Mendoza Ruta 7", "Rosario 100% Costanera"]);
    });

    it("filters by q (LIKE wildcards are literal), province and published", async () => {
      const q = await expectStatus(await h.call("GET", "/Business/ChargingStation?q=centro", { token: t.token }), 200);
      expect(q.items.map((s: { name: string }) => s.name)).toEqual(["Bariloche Centro", "Córdoba Centro"]);
      const pct = await expectStatus(await h.call("GET", `/Business/ChargingStation?q=${encodeURIComponent("100%")}`, { token: t.token }), 200);
      expect(pct.total).toBe(1);
      const prov = await expectStatus(await h.call("GET", "/Business/ChargingStation?province=AR-M", { token: t.token }), 200);
      expect(prov.items.map((s: { name: string }) => s.name)).toEqual(["Mendoza Ruta 7"]);
      const pub = await expectStatus(await h.call("GET", "/Business/ChargingStation?published=false&province=", { token: t.token }), 200);
      expect(pub.total).toBe(1);
    });

    it("sorts by whitelisted keys only", async () => {
      const body = await expectStatus(await h.call("GET", "/Business/ChargingStation?sort=-city", { token: t.token }), 200);
      expect(body.items[0].city).toBe("San Carlos de Bariloche");
      const p = await expectProblem(await h.call("GET", "/Business/ChargingStation?sort=business_id", { token: t.token }), 422);
      expect(p.errors).toEqual({ sort: ["Elegí una opción válida."] });
    });

    it("bounds pageSize to 100", async () => {
      const p = await expectProblem(await h.call("GET", "/Business/ChargingStation?pageSize=101&page=0", { token: t.token }), 422);
      expect(p.errors).toEqual({ pageSize: ["Debe ser menor o igual a 100."], page: ["Debe ser mayor o igual a 1."] });
    });
  });
});
