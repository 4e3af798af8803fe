// Facturación (/fiscal): the loader shows the settings without secrets; the action reads the
// uploaded PEM files (multipart, as a browser without JavaScript sends them) and PUTs their text;
// the API's refusal lands on its field; "Probar conexión" shows each step.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as fiscal from "~/routes/app/fiscal";
import type { FiscalSettingsDto } from "#contract/dto";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { args, get, makeContext, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-fiscal", email: "ops@cargasdelsur.com.ar" }, { refreshToken: "r-fiscal" });

const SETTINGS: FiscalSettingsDto = {
  configured: true,
  companyCuit: "30712345671",
  taxCondition: "RESPONSABLE_INSCRIPTO",
  pointOfSale: 3,
  environment: "HOMOLOGACION",
  certificate: { cuit: "30712345671", expiresAt: "2026-12-10T00:00:00.000Z", fingerprint: "AA:BB", expiresSoon: true, expired: false },
  lastTest: null,
  updatedAt: "2026-11-28T00:00:00.000Z",
};
const CERT = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n";

function multipart(fields: Record<string, string | File>, cookie: string): Request {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return new Request("http://localhost/fiscal", { method: "POST", headers: { Cookie: cookie }, body });
}

describe("Facturación screen", () => {
  it("loads the settings with the certificate's CUIT and expiry warning", async () => {
    server.use(http.get(apiUrl("/Business/Fiscal"), () => HttpResponse.json(SETTINGS)));
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => fiscal.loader(args(get("/fiscal", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.settings.certificate).toMatchObject({ cuit: "30712345671", expiresSoon: true });
  });

  it("sends the uploaded files' text to PUT /Business/Fiscal and redirects with a toast", async () => {
    const bodies: Loose[] = [];
    server.use(
      http.put(apiUrl("/Business/Fiscal"), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(SETTINGS);
      }),
    );
    const { cookie } = await signedIn();
    const res = await run<Loose>(() =>
      fiscal.action(args(multipart({ intent: "save", taxCondition: "MONOTRIBUTO", pointOfSale: "3", environment: "HOMOLOGACION", certificate: new File([CERT], "a.crt"), privateKey: new File([KEY], "a.key") }, cookie), ctx())),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/fiscal");
    expect(bodies).toEqual([{ taxCondition: "MONOTRIBUTO", pointOfSale: 3, environment: "HOMOLOGACION", certificate: CERT.trim(), privateKey: KEY.trim() }]);
  });

  it("keeps the stored certificate when no file is chosen, and puts the API's refusal on its field", async () => {
    const bodies: Loose[] = [];
    server.use(
      http.put(apiUrl("/Business/Fiscal"), async ({ request }) => {
        bodies.push(await request.json());
        return problemResponse(422, "Revisá los datos ingresados.", { errors: { certificate: ["El certificado es del CUIT 20-12345678-6, no del de la empresa (30-71234567-1)."] } });
      }),
    );
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => fiscal.action(args(multipart({ intent: "save", taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: "3", environment: "PRODUCCION", certificate: new File([], ""), privateKey: new File([], "") }, cookie), ctx())));
    expect(bodies[0]).toEqual({ taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: 3, environment: "PRODUCCION" });
    expect(res.status).toBe(422);
    expect(res.data.result.error.certificate[0]).toMatch(/no del de la empresa/);
  });

  it("refuses a point of sale out of range before calling the API", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => fiscal.action(args(multipart({ intent: "save", taxCondition: "RESPONSABLE_INSCRIPTO", pointOfSale: "0", environment: "HOMOLOGACION" }, cookie), ctx())));
    expect(res.status).toBe(400);
    expect(res.data.result.error.pointOfSale[0]).toMatch(/de 1 a 99999/);
  });

  it("Probar conexión shows each step and ARCA's failure", async () => {
    server.use(
      http.post(apiUrl("/Business/Fiscal/Test"), () =>
        HttpResponse.json({ ok: false, message: "ARCA no responde.", steps: [{ step: "certificate", ok: true, message: "ok" }, { step: "login", ok: false, message: "ARCA no responde." }] }),
      ),
    );
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => fiscal.action(args(multipart({ intent: "test" }, cookie), ctx())));
    expect(res.data.test.steps.map((s: Loose) => s.ok)).toEqual([true, false]);
  });
});
