// Actividad: the filtered, sorted, paginated list (all in the URL), the session detail view
// (?session=<id>) and the CSV export resource route, against msw over the HTTP transport.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as activity from "~/routes/app/activity";
import * as exportCsv from "~/routes/app/activity-export";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { fixtures, IDS } from "../mocks/fixtures";
import { args, get, makeContext, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
});
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-act", email: "ops@cargasdelsur.com.ar" }, { refreshToken: "r-act" });

function lastQuery(path: string) {
  const seen: URLSearchParams[] = [];
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname === new URL(apiUrl(path)).pathname) seen.push(url.searchParams);
  });
  return () => seen.at(-1);
}

describe("activity list", () => {
  it("without a session → login, back here afterwards", async () => {
    const res = await run(() => activity.loader(args(get("/activity?status=COMPLETED"), ctx())));
    expect(res.location).toBe("/auth/login?redirectTo=%2Factivity%3Fstatus%3DCOMPLETED");
  });

  it("forwards filters, sort and page from the URL and lists the sessions", async () => {
    const { cookie } = await signedIn();
    const query = lastQuery("/Business/Activity");
    const url = `/activity?stationId=${IDS.station}&status=COMPLETED&paymentStatus=PAID&from=2025-03-01&to=2025-03-31&sort=-energyWh&page=2&junk=1`;
    const res = await run<Loose>(() => activity.loader(args(get(url, cookie), ctx())));
    expect(res.status).toBe(200);
    expect(Object.fromEntries(query()!)).toEqual({
      stationId: IDS.station,
      status: "COMPLETED",
      paymentStatus: "PAID",
      from: "2025-03-01",
      to: "2025-03-31",
      sort: "-energyWh",
      page: "2",
    });
    expect(res.data).toMatchObject({ view: "list", total: 1, sort: "-energyWh", errors: {}, filtered: true });
    // Only what a row shows travels into the page: no idTag, no ids of the charger or the station.
    const { id, stationName, chargerName, connectorNumber, connectorLabel, startedAt, status, energyKwh, durationMinutes, idleMinutes, totalCents, paymentStatus } =
      fixtures.sessionRow;
    expect(res.data.items[0]).toEqual({ id, stationName, chargerName, connectorNumber, connectorLabel, startedAt, status, energyKwh, durationMinutes, idleMinutes, totalCents, paymentStatus });
    expect(res.data.stations).toEqual([{ id: IDS.station, name: "Estación Palermo" }]);
    // The export keeps the filters and the sort, not the page.
    expect(res.data.exportHref).toBe(`/activity/export.csv?stationId=${IDS.station}&status=COMPLETED&paymentStatus=PAID&from=2025-03-01&to=2025-03-31&sort=-energyWh`);
  });

  it("the default order pages by keyset cursor: cursor/before go to the API, page does not", async () => {
    const { cookie } = await signedIn();
    const query = lastQuery("/Business/Activity");
    const res = await run<Loose>(() => activity.loader(args(get(`/activity?status=COMPLETED&cursor=abc_123&page=7`, cookie), ctx())));
    expect(res.status).toBe(200);
    expect(Object.fromEntries(query()!)).toEqual({ status: "COMPLETED", cursor: "abc_123" });
    expect(res.data).toMatchObject({ cursorPaging: true, nextCursor: null, prevCursor: null });
    await run<Loose>(() => activity.loader(args(get(`/activity?before=xyz`, cookie), ctx())));
    expect(Object.fromEntries(query()!)).toEqual({ before: "xyz" });
    // Another order keeps page numbers.
    const other = await run<Loose>(() => activity.loader(args(get(`/activity?sort=-energyWh&page=3`, cookie), ctx())));
    expect(other.data.cursorPaging).toBe(false);
  });

  it("a wrong filter gets its Spanish message and is left out of the query", async () => {
    const { cookie } = await signedIn();
    const query = lastQuery("/Business/Activity");
    const res = await run<Loose>(() => activity.loader(args(get("/activity?status=LOST&from=2025-13-45&sort=name", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.errors).toEqual({ status: "Elegí una opción válida.", from: "Ingresá una fecha válida.", sort: "Elegí una opción válida." });
    expect(query()!.toString()).toBe("");
    expect(res.data.filters.status).toBe("LOST");
  });

  it("'hasta' before 'desde' is explained on the field", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => activity.loader(args(get("/activity?from=2025-03-10&to=2025-03-01", cookie), ctx())));
    expect(res.data.errors.to).toBe("La fecha 'hasta' debe ser posterior a 'desde'.");
  });

  it("chargers are narrowed to the chosen station", async () => {
    const { cookie } = await signedIn();
    const query = lastQuery("/Business/Charger/Options");
    await run(() => activity.loader(args(get(`/activity?stationId=${IDS.station}`, cookie), ctx())));
    expect(query()!.get("stationId")).toBe(IDS.station);
  });

  it("the API down → a Spanish message, not a 500", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Activity"), () => HttpResponse.error()));
    const res = await run<Loose>(() => activity.loader(args(get("/activity", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.error).toMatch(/No pudimos cargar los datos/);
    expect(res.data.items).toEqual([]);
  });

  it("passes totals through when the API sends them", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Activity"), () => HttpResponse.json({ ...fixtures.activity, totals: { energyWh: 18_250, totalCents: 638_750 } })));
    const res = await run<Loose>(() => activity.loader(args(get("/activity", cookie), ctx())));
    expect(res.data.totals).toEqual({ energyWh: 18_250, totalCents: 638_750 });
  });
});

describe("session detail (?session=<id>)", () => {
  it("reads the session with its cost breakdown and curve, and links back to the same list", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => activity.loader(args(get(`/activity?status=COMPLETED&page=3&session=${IDS.session}`, cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.view).toBe("detail");
    expect(res.data.session.cost).toEqual(fixtures.session.cost);
    expect(res.data.session.meterSeries).toHaveLength(2);
    expect(res.data.backHref).toBe("/activity?status=COMPLETED&page=3");
  });

  it("an unknown or foreign session is a 404", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => activity.loader(args(get("/activity?session=3f7a8b9c-0d1e-4f2a-8b3c-6d7e8f9a0b1c", cookie), ctx())));
    expect(res.thrown).toBe(true);
    expect(res.status).toBe(404);
  });

  it("a malformed id is a 404 without calling the API", async () => {
    const { cookie } = await signedIn();
    const query = lastQuery("/Business/Activity/x");
    const res = await run(() => activity.loader(args(get("/activity?session=../../Account", cookie), ctx())));
    expect(res.status).toBe(404);
    expect(query()).toBeUndefined();
  });
});

describe("CSV export (resource route)", () => {
  it("streams the API's CSV with BOM and a download name, forwarding only the filters", async () => {
    const { cookie } = await signedIn();
    const query = lastQuery("/Business/Activity/Export.csv");
    const res = (await exportCsv.loader(args(get(`/activity/export.csv?status=COMPLETED&from=2025-03-01&page=4&session=x`, cookie), ctx()))) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="actividad-20250301.csv"');
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain("Inicio;Fin");
    expect(Object.fromEntries(query()!)).toEqual({ status: "COMPLETED", from: "2025-03-01" });
  });

  it("a refused export goes back to the list with an error toast", async () => {
    const { cookie } = await signedIn();
    server.use(
      http.get(apiUrl("/Business/Activity/Export.csv"), () => problemResponse(400, "Datos inválidos.", { errors: { to: ["La fecha 'hasta' debe ser posterior a 'desde'."] } })),
    );
    const res = await run(() => exportCsv.loader(args(get("/activity/export.csv?from=2025-03-10&to=2025-03-01", cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/activity?from=2025-03-10&to=2025-03-01");
    expect(res.headers.get("Set-Cookie")).toMatch(/toast/);
  });

  it("without a session → login", async () => {
    const res = await run(() => exportCsv.loader(args(get("/activity/export.csv"), ctx())));
    expect(res.location).toMatch(/^\/auth\/login/);
  });
});
