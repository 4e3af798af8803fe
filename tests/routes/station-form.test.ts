// 'Nueva estación' and 'Editar estación': loaders and the shared create/update action.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as newStation from "~/routes/app/station/new";
import * as editStation from "~/routes/app/station/edit";
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

const VALID = {
  name: "Estación Belgrano",
  address: "Av. Cabildo 2000",
  city: "Buenos Aires",
  province: "AR-C",
  postalCode: "C1428AAB",
  latitude: "-34,5601",
  longitude: "-58.4567",
  parkingType: "PARKING_LOT",
  "hours.mode": "ALWAYS",
  timeZone: "America/Argentina/Buenos_Aires",
  photoUrl: "",
  "qr.min": "1000",
  "qr.max": "50.000",
};

const args = <P extends Record<string, string>>(request: Request, ctx = context(), params = {} as P) => routeArgs(request, ctx, params);

describe("new station", () => {
  it("needs a session", async () => {
    const res = await run(() => newStation.loader(args(get("/station/new", ""))));
    expect(res.location).toBe("/auth/login?redirectTo=%2Fstation%2Fnew");
  });

  it("loads the services catalog (an empty list when it fails)", async () => {
    const c = await cookie();
    const ok = await run<Loose>(() => newStation.loader(args(get("/station/new", c))));
    expect(ok.data.services).toEqual(fixtures.services);
    server.use(http.get(apiUrl("/Business/Service"), () => problemJson(500, "x")));
    const failed = await run<Loose>(() => newStation.loader(args(get("/station/new", c))));
    expect(failed.data.services).toEqual([]);
  });

  it("rejects bad input field by field, first rule only, without calling the API", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run<Loose>(() =>
      newStation.action(args(postForm("/station/new", { ...VALID, name: "", province: "AR-ZZ", latitude: "95", longitude: "abc", postalCode: "12" }, c))),
    );
    expect(res.status).toBe(400);
    expect(res.data.result.error).toMatchObject({
      name: ["Este campo es obligatorio."],
      province: ["Elegí una provincia de la lista."],
      latitude: ["La latitud debe estar entre -90 y 90."],
      longitude: ["Ingresá un número, por ejemplo -34,6037."],
      postalCode: ["Ingresá un código postal válido (1425 o C1425ABC)."],
    });
    // Nothing typed is lost.
    expect(res.data.result.initialValue).toMatchObject({ address: "Av. Cabildo 2000", latitude: "95" });
    expect(calls.filter((x) => x.method !== "GET")).toHaveLength(0);
  });

  it("validates per-weekday hours: at least one period, both ends, different times", async () => {
    const c = await cookie();
    const none = await run<Loose>(() => newStation.action(args(postForm("/station/new", { ...VALID, "hours.mode": "WEEKLY", "hours.days[0].periods[0].begin": "" }, c))));
    expect(none.data.result.error["hours.mode"]).toEqual(["Indicá al menos una franja horaria o elegí «Abierta las 24 horas»."]);

    const half = await run<Loose>(() =>
      newStation.action(
        args(
          postForm(
            "/station/new",
            {
              ...VALID,
              "hours.mode": "WEEKLY",
              "hours.days[0].periods[0].begin": "08:00",
              "hours.days[1].periods[0].begin": "09:00",
              "hours.days[1].periods[0].end": "09:00",
            },
            c,
          ),
        ),
      ),
    );
    expect(half.data.result.error).toMatchObject({
      "hours.days[0].periods[0].end": ["Ingresá la hora de cierre."],
      "hours.days[1].periods[0].end": ["El horario de cierre debe ser distinto del de apertura."],
    });
  });

  it("creates the station with the API's body and comes back to the list with a toast", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() =>
      newStation.action(
        args(
          postForm(
            "/station/new",
            {
              ...VALID,
              published: "on",
              services: ["WIFI", "CAFE"],
              "hours.mode": "WEEKLY",
              "hours.days[0].periods[0].begin": "08:00",
              "hours.days[0].periods[0].end": "13:00",
              "hours.days[0].periods[1].begin": "16:00",
              "hours.days[0].periods[1].end": "20:00",
              "hours.days[5].periods[0].begin": "",
              "hours.days[5].periods[0].end": "",
              "hours.days[6].periods[0].begin": "22:00",
              "hours.days[6].periods[0].end": "02:00",
            },
            c,
          ),
        ),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.location).toBe("/station");
    const post = calls.find((x) => x.method === "POST")!;
    expect(post.url.pathname).toBe("/Business/ChargingStation");
    expect(post.body).toEqual({
      name: "Estación Belgrano",
      address: "Av. Cabildo 2000",
      city: "Buenos Aires",
      province: "AR-C",
      postalCode: "C1428AAB",
      latitude: -34.5601,
      longitude: -58.4567,
      parkingType: "PARKING_LOT",
      services: ["WIFI", "CAFE"],
      openingHours: {
        twentyFourSeven: false,
        periods: [
          { weekday: 1, begin: "08:00", end: "13:00" },
          { weekday: 1, begin: "16:00", end: "20:00" },
          { weekday: 7, begin: "22:00", end: "02:00" },
        ],
      },
      timeZone: "America/Argentina/Buenos_Aires",
      photoUrl: null,
      published: true,
      authorizationPolicy: "OPEN",
      gridCapacityKw: null,
      qrPaymentEnabled: false,
      qrMinCents: 100_000,
      qrMaxCents: 5_000_000,
    });
    expect(await flashToast(res)).toMatchObject({ type: "success", message: "Creamos la estación «Estación Belgrano»." });
  });

  it("24 h ignores the week; coordinates outside Argentina save with a warning", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() =>
      newStation.action(args(postForm("/station/new", { ...VALID, latitude: "40.4168", longitude: "-3.7038", "hours.days[0].periods[0].begin": "08:00" }, c))),
    );
    expect(res.status).toBe(302);
    expect((calls.find((x) => x.method === "POST")!.body as Loose).openingHours).toEqual({ twentyFourSeven: true, periods: [] });
    const toast = await flashToast(res);
    expect(toast?.type).toBe("warning");
    expect(toast?.message).toMatch(/fuera de Argentina/);
  });

  it("puts the API's field errors on the fields and raises an error toast", async () => {
    server.use(
      http.post(apiUrl("/Business/ChargingStation"), () =>
        problemJson(422, "Revisá los datos ingresados.", { services: ["Servicio desconocido: SPA."], "openingHours.periods": ["Como máximo 3 franjas el lunes."] }),
      ),
    );
    const c = await cookie();
    const ctx = context();
    const res = await run<Loose>(() => newStation.action(args(postForm("/station/new", { ...VALID, services: "SPA" }, c), ctx)));
    expect(res.status).toBe(422);
    expect(res.data.result.error).toMatchObject({ services: ["Servicio desconocido: SPA."], "hours.mode": ["Como máximo 3 franjas el lunes."] });
    expect(pendingToast(ctx)).toEqual({ type: "error", message: "Revisá los datos ingresados." });
  });

  it("an API that fails or is down: a toast, the form keeps its values", async () => {
    server.use(http.post(apiUrl("/Business/ChargingStation"), () => HttpResponse.error()));
    const c = await cookie();
    const ctx = context();
    const res = await run<Loose>(() => newStation.action(args(postForm("/station/new", VALID, c), ctx)));
    expect(res.status).toBe(503);
    expect(res.data.result.initialValue.name).toBe("Estación Belgrano");
    expect(pendingToast(ctx)?.type).toBe("error");
  });

  it("'add a period' works without JavaScript: the form comes back with one more row, nothing saved", async () => {
    const calls = record();
    const c = await cookie();
    const intent = JSON.stringify({ type: "insert", payload: { name: "hours.days[2].periods", defaultValue: { begin: "", end: "" } } });
    const res = await run<Loose>(() =>
      newStation.action(args(postForm("/station/new", { ...VALID, "hours.days[2].periods[0].begin": "08:00", "hours.days[2].periods[0].end": "12:00", __intent__: intent }, c))),
    );
    expect(res.status).toBe(200);
    expect(res.data.result.initialValue.hours.days[2].periods).toHaveLength(2);
    expect(calls.filter((x) => x.method === "POST")).toHaveLength(0);
  });
});

describe("station photo", () => {
  // A 1×1 PNG.
  const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

  it("a new photo is uploaded first and its URL saved", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() => newStation.action(args(postForm("/station/new", { ...VALID, photo: PNG }, c))));
    expect(res.status).toBe(302);
    expect(calls.find((x) => x.method === "POST" && x.url.pathname === "/Business/Images")).toBeTruthy();
    const post = calls.find((x) => x.method === "POST" && x.url.pathname === "/Business/ChargingStation")!;
    expect((post.body as Loose).photoUrl).toBe(`/api/images/${"b".repeat(64)}.jpg`);
  });

  it("a refused image stays on the form with the spec's message; nothing is saved", async () => {
    const calls = record();
    const c = await cookie();
    const ctx = context();
    const res = await run<Loose>(() => newStation.action(args(postForm("/station/new", { ...VALID, photo: "data:application/pdf;base64,JVBERi0=" }, c), ctx)));
    expect(res.status).toBe(422);
    expect(res.data.result.error.photo).toEqual(["Formato de archivo no soportado."]);
    expect(pendingToast(ctx)?.message).toBe("Formato de archivo no soportado.");
    expect(calls.filter((x) => x.method === "POST")).toHaveLength(0);
  });

  it("'Quitar la foto' removes the current one", async () => {
    const calls = record();
    const c = await cookie();
    await run(() =>
      editStation.action(
        args(postForm(`/station/edit/${IDS.station}`, { ...VALID, photoUrl: `/api/images/${"c".repeat(64)}.jpg`, removePhoto: "on" }, c), context(), { id: IDS.station }),
      ),
    );
    expect((calls.find((x) => x.method === "PUT")!.body as Loose).photoUrl).toBeNull();
  });
});

describe("edit station", () => {
  it("loads the station, the catalog and its chargers", async () => {
    const c = await cookie();
    const res = await run<Loose>(() => editStation.loader(args(get(`/station/edit/${IDS.station}`, c), context(), { id: IDS.station })));
    expect(res.data.station.name).toBe("Estación Palermo");
    expect(res.data.services).toHaveLength(3);
    expect(res.data.chargers.items[0].name).toBe("Wallbox Norte");
  });

  it("an unknown id, another company's station or a malformed id is the 404 screen", async () => {
    const c = await cookie();
    for (const id of ["0d5e6f7a-8b9c-4d0e-8f1a-4b5c6d7e8f9a", "nope"]) {
      const res = await run(() => editStation.loader(args(get(`/station/edit/${id}`, c), context(), { id })));
      expect(res.thrown).toBe(true);
      expect(res.status).toBe(404);
    }
    const post = await run(() => editStation.action(args(postForm("/station/edit/x", VALID, c), context(), { id: "x" })));
    expect(post.status).toBe(404);
  });

  it("saves with PUT, keeping the photo, and says so", async () => {
    const calls = record();
    const c = await cookie();
    const photo = `/api/images/${"c".repeat(64)}.jpg`;
    const res = await run(() =>
      editStation.action(args(postForm(`/station/edit/${IDS.station}`, { ...VALID, name: "Palermo Soho", photoUrl: photo }, c), context(), { id: IDS.station })),
    );
    expect(res.status).toBe(302);
    const put = calls.find((x) => x.method === "PUT")!;
    expect(put.url.pathname).toBe(`/Business/ChargingStation/${IDS.station}`);
    expect(put.body).toMatchObject({ name: "Palermo Soho", photoUrl: photo, published: false });
    expect((await flashToast(res))?.message).toBe("Guardamos los cambios de la estación «Palermo Soho».");
  });

  it("starts the QR payment settings from the station (pesos), and a new station from the defaults", async () => {
    const c = await cookie();
    server.use(
      http.get(apiUrl("/Business/ChargingStation/:id"), () =>
        HttpResponse.json({ ...fixtures.stations.items[0], qrPaymentEnabled: true, qrMinCents: 250_050, qrMaxCents: 3_000_000 }),
      ),
    );
    const edit = await run<Loose>(() => editStation.loader(args(get(`/station/edit/${IDS.station}`, c), context(), { id: IDS.station })));
    expect(edit.data.defaultValue.qr).toEqual({ enabled: true, min: "2500,50", max: "30000" });
    const fresh = await run<Loose>(() => newStation.loader(args(get("/station/new", c))));
    expect(fresh.data.defaultValue.qr).toEqual({ enabled: false, min: "1000", max: "50000" });
  });

  it("saves 'Cobro con QR' and its limits typed in pesos", async () => {
    const calls = record();
    const c = await cookie();
    const res = await run(() =>
      editStation.action(
        args(postForm(`/station/edit/${IDS.station}`, { ...VALID, "qr.enabled": "on", "qr.min": "$ 1.500,50", "qr.max": "20000" }, c), context(), { id: IDS.station }),
      ),
    );
    expect(res.status).toBe(302);
    const put = calls.find((x) => x.method === "PUT")!;
    expect(put.body).toMatchObject({ qrPaymentEnabled: true, qrMinCents: 150_050, qrMaxCents: 2_000_000 });
  });

  it("refuses QR limits that are not amounts, out of bounds or a maximum under the minimum, on their fields", async () => {
    const calls = record();
    const c = await cookie();
    const post = (qr: Record<string, string>) =>
      run<Loose>(() => editStation.action(args(postForm(`/station/edit/${IDS.station}`, { ...VALID, ...qr }, c), context(), { id: IDS.station })));
    const words = await post({ "qr.min": "mil", "qr.max": "" });
    expect(words.status).toBe(400);
    expect(words.data.result.error).toMatchObject({ "qr.min": ["Ingresá un monto en pesos, por ejemplo 5000 o 5.000,50."], "qr.max": ["Este campo es obligatorio."] });
    const bounds = await post({ "qr.min": "0,50", "qr.max": "2.000.000" });
    expect(bounds.data.result.error).toMatchObject({ "qr.min": ["Ingresá un monto entre $ 1 y $ 1.000.000."], "qr.max": ["Ingresá un monto entre $ 1 y $ 1.000.000."] });
    const order = await post({ "qr.enabled": "on", "qr.min": "5000", "qr.max": "1000" });
    expect(order.data.result.error).toEqual({ "qr.max": ["El máximo no puede ser menor que el mínimo."] });
    // What was typed stays on the form; nothing was saved.
    expect(order.data.result.initialValue).toMatchObject({ qr: { min: "5000", max: "1000" } });
    expect(calls.filter((x) => x.method !== "GET")).toHaveLength(0);
  });

  it("the API's QR field errors land on the form's QR fields", async () => {
    server.use(http.put(apiUrl("/Business/ChargingStation/:id"), () => problemJson(422, "Revisá los datos.", { qrMaxCents: ["El máximo no puede ser menor que el mínimo."] })));
    const c = await cookie();
    const res = await run<Loose>(() => editStation.action(args(postForm(`/station/edit/${IDS.station}`, VALID, c), context(), { id: IDS.station })));
    expect(res.status).toBe(422);
    expect(res.data.result.error["qr.max"]).toEqual(["El máximo no puede ser menor que el mínimo."]);
  });

  it("a station deleted meanwhile (PUT 404) is the 404 screen", async () => {
    server.use(http.put(apiUrl("/Business/ChargingStation/:id"), () => problemJson(404, "La estación no existe.")));
    const c = await cookie();
    const res = await run(() => editStation.action(args(postForm(`/station/edit/${IDS.station}`, VALID, c), context(), { id: IDS.station })));
    expect(res.thrown).toBe(true);
    expect(res.status).toBe(404);
  });
});
