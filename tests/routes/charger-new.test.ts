// 'Nuevo cargador': the form's options, `?stationId=`, rows added/removed without JavaScript,
// validation, the password shown once, and the API's refusals as Spanish field errors.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as route from "~/routes/app/charger/new";
import { args, run, type Loose } from "./auth-helpers";
import { apiUrl, chargerContext, failNetwork, getReq, operatorCookie, postForm, recordRequests, server, validChargerForm } from "./charger-helpers";
import { fixtures, IDS } from "../mocks/fixtures";
import { problemResponse } from "../mocks/server";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("new charger loader", () => {
  it("offers brands, connector types, stations and rates from the API", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => route.loader(args(getReq("/charger/new", cookie), chargerContext())));
    expect(res.status).toBe(200);
    expect(res.data.options.brands).toEqual([
      { value: "1", label: "ABB" },
      { value: "5", label: "Wallbox" },
    ]);
    expect(res.data.options.connectorTypes[0]).toMatchObject({ value: "IEC_62196_T2", label: "Tipo 2" });
    expect(res.data.options.stations).toEqual([{ value: IDS.station, label: "Estación Palermo (Buenos Aires)" }]);
    expect(res.data.options.rates).toEqual([{ value: IDS.rate, label: "AC Estándar" }]);
    expect(res.data.defaultValue).toMatchObject({ stationId: "", heartbeatInterval: "300", connectors: [{ connectorId: "1", format: "SOCKET", powerType: "AC_3_PHASE" }] });
    expect(res.data.station).toBeNull();
  });

  it("builds the OCPP connection URL from the request's origin (ws:// for http, wss:// for https)", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => route.loader(args(getReq("/charger/new", cookie), chargerContext())));
    expect(res.data.ocppBase).toBe("ws://app.test/ocpp/");
    const secure = new Request("https://panel.enchufa.com.ar/charger/new", { headers: { Cookie: cookie } });
    const res2 = await run<Loose>(() => route.loader(args(secure, chargerContext())));
    expect(res2.data.ocppBase).toBe("wss://panel.enchufa.com.ar/ocpp/");
  });

  it("?stationId= preselects one of the business's stations; an unknown one is ignored", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => route.loader(args(getReq(`/charger/new?stationId=${IDS.station}`, cookie), chargerContext())));
    expect(res.data.defaultValue.stationId).toBe(IDS.station);
    expect(res.data.station).toEqual({ id: IDS.station, name: "Estación Palermo (Buenos Aires)" });
    const other = await run<Loose>(() => route.loader(args(getReq("/charger/new?stationId=11111111-2222-4333-8444-555555555555", cookie), chargerContext())));
    expect(other.data.defaultValue.stationId).toBe("");
  });

  it("a catalog the API cannot give is a 503", async () => {
    const cookie = await operatorCookie();
    server.use(failNetwork("/Driver/ConnectorType"));
    const res = await run(() => route.loader(args(getReq("/charger/new", cookie), chargerContext())));
    expect(res.status).toBe(503);
  });
});

describe("new charger action", () => {
  it("creates the charger and answers its password once, with the connection data", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const context = chargerContext();
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", validChargerForm(), cookie), context)));
    expect(res.status).toBe(200);
    expect(res.data.created).toEqual({
      id: IDS.charger,
      name: "Wallbox Norte",
      ocppIdentity: "AR-BUE-0001",
      ocppUrl: "wss://enchufa.example/ocpp/AR-BUE-0001",
      password: "m0ck-Ocpp-Passw0rd-0123456789abc",
      stationId: IDS.station,
      stationName: "Estación Palermo",
    });
    expect(pendingToast(context)).toEqual({ type: "success", message: "Creamos el cargador «Wallbox Norte»." });
    const post = seen.find((r) => r.method === "POST" && r.path === "/Business/Charger")!;
    expect(await post.body).toEqual({
      name: "Wallbox Sur",
      stationId: null,
      brandId: 5,
      model: "Commander 2",
      serialNumber: "WB-9",
      ocppIdentity: "AR-BUE-0099",
      heartbeatInterval: 300,
      // Not in the posted form: «Según el protocolo».
      priceDisplay: "AUTO",
      enabled: true,
      connectors: [
        { connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: null },
        // "7,4" typed with a decimal comma
        { connectorId: 2, standard: "IEC_62196_T2_COMBO", format: "CABLE", powerType: "DC", maxPowerKw: 7.4, rateId: IDS.rate },
      ],
    });
  });

  it("without PUBLIC_URL on the API side the URL is built from the request", async () => {
    const cookie = await operatorCookie();
    server.use(http.post(apiUrl("/Business/Charger"), () => HttpResponse.json({ ...fixtures.charger, ocppUrl: null, ocppPassword: "x".repeat(32) }, { status: 201 })));
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", validChargerForm(), cookie), chargerContext())));
    expect(res.data.created.ocppUrl).toBe("ws://app.test/ocpp/AR-BUE-0001");
  });

  it("invalid input: 400, Spanish messages on the fields, everything typed comes back, nothing sent", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const form = validChargerForm({ name: "", ocppIdentity: "con espacios", "connectors[0].maxPowerKw": "0", "connectors[0].standard": "", "connectors[1].maxPowerKw": "" });
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", form, cookie), chargerContext())));
    expect(res.status).toBe(400);
    const { error, initialValue } = res.data.result;
    expect(error.name).toEqual(["Este campo es obligatorio."]);
    expect(error.ocppIdentity).toEqual(["Usá de 3 a 48 letras, números, puntos, guiones o guiones bajos (sin espacios)."]);
    expect(error["connectors[0].maxPowerKw"]?.[0]).toBe("La potencia debe ser mayor a 0.");
    expect(error["connectors[0].standard"]?.[0]).toBe("Este campo es obligatorio.");
    expect(error["connectors[1].maxPowerKw"]).toEqual(["Este campo es obligatorio."]);
    expect(initialValue.ocppIdentity).toBe("con espacios");
    expect(initialValue.connectors[1].connectorId).toBe("2");
    expect(seen.some((r) => r.method === "POST")).toBe(false);
  });

  it("two connectors with the same number: the second one says so", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", validChargerForm({ "connectors[1].connectorId": "1" }), cookie), chargerContext())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ "connectors[1].connectorId": ["Ese número de conector está repetido."] });
  });

  it("'Agregar conector' without JavaScript: the form comes back with one more row and the typed values", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const form = {
      ...validChargerForm({ name: "" }),
      __intent__: JSON.stringify({ type: "insert", payload: { name: "connectors", defaultValue: { connectorId: "3", format: "SOCKET", powerType: "AC_3_PHASE" } } }),
    };
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", form, cookie), chargerContext())));
    expect(res.status).toBe(200);
    expect(res.data.result.initialValue.connectors).toHaveLength(3);
    expect(res.data.result.initialValue.connectors[2]).toMatchObject({ connectorId: "3", format: "SOCKET" });
    expect(res.data.result.initialValue.model).toBe("Commander 2");
    expect(res.data.result.intent.type).toBe("insert");
    expect(seen.some((r) => r.method === "POST")).toBe(false);
  });

  it("'Quitar conector' without JavaScript removes that row only", async () => {
    const cookie = await operatorCookie();
    const form = { ...validChargerForm(), __intent__: JSON.stringify({ type: "remove", payload: { name: "connectors", index: 0 } }) };
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", form, cookie), chargerContext())));
    expect(res.status).toBe(200);
    expect(res.data.result.initialValue.connectors).toEqual([
      { connectorId: "2", standard: "IEC_62196_T2_COMBO", format: "CABLE", powerType: "DC", maxPowerKw: "7.4", rateId: IDS.rate },
    ]);
  });

  it("a duplicate OCPP identity is a Spanish error on the identity field, and a toast", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.post(apiUrl("/Business/Charger"), () =>
        problemResponse(409, "Ese identificador OCPP ya está en uso.", { errors: { ocppIdentity: ["Ese identificador OCPP ya está en uso."] } }),
      ),
    );
    const context = chargerContext();
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", validChargerForm(), cookie), context)));
    expect(res.status).toBe(409);
    expect(res.data.result.error.ocppIdentity).toEqual(["Ese identificador OCPP ya está en uso."]);
    expect(res.data.result.initialValue.name).toBe("Wallbox Sur");
    expect(pendingToast(context)).toEqual({ type: "error", message: "Ese identificador OCPP ya está en uso." });
  });

  it("the API's per-connector errors land on the connector's field", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.post(apiUrl("/Business/Charger"), () =>
        problemResponse(422, "Revisá los datos ingresados.", { errors: { "connectors[1].rateId": ["La tarifa no existe."] } }),
      ),
    );
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", validChargerForm(), cookie), chargerContext())));
    expect(res.status).toBe(422);
    expect(res.data.result.error["connectors[1].rateId"]).toEqual(["La tarifa no existe."]);
  });

  it("the API down: a form error and a toast, nothing typed is lost", async () => {
    const cookie = await operatorCookie();
    server.use(failNetwork("/Business/Charger", "post"));
    const context = chargerContext({ isDataRequest: true });
    const res = await run<Loose>(() => route.action(args(postForm("/charger/new", validChargerForm(), cookie), context)));
    expect(res.status).toBe(503);
    expect(res.data.result.error[""]).toEqual(["No pudimos comunicarnos con el servicio. Probá de nuevo en unos minutos."]);
    expect(res.data.result.initialValue.ocppIdentity).toBe("AR-BUE-0099");
    // With JavaScript the toast travels in remix-toast's flash cookie.
    expect(res.headers.get("Set-Cookie")).toMatch(/toast-session=/);
  });

  it("without a session nothing is sent", async () => {
    const seen = recordRequests();
    const res = await run(() => route.action(args(new Request("http://app.test/charger/new", { method: "POST", body: new URLSearchParams(validChargerForm()) }), chargerContext())));
    expect(res.status).toBe(302);
    expect(seen).toHaveLength(0);
  });
});
