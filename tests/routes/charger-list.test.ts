// 'Mis cargadores': filters, sort and pagination go from the URL to the API (whitelisted), the
// station filter's options, and the failures.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as list from "~/routes/app/charger/index";
import { args, run, type Loose } from "./auth-helpers";
import { apiUrl, chargerContext, failNetwork, getReq, operatorCookie, recordRequests, server } from "./charger-helpers";
import { fixtures, IDS } from "../mocks/fixtures";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const chargerListCalls = (seen: ReturnType<typeof recordRequests>) => seen.filter((r) => r.path === "/Business/Charger");

describe("charger list loader", () => {
  it("without a session goes to the login, coming back here", async () => {
    const res = await run(() => list.loader(args(new Request("http://app.test/charger?q=abc"), chargerContext())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/login?redirectTo=%2Fcharger%3Fq%3Dabc");
  });

  it("answers the chargers, the stations for the filter and the time the page was made", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() => list.loader(args(getReq("/charger", cookie), chargerContext())));
    expect(res.status).toBe(200);
    expect(res.data.chargers.items[0]).toMatchObject({ name: "Wallbox Norte", ocppIdentity: "AR-BUE-0001" });
    expect(res.data.chargers.items[0].connectors[0].statusLabel).toBe("Cargando");
    // Only what a row shows travels into the page (not the OCPP URL, the firmware, the rates…).
    expect(Object.keys(res.data.chargers.items[0]).sort()).toEqual(
      ["brandName", "connectors", "enabled", "id", "lastHeartbeatAt", "model", "name", "ocppIdentity", "online", "serialNumber", "stationName"].sort(),
    );
    expect(Object.keys(res.data.chargers.items[0].connectors[0]).sort()).toEqual(
      ["bucket", "connectorId", "errorCode", "format", "id", "maxPowerKw", "powerType", "standardLabel", "status", "statusLabel"].sort(),
    );
    expect(res.data.stations).toEqual([{ value: IDS.station, label: "Estación Palermo (Buenos Aires)" }]);
    expect(res.data.hasFilters).toBe(false);
    expect(typeof res.data.now).toBe("number");
    const [call] = chargerListCalls(seen);
    expect(Object.fromEntries(call.search)).toEqual({ sort: "name", page: "1", pageSize: "20" });
    expect(call.authorization).toMatch(/^Bearer /);
  });

  it("passes search, station, status, sort and page through to the API", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() =>
      list.loader(args(getReq(`/charger?q=%20wallbox%20&stationId=${IDS.station}&status=faulted&sort=-lastHeartbeatAt&page=3&pageSize=50`, cookie), chargerContext())),
    );
    expect(res.data.filters).toEqual({ q: "wallbox", stationId: IDS.station, status: "faulted", sort: "-lastHeartbeatAt" });
    expect(res.data.hasFilters).toBe(true);
    expect(Object.fromEntries(chargerListCalls(seen)[0].search)).toEqual({
      q: "wallbox",
      stationId: IDS.station,
      status: "faulted",
      sort: "-lastHeartbeatAt",
      page: "3",
      pageSize: "50",
    });
  });

  it("'Sin estación' asks for the unassigned chargers", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    await run(() => list.loader(args(getReq("/charger?stationId=none", cookie), chargerContext())));
    const search = chargerListCalls(seen)[0].search;
    expect(search.get("unassigned")).toBe("true");
    expect(search.has("stationId")).toBe(false);
  });

  it("drops values the API would refuse instead of failing (bad id, status, sort, page)", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() =>
      list.loader(args(getReq(`/charger?stationId=1;drop&status=broken&sort=password&page=-4&pageSize=100000&q=${"x".repeat(300)}`, cookie), chargerContext())),
    );
    expect(res.status).toBe(200);
    const search = chargerListCalls(seen)[0].search;
    expect(search.has("stationId")).toBe(false);
    expect(search.has("status")).toBe(false);
    expect(search.get("sort")).toBe("name");
    expect(search.get("page")).toBe("1");
    expect(search.get("pageSize")).toBe("100");
    expect(search.get("q")).toHaveLength(100);
  });

  it("reads station options for the filter in as few requests as the API allows, every page of them", async () => {
    const cookie = await operatorCookie();
    const station = (i: number) => ({ ...fixtures.station, id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, name: `Estación ${i}` });
    const asked: string[] = [];
    const TOTAL = 1_205; // more than two pages of the largest page size
    server.use(
      http.get(apiUrl("/Business/ChargingStation/Options"), ({ request }) => {
        const params = new URL(request.url).searchParams;
        asked.push(params.toString());
        const page = Number(params.get("page"));
        const pageSize = Number(params.get("pageSize"));
        const from = (page - 1) * pageSize;
        const items = Array.from({ length: Math.max(0, Math.min(pageSize, TOTAL - from)) }, (_, i) => station(from + i));
        return HttpResponse.json({ items, total: TOTAL, page, pageSize });
      }),
    );
    const res = await run<Loose>(() => list.loader(args(getReq("/charger", cookie), chargerContext())));
    expect(res.data.stations).toHaveLength(TOTAL);
    expect(new Set(res.data.stations.map((s: { value: string }) => s.value)).size).toBe(TOTAL);
    expect(asked).toEqual(["pageSize=500&page=1", "pageSize=500&page=2", "pageSize=500&page=3"]);
  });

  it("an empty business gets an empty page (the screen shows what to do first)", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.get(apiUrl("/Business/Charger"), () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 20 })),
      http.get(apiUrl("/Business/ChargingStation/Options"), () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 100 })),
    );
    const res = await run<Loose>(() => list.loader(args(getReq("/charger", cookie), chargerContext())));
    expect(res.data.chargers.total).toBe(0);
    expect(res.data.stations).toEqual([]);
  });

  it("the API failing or unreachable is a 503, never a 500", async () => {
    const cookie = await operatorCookie();
    server.use(http.get(apiUrl("/Business/Charger"), () => HttpResponse.json({ title: "boom", status: 500 }, { status: 500 })));
    const failed = await run<Loose>(() => list.loader(args(getReq("/charger", cookie), chargerContext())));
    expect(failed.thrown).toBe(true);
    expect(failed.status).toBe(503);

    server.use(failNetwork("/Business/ChargingStation/Options"));
    const down = await run<Loose>(() => list.loader(args(getReq("/charger", cookie), chargerContext())));
    expect(down.status).toBe(503);
  });
});
