// GET /api/openapi.json documents every route the app serves, and is public.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openHarness, testBackends, type Harness } from "./helpers";

describe("openapi.json", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(testBackends()[0]);
  });
  afterAll(() => h?.close());

  it("is public OpenAPI 3 JSON", async () => {
    const res = await h.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.firebase).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Problem.required).toEqual(["type", "title", "status"]);
  });

  it("lists every route the app registers (method and path)", async () => {
    const doc = await (await h.call("GET", "/openapi.json")).json();
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    const served = new Set(
      h.api.routes
        .filter((r) => r.method !== "ALL")
        .map((r) => `${r.method} ${r.path.replace(/^\/api/, "").replace(/:(\w+)/g, "{$1}")}`),
    );
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
    for (const base of ["/Business/Activity", "/Account/Business", "/Business/Charger", "/Business/ChargerBrand", "/Driver/ConnectorType", "/Business/Dashboard", "/Business/Fees", "/MercadoPago/BusinessUser", "/Business/Notification", "/Business/Service", "/Business/ChargingStation", "/Pagos360/BusinessUser", "/Business/Graphic"]) {
      expect(doc.paths[base], base).toBeDefined();
    }
    expect(doc.paths["/Business/BusinessUser/Update"].patch).toBeDefined();
    expect(doc.paths["/Business/Images/ProfilePicture"].patch.requestBody.content["multipart/form-data"].schema.required).toEqual(["Image"]);
  });

  it("describes request bodies and query parameters from the zod schemas", async () => {
    const doc = await (await h.call("GET", "/openapi.json")).json();
    const register = doc.paths["/Account/Business"].post.requestBody.content["application/json"].schema;
    expect(register.required).toEqual(["businessName", "cuit", "businessAddress", "phoneNumber"]);
    const params = doc.paths["/Business/Activity"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(["stationId", "chargerId", "status", "from", "to", "sort", "page", "pageSize", "cursor"]));
    const pageSize = doc.paths["/Business/ChargingStation"].get.parameters.find((p: { name: string }) => p.name === "pageSize");
    expect(pageSize.schema.maximum).toBe(100);
  });
});
