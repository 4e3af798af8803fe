// 'Editar cargador': 404s, saving (PUT keeps what the form does not edit), the password
// rotation shown once, and delete with its refusals.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as route from "~/routes/app/charger/edit";
import { run, type Loose, args } from "./auth-helpers";
import { apiUrl, chargerContext, failNetwork, getReq, operatorCookie, postForm, recordRequests, server, validChargerForm } from "./charger-helpers";
import { fixtures, IDS } from "../mocks/fixtures";
import { problemResponse } from "../mocks/server";
import { pendingToast } from "~/lib/context";
import { flashToast } from "./station-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const OTHER = "11111111-2222-4333-8444-555555555555";
const argsFor = (request: Request, context: ReturnType<typeof chargerContext>, id: string = IDS.charger) => args(request, context, { id });

describe("edit charger loader", () => {
  it("deleting is the shared pattern: ?delete=1 asks for the confirmation on the page", async () => {
    const cookie = await operatorCookie();
    const plain = await run<Loose>(() => route.loader(argsFor(getReq(`/charger/edit/${IDS.charger}`, cookie), chargerContext())));
    expect(plain.data.confirmDelete).toBe(false);
    const asking = await run<Loose>(() => route.loader(argsFor(getReq(`/charger/edit/${IDS.charger}?delete=1`, cookie), chargerContext())));
    expect(asking.data.confirmDelete).toBe(true);
  });

  it("loads the charger as the form's starting values, with the options", async () => {
    const cookie = await operatorCookie();
    const res = await run<Loose>(() => route.loader(argsFor(getReq(`/charger/edit/${IDS.charger}`, cookie), chargerContext())));
    expect(res.status).toBe(200);
    expect(res.data.charger.ocppUrl).toBe("wss://enchufa.example/ocpp/AR-BUE-0001");
    expect(res.data.defaultValue).toEqual({
      name: "Wallbox Norte",
      stationId: IDS.station,
      brandId: "5",
      model: "Commander 2",
      serialNumber: "WB-000123",
      ocppIdentity: "AR-BUE-0001",
      heartbeatInterval: "300",
      priceDisplay: "AUTO",
      connectors: [{ connectorId: "1", standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: "22", rateId: IDS.rate }],
    });
    expect(res.data.options.rates).toHaveLength(1);
  });

  it("loads the charger's latest 20 events beside it; if they cannot be read the screen still opens without them", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run<Loose>(() => route.loader(argsFor(getReq(`/charger/edit/${IDS.charger}`, cookie), chargerContext())));
    expect(res.data.events).toEqual(fixtures.chargerEvents);
    expect(res.data.reportStatus).toBe("Último informe (n.º 41): llegó completo el 15/06/2025, 14:42 (2 partes, 120 variables).");
    const asked = seen.find((r) => r.path === `/Business/Charger/${IDS.charger}/Event`)!;
    expect(asked.search.get("pageSize")).toBe("20");

    server.use(failNetwork("/Business/Charger/:id/Event"));
    const down = await run<Loose>(() => route.loader(argsFor(getReq(`/charger/edit/${IDS.charger}`, cookie), chargerContext())));
    expect(down.status).toBe(200);
    expect(down.data.events).toBeNull();
    expect(down.data.reportStatus).toBe("No pudimos leer si llegó un informe: recargá la página.");
    expect(down.data.charger.id).toBe(IDS.charger);
  });

  it("an unknown charger (or another business's: the API says 404) shows the 404 screen", async () => {
    const cookie = await operatorCookie();
    const res = await run(() => route.loader(argsFor(getReq(`/charger/edit/${OTHER}`, cookie), chargerContext(), OTHER)));
    expect(res.thrown).toBe(true);
    expect(res.status).toBe(404);
  });

  it("an id that is not an id is a 404 without asking the API", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run(() => route.loader(argsFor(getReq("/charger/edit/..%2Fadmin", cookie), chargerContext(), "../admin")));
    expect(res.status).toBe(404);
    expect(seen.filter((r) => r.path.startsWith("/Business/Charger/"))).toHaveLength(0);
  });

  it("the API down is a 503", async () => {
    const cookie = await operatorCookie();
    server.use(failNetwork("/Business/Charger/:id"));
    const res = await run(() => route.loader(argsFor(getReq(`/charger/edit/${IDS.charger}`, cookie), chargerContext())));
    expect(res.status).toBe(503);
  });
});

describe("edit charger action: save", () => {
  it("PUTs the form and keeps `enabled`, then goes back to the list with a toast", async () => {
    const cookie = await operatorCookie();
    server.use(http.get(apiUrl("/Business/Charger/:id"), () => HttpResponse.json({ ...fixtures.charger, enabled: false })));
    const seen = recordRequests();
    const form = validChargerForm({ stationId: IDS.station });
    const res = await run(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, form, cookie), chargerContext())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/charger");
    expect(res.headers.get("Set-Cookie")).toMatch(/toast-session=/);
    const put = seen.find((r) => r.method === "PUT")!;
    expect(put.path).toBe(`/Business/Charger/${IDS.charger}`);
    expect(await put.body).toMatchObject({ name: "Wallbox Sur", stationId: IDS.station, enabled: false, connectors: [{ connectorId: 1 }, { connectorId: 2, maxPowerKw: 7.4 }] });
  });

  it("«Mostrar precio en el cargador» is posted as chosen (a plain select: the same without JavaScript); an unknown choice is a field error", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, validChargerForm({ priceDisplay: "ON" }), cookie), chargerContext())));
    expect(res.status).toBe(302);
    expect(await seen.find((r) => r.method === "PUT")!.body).toMatchObject({ priceDisplay: "ON" });

    const bad = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, validChargerForm({ priceDisplay: "SIEMPRE" }), cookie), chargerContext())));
    expect(bad.status).toBe(400);
    expect(bad.data.result.error.priceDisplay).toEqual(["Elegí una opción válida."]);
  });

  it("invalid input comes back with the errors and nothing is saved", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const form = validChargerForm({ "connectors[1].standard": "", heartbeatInterval: "5" });
    const res = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, form, cookie), chargerContext())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({
      "connectors[1].standard": ["Este campo es obligatorio."],
      heartbeatInterval: ["Debe ser mayor o igual a 30."],
    });
    expect(seen.some((r) => r.method === "PUT")).toBe(false);
  });

  it("a duplicate identity is a field error", async () => {
    const cookie = await operatorCookie();
    server.use(
      http.put(apiUrl("/Business/Charger/:id"), () =>
        problemResponse(409, "Ese identificador OCPP ya está en uso.", { errors: { ocppIdentity: ["Ese identificador OCPP ya está en uso."] } }),
      ),
    );
    const res = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, validChargerForm(), cookie), chargerContext())));
    expect(res.status).toBe(409);
    expect(res.data.result.error.ocppIdentity).toEqual(["Ese identificador OCPP ya está en uso."]);
  });

  it("saving a charger that no longer exists shows the 404 screen", async () => {
    const cookie = await operatorCookie();
    const res = await run(() => route.action(argsFor(postForm(`/charger/edit/${OTHER}`, validChargerForm(), cookie), chargerContext(), OTHER)));
    expect(res.status).toBe(404);
  });
});

describe("edit charger action: password and delete", () => {
  it("'Rotar contraseña' answers the new password once, with a toast", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const context = chargerContext();
    const res = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, { intent: "rotate-password" }, cookie), context)));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ rotated: { password: "r0tated-Ocpp-Passw0rd-0123456789a" } });
    expect(pendingToast(context)?.type).toBe("success");
    expect(seen.filter((r) => r.path !== "/Account/Business").map((r) => `${r.method} ${r.path}`)).toEqual([`POST /Business/Charger/${IDS.charger}/RotatePassword`]);
  });

  it("a failed rotation says so", async () => {
    const cookie = await operatorCookie();
    server.use(failNetwork("/Business/Charger/:id/RotatePassword", "post"));
    const res = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, { intent: "rotate-password" }, cookie), chargerContext())));
    expect(res.status).toBe(503);
    expect(res.data.rotateError).toBe("No pudimos rotar la contraseña. Probá de nuevo.");
  });

  it("delete goes back to the list with a toast", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const res = await run(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, { intent: "delete" }, cookie), chargerContext())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/charger");
    // Its name is read first, for the toast (the form does not carry it).
    expect(seen.filter((r) => r.path !== "/Account/Business").map((r) => `${r.method} ${r.path}`)).toEqual([`GET /Business/Charger/${IDS.charger}`, `DELETE /Business/Charger/${IDS.charger}`]);
    expect(await flashToast(res as unknown as { headers: Headers })).toMatchObject({ type: "success", message: "Eliminamos el cargador «Wallbox Norte»." });
  });

  it("a charger with a session in progress cannot be deleted: the API's reason, in Spanish", async () => {
    const cookie = await operatorCookie();
    const title = "El cargador tiene una carga en curso. Esperá a que termine para eliminarlo.";
    server.use(http.delete(apiUrl("/Business/Charger/:id"), () => problemResponse(409, title)));
    const context = chargerContext();
    const res = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, { intent: "delete" }, cookie), context)));
    expect(res.status).toBe(409);
    expect(res.data.deleteError).toBe(title);
    expect(pendingToast(context)).toEqual({ type: "error", message: title });
  });

  it("deleting another business's charger is a 404", async () => {
    const cookie = await operatorCookie();
    server.use(http.delete(apiUrl("/Business/Charger/:id"), () => problemResponse(404, "El cargador no existe.")));
    const res = await run(() => route.action(argsFor(postForm(`/charger/edit/${OTHER}`, { intent: "delete" }, cookie), chargerContext(), OTHER)));
    expect(res.status).toBe(404);
  });
});

describe("edit charger action: intervals", () => {
  it("'Cambiar intervalos' out of range comes back with each field's message and what was typed; nothing is sent", async () => {
    const cookie = await operatorCookie();
    const seen = recordRequests();
    const context = chargerContext();
    const form = { intent: "command", command: "ChangeConfiguration", heartbeatInterval: "10", meterValueSampleInterval: "4000" };
    const res = await run<Loose>(() => route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, form, cookie), context)));
    expect(res.status).toBe(400);
    expect(res.data.intervals).toEqual({
      errors: {
        heartbeatInterval: ["Ingresá un número entero de segundos entre 30 y 86.400."],
        meterValueSampleInterval: ["Ingresá un número entero de segundos entre 0 (sin mediciones periódicas) y 3.600."],
      },
      submitted: { heartbeatInterval: "10", meterValueSampleInterval: "4000" },
    });
    expect(pendingToast(context)?.type).toBe("error");
    expect(seen.some((r) => r.path.endsWith("/Command"))).toBe(false);
  });

  it("both left empty asks for one; a valid one is posted as a number, the other left out", async () => {
    const cookie = await operatorCookie();
    const empty = await run<Loose>(() =>
      route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, { intent: "command", command: "ChangeConfiguration", heartbeatInterval: "", meterValueSampleInterval: "" }, cookie), chargerContext())),
    );
    expect(empty.data.intervals.errors).toEqual({ heartbeatInterval: ["Ingresá al menos uno de los dos intervalos."] });

    const answer = { command: "ChangeConfiguration", outcome: "accepted", message: "El cargador aceptó los intervalos nuevos (mediciones durante la carga 30 s: aceptado).", settings: { meterValueSampleInterval: { value: "30", status: "Accepted" } } };
    server.use(http.post(apiUrl("/Business/Charger/:id/Command"), () => HttpResponse.json(answer)));
    const seen = recordRequests();
    const context = chargerContext();
    const res = await run<Loose>(() =>
      route.action(argsFor(postForm(`/charger/edit/${IDS.charger}`, { intent: "command", command: "ChangeConfiguration", heartbeatInterval: "", meterValueSampleInterval: "30" }, cookie), context)),
    );
    expect(res.status).toBe(200);
    expect(res.data.commandResult).toEqual(answer);
    expect(pendingToast(context)?.type).toBe("success");
    expect(await seen.find((r) => r.path.endsWith("/Command"))!.body).toEqual({ command: "ChangeConfiguration", meterValueSampleInterval: 30 });
  });
});
