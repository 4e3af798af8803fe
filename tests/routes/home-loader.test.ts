// Inicio: the period picker (presets and custom range) and the loader that reads the KPIs and
// the chart series for that period from the Business API (msw over the HTTP transport).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as home from "~/routes/app/home";
import { addDays, resolvePeriod, todayYmd } from "~/components/charts/period";
import { niceMax, ticks } from "~/components/charts/scale";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { fixtures } from "../mocks/fixtures";
import { args, get, makeContext, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-home", email: "ops@cargasdelsur.com.ar" }, { refreshToken: "r-home" });

/** Record the query strings the loader sends to the dashboard and graphic endpoints. */
function spyQueries() {
  const seen: { path: string; params: URLSearchParams }[] = [];
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    seen.push({ path: url.pathname, params: url.searchParams });
  });
  return seen;
}

describe("resolvePeriod", () => {
  // 2025-03-15 02:00 UTC is still 14 March in Buenos Aires (UTC−3).
  const now = new Date("2025-03-15T02:00:00Z");
  const p = (qs: string) => resolvePeriod(new URLSearchParams(qs), now);

  it("uses Buenos Aires' calendar day", () => {
    expect(todayYmd(now)).toBe("2025-03-14");
    expect(addDays("2025-03-01", -1)).toBe("2025-02-28");
  });

  it("defaults to the last 30 days, today included", () => {
    expect(p("")).toMatchObject({ key: "30d", from: "2025-02-13", to: "2025-03-14", errors: {} });
  });

  it.each([
    ["period=today", "2025-03-14", "2025-03-14"],
    ["period=7d", "2025-03-08", "2025-03-14"],
    ["period=month", "2025-03-01", "2025-03-14"],
  ])("%s", (qs, from, to) => {
    expect(p(qs)).toMatchObject({ from, to, errors: {} });
  });

  it("a custom range is taken as typed", () => {
    expect(p("period=custom&from=2025-01-01&to=2025-01-31")).toMatchObject({ key: "custom", from: "2025-01-01", to: "2025-01-31", errors: {} });
  });

  it("a wrong custom range gets a message per field and falls back to 30 days, keeping what was typed", () => {
    const bad = p("period=custom&from=2025-02-30&to=");
    expect(bad.errors).toEqual({ from: "Ingresá una fecha válida.", to: "Ingresá la fecha de fin." });
    expect(bad).toMatchObject({ from: "2025-02-13", to: "2025-03-14", input: { from: "2025-02-30", to: "" } });
    expect(p("period=custom&from=2025-03-10&to=2025-03-01").errors.to).toMatch(/no puede ser anterior/);
    expect(p("period=custom&from=2023-01-01&to=2025-01-01").errors.to).toMatch(/366 días/);
  });

  it("unknown periods mean the default", () => {
    expect(p("period=forever").key).toBe("30d");
  });
});

describe("chart scale", () => {
  it("rounds the axis up to a nice value", () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(7)).toBe(10);
    expect(niceMax(42.1)).toBe(50);
    expect(niceMax(180)).toBe(200);
    expect(ticks(42.1)).toEqual([0, 12.5, 25, 37.5, 50]);
  });
});

describe("home loader", () => {
  it("without a session → login", async () => {
    const res = await run(() => home.loader(args(get("/home"), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toMatch(/^\/auth\/login/);
  });

  it("reads the KPIs and the three series for the same period", async () => {
    const { cookie } = await signedIn();
    const seen = spyQueries();
    const res = await run<Loose>(() => home.loader(args(get("/home?period=custom&from=2025-02-01&to=2025-03-02", cookie), ctx())));
    server.events.removeAllListeners();
    expect(res.status).toBe(200);
    expect(res.data.dashboard).toEqual(fixtures.dashboard);
    expect(res.data.byDay).toEqual(fixtures.graphic.points);
    expect(res.data.error).toBeNull();
    const calls = seen.filter((s) => s.path.endsWith("/Business/Dashboard") || s.path.endsWith("/Business/Graphic"));
    expect(calls).toHaveLength(4);
    for (const c of calls) {
      expect(c.params.get("from")).toBe("2025-02-01");
      expect(c.params.get("to")).toBe("2025-03-02");
    }
    expect(calls.map((c) => c.params.get("series")).filter(Boolean).sort()).toEqual(["energyRevenueByDay", "sessionsByHour", "topStations"]);
  });

  it("sends the bearer token of the signed-in user", async () => {
    const { cookie, user } = await signedIn();
    let auth: string | null = null;
    server.use(
      http.get(apiUrl("/Business/Dashboard"), ({ request }) => {
        auth = request.headers.get("authorization");
        return HttpResponse.json(fixtures.dashboard);
      }),
    );
    await run(() => home.loader(args(get("/home", cookie), ctx())));
    expect(auth).toBe(`Bearer ${user.idToken}`);
  });

  it("an API failure is a Spanish message, never a 500", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Dashboard"), () => problemResponse(500, "Error interno.")));
    const res = await run<Loose>(() => home.loader(args(get("/home", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.dashboard).toBeNull();
    expect(res.data.error).toMatch(/No pudimos cargar los datos/);
  });

  it("a series that fails leaves the rest of the screen", async () => {
    const { cookie } = await signedIn();
    server.use(http.get(apiUrl("/Business/Graphic"), () => HttpResponse.error()));
    const res = await run<Loose>(() => home.loader(args(get("/home?period=7d", cookie), ctx())));
    expect(res.data.dashboard).toEqual(fixtures.dashboard);
    expect(res.data.byDay).toBeNull();
    expect(res.data.topStations).toBeNull();
    expect(res.data.period.key).toBe("7d");
  });
});
