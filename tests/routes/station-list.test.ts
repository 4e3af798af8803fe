// 'Mis estaciones' (filters in the URL, the delete confirmation) and 'Anadir cargador'.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as stations from "~/routes/app/station/index";
import * as addCharger from "~/routes/app/charger/add";
import { IDS, fixtures } from "../mocks/fixtures";
import { resetFake, run, type Loose, args as routeArgs } from "./auth-helpers";
import { apiUrl, context, cookie, flashToast, get, http, HttpResponse, postForm, problemJson, record, server } from "./station-helpers";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  server.events.removeAllListeners();
});
afterAll(() => server.close());
beforeEach(() => resetFake());

const args = (request: Request, ctx = context()) => routeArgs(request, ctx);
const HAS_CHARGERS = "La estación tiene cargadores asignados. Quitalos o movelos a otra estación antes de eliminarla.";

describe("station list", () => {
  it("needs a session", async () => {
    const res = await run(() => stations.loader(args(get("/station?q=x", ""))));
    expect(res.location).toBe("/auth/login?redirectTo=%2Fstation%3Fq%3Dx");
  });

  it("passes search, filters, sort and page to the API; ignores values it does not know", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run<Loose>(() => stations.loader(args(get("/station?q=%20palermo%20&province=AR-X&published=true&sort=-city&page=3&pageSize=500", c))));
    expect(res.data.list.items[0].name).toBe("Estación Palermo");
    const url = calls.find((x) => x.url.pathname === "/Business/ChargingStation")!.url;
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: "palermo", province: "AR-X", published: "true", sort: "-city", page: "3", pageSize: "100" });

    calls.length = 0;
    await run(() => stations.loader(args(get("/station?province=XX&published=maybe&sort=password&page=-2", c))));
    const plain = calls.find((x) => x.url.pathname === "/Business/ChargingStation")!.url;
    expect(Object.fromEntries(plain.searchParams)).toEqual({ sort: "name", page: "1", pageSize: "20" });
  });

  it("an API failure shows a message instead of a 500", async () => {
    server.use(http.get(apiUrl("/Business/ChargingStation"), () => HttpResponse.error()));
    const c = await cookie();
    const res = await run<Loose>(() => stations.loader(args(get("/station", c))));
    expect(res.status).toBe(200);
    expect(res.data.list).toBeNull();
  });

  it("?delete=<id> asks for confirmation; an unknown id asks nothing", async () => {
    const c = await cookie();
    const res = await run<Loose>(() => stations.loader(args(get(`/station?delete=${IDS.station}`, c))));
    expect(res.data.confirm).toEqual({ id: IDS.station, name: "Estación Palermo", chargerCount: 1 });
    const unknown = await run<Loose>(() => stations.loader(args(get(`/station?delete=${IDS.charger}`, c))));
    expect(unknown.data.confirm).toBeNull();
    const junk = await run<Loose>(() => stations.loader(args(get("/station?delete=../../x", c))));
    expect(junk.data.confirm).toBeNull();
  });

  it("the confirmed POST deletes and goes back to the same list", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() =>
      stations.action(
        args(postForm("/station", { intent: "delete-confirmed", id: IDS.station, name: "Estación Palermo", returnTo: `/station?province=AR-C&delete=${IDS.station}` }, c)),
      ),
    );
    expect(calls.find((x) => x.method === "DELETE")?.url.pathname).toBe(`/Business/ChargingStation/${IDS.station}`);
    expect(res.location).toBe("/station?province=AR-C");
    expect(await flashToast(res)).toMatchObject({ type: "success", message: "Eliminamos la estación «Estación Palermo»." });
  });

  it("a station with chargers is not deleted: the API's message as an error toast", async () => {
    server.use(http.delete(apiUrl("/Business/ChargingStation/:id"), () => problemJson(409, HAS_CHARGERS)));
    const c = await cookie();
    const res = await run(() => stations.action(args(postForm("/station", { intent: "delete-confirmed", id: IDS.station, returnTo: "/station" }, c))));
    expect(res.location).toBe("/station");
    expect(await flashToast(res)).toMatchObject({ type: "error", message: HAS_CHARGERS });
  });

  it("never deletes without the confirmation intent; never redirects off the list", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() => stations.action(args(postForm("/station", { intent: "delete", id: IDS.station, returnTo: "//evil.example/station" }, c))));
    expect(res.location).toBe("/station");
    expect(calls.filter((x) => x.method === "DELETE")).toHaveLength(0);
    const other = await run(() => stations.action(args(postForm("/station", { intent: "delete-confirmed", id: IDS.station, returnTo: "/user?x=1" }, c))));
    expect(other.location).toBe("/station");
  });
});

describe("add chargers to a station", () => {
  it("without a station: lists stations to choose from", async () => {
    const c = await cookie();
    const res = await run<Loose>(() => addCharger.loader(args(get("/charger/add", c))));
    expect(res.data.station).toBeNull();
    expect(res.data.stations).toEqual([{ id: IDS.station, name: "Estación Palermo", city: "Buenos Aires" }]);
  });

  it("with a station: its unassigned chargers, searchable and paged", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run<Loose>(() => addCharger.loader(args(get(`/charger/add?stationId=${IDS.station}&q=wall&page=2`, c))));
    expect(res.data.station).toMatchObject({ id: IDS.station, name: "Estación Palermo" });
    expect(res.data.chargers.items).toHaveLength(1);
    const url = calls.find((x) => x.url.pathname === "/Business/Charger")!.url;
    expect(Object.fromEntries(url.searchParams)).toEqual({ unassigned: "true", sort: "name", page: "2", pageSize: "20", q: "wall" });
  });

  it("an unknown or malformed station is the 404 screen", async () => {
    const c = await cookie();
    for (const id of [IDS.rate, "1;drop"]) {
      const res = await run(() => addCharger.loader(args(get(`/charger/add?stationId=${encodeURIComponent(id)}`, c))));
      expect(res.status).toBe(404);
    }
  });

  it("nothing chosen: the error on the field and a toast, no API call", async () => {
    const calls = record();
    const c = await cookie();
    const ctx = context();
    const res = await run<Loose>(() => addCharger.action(args(postForm("/charger/add", { stationId: IDS.station }, c), ctx)));
    expect(res.status).toBe(400);
    expect(res.data.result.error.chargerIds).toEqual(["Elegí al menos un cargador."]);
    expect(pendingToast(ctx)).toEqual({ type: "error", message: "Elegí al menos un cargador." });
    expect(calls.filter((x) => x.method === "POST")).toHaveLength(0);
  });

  it("assigns the chosen chargers and goes to the station", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() =>
      addCharger.action(args(postForm("/charger/add", { stationId: IDS.station, stationName: "Estación Palermo", chargerIds: [IDS.charger] }, c))),
    );
    expect(calls.find((x) => x.method === "POST")!.body).toEqual({ stationId: IDS.station, chargerIds: [IDS.charger] });
    expect(res.location).toBe(`/station/edit/${IDS.station}`);
    expect(await flashToast(res)).toMatchObject({ type: "success", message: `Añadimos «${fixtures.charger.name}» a «Estación Palermo».` });
  });

  it("the API refusing (another company's charger): its Spanish message", async () => {
    server.use(http.post(apiUrl("/Business/Charger/Assign"), () => problemJson(422, "Revisá los datos ingresados.", { chargerIds: ["Uno o más cargadores no existen."] })));
    const c = await cookie();
    const ctx = context();
    const res = await run<Loose>(() => addCharger.action(args(postForm("/charger/add", { stationId: IDS.station, chargerIds: [IDS.charger] }, c), ctx)));
    expect(res.status).toBe(422);
    expect(res.data.result.error[""]).toEqual(["Uno o más cargadores no existen."]);
    expect(pendingToast(ctx)?.message).toBe("Uno o más cargadores no existen.");
  });
});
