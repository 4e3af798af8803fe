// 'Firmware y diagnóstico': the charger's firmware and diagnostics screen — its
// loader, UpdateFirmware for one charger or its model, diagnostics requests, and failures.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as maintenance from "~/routes/app/charger/maintenance";
import { run, type Loose, args } from "./auth-helpers";
import { apiUrl, chargerContext, failNetwork, getReq, operatorCookie, postForm, recordRequests, server } from "./charger-helpers";
import { fixtures, IDS } from "../mocks/fixtures";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const OTHER = "11111111-2222-4333-8444-555555555555";
const argsFor = (request: Request, context: ReturnType<typeof chargerContext>, id: string = IDS.charger) => args(request, context, { id });

describe("Firmware y diagnóstico", () => {
  it("the loader brings the charger, the firmware (with its model's chargers) and the last 5 diagnostics; without them the screen still opens", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() => maintenance.loader(argsFor(getReq(`/charger/edit/${IDS.charger}/maintenance`, cookie), chargerContext())));
    expect(res.data.firmware).toEqual(fixtures.chargerFirmware);
    expect(res.data.diagnostics).toEqual(fixtures.chargerDiagnostics);
    expect(seen.find((r) => r.path === `/Business/Charger/${IDS.charger}/Diagnostics`)!.search.get("pageSize")).toBe("5");

    server.use(failNetwork("/Business/Charger/:id/Firmware"), failNetwork("/Business/Charger/:id/Diagnostics"));
    const down = await run<Loose>(() => maintenance.loader(argsFor(getReq(`/charger/edit/${IDS.charger}/maintenance`, cookie), chargerContext())));
    expect(down.status).toBe(200);
    expect(down.data).toMatchObject({ charger: { id: IDS.charger, name: "Wallbox Norte" }, firmware: null, diagnostics: null });
  });

  it("another business's charger is the 404 screen", async () => {
    const cookie = await operatorCookie();
    const res = await run(() => maintenance.loader(argsFor(getReq(`/charger/edit/${OTHER}/maintenance`, cookie), chargerContext(), OTHER)));
    expect(res.status).toBe(404);
  });

  it("'Actualizar firmware' posts the URL, the local date and the whole model; the answer stays under the form with a toast", async () => {
    const cookie = await operatorCookie();
    const answer = {
      outcome: "partial",
      message: "Aceptaron «Actualizar firmware» 1 de 2 cargadores del modelo: mirá el detalle por cargador.",
      results: [
        { chargerId: IDS.charger, name: "Wallbox Norte", outcome: "accepted", message: "El cargador aceptó «Actualizar firmware»: informa el avance en «Firmware y diagnóstico»." },
        { chargerId: "0b6e0c8a-1c1d-4c5e-9a43-3a0f0f0f0f0f", name: "Wallbox Sur", outcome: "offline", message: "El cargador no está conectado: no se pudo enviar «Actualizar firmware»." },
      ],
    };
    server.use(http.post(apiUrl("/Business/Charger/:id/Firmware"), () => HttpResponse.json(answer)));
    const seen = recordRequests();
    const context = chargerContext();
    const form = { intent: "firmware", location: " https://fw.wallbox.example/c2.bin ", retrieveAt: "2030-01-02T03:00", allOfModel: "true" };
    const res = await run<Loose>(() => maintenance.action(argsFor(postForm(`/charger/edit/${IDS.charger}/maintenance`, form, cookie), context)));
    expect(res.status).toBe(200);
    expect(await seen.find((r) => r.path.endsWith("/Firmware"))!.body).toEqual({ location: "https://fw.wallbox.example/c2.bin", retrieveAt: "2030-01-02T03:00", allOfModel: true });
    expect(res.data.maintenance).toEqual({ intent: "firmware", outcome: "partial", message: answer.message, results: answer.results });
    expect(pendingToast(context)).toEqual({ type: "error", message: answer.message });
  });

  it("a wrong URL comes back on its field with what was typed; an accepted diagnostics request is a success toast", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.post(apiUrl("/Business/Charger/:id/Firmware"), () =>
        HttpResponse.json({ type: "urn:enchufa:problem:validation", title: "Revisá los datos.", status: 422, errors: { location: ["Ingresá la dirección del firmware (http, https, ftp o ftps)."] } }, { status: 422, headers: { "Content-Type": "application/problem+json" } }),
      ),
    );
    const context = chargerContext();
    const bad = await run<Loose>(() => maintenance.action(argsFor(postForm(`/charger/edit/${IDS.charger}/maintenance`, { intent: "firmware", location: "file:///x" }, cookie), context)));
    expect(bad.status).toBe(422);
    expect(bad.data.maintenance).toEqual({
      intent: "firmware",
      errors: { location: ["Ingresá la dirección del firmware (http, https, ftp o ftps)."] },
      submitted: { location: "file:///x", retrieveAt: "", allOfModel: "" },
    });
    expect(pendingToast(context)).toEqual({ type: "error", message: "Ingresá la dirección del firmware (http, https, ftp o ftps)." });

    const accepted = { kind: "GetDiagnostics", outcome: "accepted", fileName: "diag.zip", message: "El cargador aceptó «Pedir diagnóstico»: sube diag.zip y aparece en «Firmware y diagnóstico» cuando llegue.", diagnostics: fixtures.chargerDiagnostics.items[0] };
    server.use(http.post(apiUrl("/Business/Charger/:id/Diagnostics"), () => HttpResponse.json(accepted)));
    const seen = recordRequests();
    const ok = chargerContext();
    const res = await run<Loose>(() => maintenance.action(argsFor(postForm(`/charger/edit/${IDS.charger}/maintenance`, { intent: "diagnostics", from: "", to: "2030-01-02T00:00" }, cookie), ok)));
    expect(res.status).toBe(200);
    expect(await seen.find((r) => r.path.endsWith("/Diagnostics"))!.body).toEqual({ to: "2030-01-02T00:00" });
    expect(pendingToast(ok)).toEqual({ type: "success", message: accepted.message });
  });

  it("the API down: a toast saying so, nothing else", async () => {
    const cookie = await operatorCookie();
    server.use(failNetwork("/Business/Charger/:id/Diagnostics"));
    const context = chargerContext();
    const res = await run<Loose>(() => maintenance.action(argsFor(postForm(`/charger/edit/${IDS.charger}/maintenance`, { intent: "diagnostics" }, cookie), context)));
    expect(res.status).toBe(503);
    expect(pendingToast(context)).toEqual({ type: "error", message: "No pudimos enviar el pedido al cargador. Probá de nuevo." });
  });
});

describe("Mantenimiento: the local authorization list (ADR 0018)", () => {
  it("the loader says which list the charger holds; «Enviar la lista» and «Consultar versión» post to the API with the charger's answer as a toast", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => maintenance.loader(argsFor(getReq(`/charger/edit/${IDS.charger}/maintenance`, cookie), chargerContext())));
    expect(res.data.localList).toMatch(/lista/);

    server.use(
      http.post(apiUrl("/Business/Charger/:id/LocalList"), () => HttpResponse.json({ outcome: "accepted", message: "El cargador aceptó la lista local versión 3 (12 tarjetas)." })),
      http.post(apiUrl("/Business/Charger/:id/LocalList/Version"), () => HttpResponse.json({ outcome: "rejected", message: "El cargador no respondió a tiempo." })),
    );
    const seen = recordRequests();
    const sent = chargerContext();
    const ok = await run<Loose>(() => maintenance.action(argsFor(postForm(`/charger/edit/${IDS.charger}/maintenance`, { intent: "local-list" }, cookie), sent)));
    expect(ok.data).toEqual({ localListDone: true });
    expect(pendingToast(sent)).toEqual({ type: "success", message: "El cargador aceptó la lista local versión 3 (12 tarjetas)." });
    expect(seen.some((r) => r.method === "POST" && r.path === `/Business/Charger/${IDS.charger}/LocalList`)).toBe(true);

    const asked = chargerContext();
    const version = await run<Loose>(() => maintenance.action(argsFor(postForm(`/charger/edit/${IDS.charger}/maintenance`, { intent: "local-list-version" }, cookie), asked)));
    expect(version.data).toEqual({ localListDone: false });
    expect(pendingToast(asked)).toEqual({ type: "error", message: "El cargador no respondió a tiempo." });
  });
});
