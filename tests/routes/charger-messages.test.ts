// 'Mensajes OCPP': a charger's recent messages page, its direction filter, its CSV
// download (a resource route streaming the API's file) and the diagnostics download.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as messages from "~/routes/app/charger/messages";
import * as exportRoute from "~/routes/app/charger/messages-export";
import * as fileRoute from "~/routes/app/charger/diagnostics-file";
import { run, type Loose, args } from "./auth-helpers";
import { apiUrl, chargerContext, failNetwork, getReq, operatorCookie, recordRequests, server } from "./charger-helpers";
import { fixtures, IDS } from "../mocks/fixtures";
import { flashToast } from "./station-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const OTHER = "11111111-2222-4333-8444-555555555555";
const DIAG = fixtures.chargerDiagnostics.items[0].id;

describe("Mensajes OCPP", () => {
  it("loads the charger's name and a page of 50 messages; a known direction is passed on, an unknown one is told and ignored", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() => messages.loader(args(getReq(`/charger/edit/${IDS.charger}/messages?direction=OUT&page=2`, cookie), chargerContext(), { id: IDS.charger })));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ charger: { id: IDS.charger, name: "Wallbox Norte" }, direction: "OUT", items: fixtures.ocppMessages.items, total: 2, error: null });
    const asked = seen.find((r) => r.path.endsWith("/Message"))!;
    expect(Object.fromEntries(asked.search)).toEqual({ page: "2", pageSize: "50", direction: "OUT" });

    const odd = await run<Loose>(() => messages.loader(args(getReq(`/charger/edit/${IDS.charger}/messages?direction=SIDEWAYS`, cookie), chargerContext(), { id: IDS.charger })));
    expect(odd.data).toMatchObject({ direction: "", directionError: "Elegí una opción de la lista." });
  });

  it("another business's charger is the 404 screen; the API down is said on the page", async () => {
    const cookie = await operatorCookie();
    const res = await run(() => messages.loader(args(getReq(`/charger/edit/${OTHER}/messages`, cookie), chargerContext(), { id: OTHER })));
    expect(res.status).toBe(404);
    server.use(failNetwork("/Business/Charger/:id/Message"));
    const down = await run<Loose>(() => messages.loader(args(getReq(`/charger/edit/${IDS.charger}/messages`, cookie), chargerContext(), { id: IDS.charger })));
    expect(down.data.error).toBe("No pudimos cargar los mensajes. Probá de nuevo en unos minutos.");
  });

  it("the CSV streams the API's file; a refusal goes back to the page with a toast", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.get(apiUrl("/Business/Charger/:id/Message/Export.csv"), () =>
        new HttpResponse("\uFEFFFecha y hora;Sentido\r\n", { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="mensajes-ocpp-AR-BUE-0001.csv"' } }),
      ),
    );
    const res = (await exportRoute.loader(args(getReq(`/charger/edit/${IDS.charger}/messages.csv`, cookie), chargerContext(), { id: IDS.charger }))) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="mensajes-ocpp-AR-BUE-0001.csv"');
    expect(await res.text()).toContain("Fecha y hora;Sentido");

    server.use(http.get(apiUrl("/Business/Charger/:id/Message/Export.csv"), () => HttpResponse.json({ title: "El cargador no existe." }, { status: 404 })));
    const other = await run(() => exportRoute.loader(args(getReq(`/charger/edit/${OTHER}/messages.csv`, cookie), chargerContext(), { id: OTHER })));
    expect(other.status).toBe(404);
    server.use(http.get(apiUrl("/Business/Charger/:id/Message/Export.csv"), () => HttpResponse.json({ title: "Error" }, { status: 500 })));
    const refused = (await exportRoute.loader(args(getReq(`/charger/edit/${OTHER}/messages.csv`, cookie), chargerContext(), { id: OTHER }))) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`/charger/edit/${OTHER}/messages`);
    expect(await flashToast(refused)).toMatchObject({ type: "error", message: "No pudimos exportar los mensajes. Probá de nuevo." });
  });
});

describe("diagnostics download", () => {
  it("streams the file as a download; a file that is gone (or another company's) is the 404 screen; the API down, a toast", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.get(apiUrl("/Business/Charger/:id/Diagnostics/:diagnosticsId/File"), () =>
        new HttpResponse(new Uint8Array([1, 2, 3]), { headers: { "Content-Type": "application/octet-stream", "Content-Disposition": 'attachment; filename="diag.zip"' } }),
      ),
    );
    const res = (await fileRoute.loader(args(getReq(`/charger/edit/${IDS.charger}/diagnostics/${DIAG}`, cookie), chargerContext(), { id: IDS.charger, diagnosticsId: DIAG }))) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="diag.zip"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));

    server.use(http.get(apiUrl("/Business/Charger/:id/Diagnostics/:diagnosticsId/File"), () => HttpResponse.json({ title: "No existe." }, { status: 404 })));
    const gone = await run(() => fileRoute.loader(args(getReq(`/charger/edit/${IDS.charger}/diagnostics/${DIAG}`, cookie), chargerContext(), { id: IDS.charger, diagnosticsId: DIAG })));
    expect(gone.status).toBe(404);
    server.use(failNetwork("/Business/Charger/:id/Diagnostics/:diagnosticsId/File"));
    const down = (await fileRoute.loader(args(getReq(`/charger/edit/${IDS.charger}/diagnostics/${DIAG}`, cookie), chargerContext(), { id: IDS.charger, diagnosticsId: DIAG }))) as Response;
    expect(down.status).toBe(302);
    expect(await flashToast(down)).toMatchObject({ type: "error", message: "No pudimos descargar el diagnóstico. Probá de nuevo en unos minutos." });

    const bogus = await run(() => fileRoute.loader(args(getReq(`/charger/edit/${IDS.charger}/diagnostics/x`, cookie), chargerContext(), { id: IDS.charger, diagnosticsId: "x" })));
    expect(bogus.status).toBe(404);
  });
});
