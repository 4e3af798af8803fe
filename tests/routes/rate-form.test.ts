// 'Nueva tarifa' and 'Editar tarifa' loaders and actions against the Business API mocked with
// msw over the HTTP transport: es-AR amounts into centavos, field errors (ours and the API's),
// the no-JavaScript price preview submit, 404 for ids that are not ours, delete with 409.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as create from "~/routes/app/rate/new";
import * as edit from "~/routes/app/rate/edit";
import { rateToValues } from "~/components/rate/schema";
import { fixtures, IDS } from "../mocks/fixtures";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { get, makeContext, post, run, signedInCookie, type Loose, args } from "./auth-helpers";
import { pendingToast } from "~/lib/context";

const IN_USE = "La tarifa está asignada a conectores. Asignales otra tarifa antes de eliminarla.";
const OTHER = "5b5b5b5b-1111-4222-8333-444444444444";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = (isDataRequest = false) => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL, isDataRequest });
const signedIn = () => signedInCookie({ uid: "uid-rates", email: "ana@example.com" }, { refreshToken: "refresh-rates" });
const withId = (request: Request, context: ReturnType<typeof ctx>, id: string) => args(request, context, { id });
const noParams = (request: Request, context: ReturnType<typeof ctx>) => args(request, context);

const FORM = {
  name: "Nocturna flotas",
  pricePerKwhCents: "1.234,56",
  pricePerMinuteCents: "10.5",
  sessionFeeCents: "",
  vatIncluded: "false",
  vatRateBp: "2100",
  idleGraceMinutes: "15",
  idlePricePerMinuteCents: "80",
  idleMaxCents: "",
  idleActiveFrom: "22:00",
  idleActiveTo: "06:00",
  noShowFeeCents: "1500",
  scenarioMinutes: "45",
  scenarioKwh: "30",
  scenarioIdleMinutes: "20",
  scenarioIdleStart: "21:00",
};

/** Record the bodies the API receives for `method path`. */
function recordBodies(method: "post" | "put", path: string, answer?: () => Response) {
  const bodies: Loose[] = [];
  server.use(
    http[method](apiUrl(path), async ({ request }) => {
      bodies.push(await request.json());
      return answer ? answer() : HttpResponse.json({ ...fixtures.rate, connectorCount: 0 }, { status: method === "post" ? 201 : 200 });
    }),
  );
  return bodies;
}

describe("Nueva tarifa", () => {
  it("is guarded", async () => {
    const res = await run(() => create.loader(noParams(get("/rate/new"), ctx())));
    expect(res.location).toBe("/auth/login?redirectTo=%2Frate%2Fnew");
  });

  it("creates the rate: es-AR amounts and '1234.56' into centavos, empty prices as 0, no cap as null", async () => {
    const bodies = recordBodies("post", "/Business/Fees");
    const { cookie } = await signedIn();
    const res = await run(() => create.action(noParams(post("/rate/new", { ...FORM, intent: "save" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
    expect(res.headers.get("Set-Cookie")).toContain("toast-session");
    expect(bodies).toEqual([
      {
        name: "Nocturna flotas",
        currency: "ARS",
        pricePerKwhCents: 123_456,
        pricePerMinuteCents: 1_050,
        sessionFeeCents: 0,
        vatIncluded: false,
        vatRateBp: 2100,
        idleGraceMinutes: 15,
        idlePricePerMinuteCents: 8_000,
        idleMaxCents: null,
        idleActiveFrom: "22:00",
        idleActiveTo: "06:00",
        noShowFeeCents: 150_000,
        bands: [],
        localHolidays: [],
      },
    ]);
  });

  it("bad input: Spanish errors on the fields, everything typed kept, no API call", async () => {
    const bodies = recordBodies("post", "/Business/Fees");
    const { cookie } = await signedIn();
    const res = await run<Loose>(() =>
      create.action(noParams(post("/rate/new", { ...FORM, name: "  ", pricePerKwhCents: "12,345", idleGraceMinutes: "diez", intent: "save" }, cookie), ctx())),
    );
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({
      name: ["Este campo es obligatorio."],
      pricePerKwhCents: ["Ingresá un importe válido, por ejemplo 1.234,56."],
      idleGraceMinutes: ["Ingresá un número."],
    });
    expect(res.data.result.initialValue).toMatchObject({ pricePerKwhCents: "12,345", idleGraceMinutes: "diez", scenarioKwh: "30" });
    expect(bodies).toHaveLength(0);
  });

  it("the API's rules too: a rate needs a price; an idle window needs both ends", async () => {
    const { cookie } = await signedIn();
    const noPrice = await run<Loose>(() =>
      create.action(noParams(post("/rate/new", { ...FORM, pricePerKwhCents: "", pricePerMinuteCents: "0", sessionFeeCents: "", intent: "save" }, cookie), ctx())),
    );
    expect(noPrice.data.result.error).toEqual({ pricePerKwhCents: ["La tarifa necesita al menos un precio (por kWh, por minuto o por sesión)."] });
    const halfWindow = await run<Loose>(() => create.action(noParams(post("/rate/new", { ...FORM, idleActiveTo: "", intent: "save" }, cookie), ctx())));
    expect(halfWindow.data.result.error).toEqual({ idleActiveTo: ["Indicá el inicio y el fin del horario de la penalidad."] });
  });

  it("'Calcular vista previa' (intent=preview) keeps the values, reports no errors and saves nothing", async () => {
    const bodies = recordBodies("post", "/Business/Fees");
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => create.action(noParams(post("/rate/new", { ...FORM, name: "", scenarioKwh: "12,5", intent: "preview" }, cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.intent).toBe("preview");
    expect(res.data.result.error).toBeUndefined();
    expect(res.data.result.initialValue).toMatchObject({ pricePerKwhCents: "1.234,56", scenarioKwh: "12,5", idleActiveFrom: "22:00" });
    expect(bodies).toHaveLength(0);
  });

  it("the API's per-field errors land on the fields, with a toast", async () => {
    recordBodies("post", "/Business/Fees", () =>
      problemResponse(422, "Revisá los datos ingresados.", { errors: { name: ["Ya tenés una tarifa con ese nombre."], unknown: ["x"] } }),
    );
    const { cookie } = await signedIn();
    const context = ctx();
    const res = await run<Loose>(() => create.action(noParams(post("/rate/new", { ...FORM, intent: "save" }, cookie), context)));
    expect(res.status).toBe(422);
    expect(res.data.result.error).toEqual({ name: ["Ya tenés una tarifa con ese nombre."] });
    expect(pendingToast(context)).toEqual({ type: "error", message: "Revisá los datos ingresados." });
  });

  it("the API down: a toast and the form as it was, never a 500", async () => {
    server.use(http.post(apiUrl("/Business/Fees"), () => HttpResponse.error()));
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => create.action(noParams(post("/rate/new", { ...FORM, intent: "save" }, cookie), ctx())));
    expect(res.status).toBe(503);
    expect(res.data.result.error[""]).toEqual(["No pudimos comunicarnos con el servidor. Probá de nuevo en unos minutos."]);
    expect(res.data.result.initialValue.name).toBe("Nocturna flotas");
  });
});

describe("Editar tarifa", () => {
  it("loads the rate; amounts shown es-AR style", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => edit.loader(withId(get(`/rate/edit/${IDS.rate}`, cookie), ctx(), IDS.rate)));
    expect(res.data.rate).toMatchObject({ id: IDS.rate, name: "AC Estándar" });
    expect(res.data.confirmDelete).toBe(false);
    expect(rateToValues(res.data.rate)).toMatchObject({ pricePerKwhCents: "350,00", idleMaxCents: "5.000,00", idlePricePerMinuteCents: "50,00", vatIncluded: "true", idleActiveFrom: "" });
  });

  it("an id of another business or unknown → 404; a malformed one never reaches the API", async () => {
    const { cookie } = await signedIn();
    const unknown = await run(() => edit.loader(withId(get(`/rate/edit/${OTHER}`, cookie), ctx(), OTHER)));
    expect(unknown.thrown).toBe(true);
    expect(unknown.status).toBe(404);
    const malformed = await run(() => edit.loader(withId(get("/rate/edit/abc", cookie), ctx(), "abc")));
    expect(malformed.status).toBe(404);
    const action = await run(() => edit.action(withId(post("/rate/edit/abc", { ...FORM, intent: "save" }, cookie), ctx(), "abc")));
    expect(action.status).toBe(404);
  });

  it("?delete=1 asks for confirmation", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => edit.loader(withId(get(`/rate/edit/${IDS.rate}?delete=1`, cookie), ctx(), IDS.rate)));
    expect(res.data.confirmDelete).toBe(true);
  });

  it("saves with PUT and goes back to the list", async () => {
    const bodies = recordBodies("put", `/Business/Fees/${IDS.rate}`);
    const { cookie } = await signedIn();
    const res = await run(() => edit.action(withId(post(`/rate/edit/${IDS.rate}`, { ...FORM, idleMaxCents: "2.500", intent: "save" }, cookie), ctx(), IDS.rate)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
    expect(bodies[0]).toMatchObject({ name: "Nocturna flotas", idleMaxCents: 250_000, pricePerKwhCents: 123_456 });
  });

  it("a rate deleted meanwhile: back to the list with a notice", async () => {
    recordBodies("put", `/Business/Fees/${OTHER}`, () => problemResponse(404, "La tarifa no existe."));
    const { cookie } = await signedIn();
    const res = await run(() => edit.action(withId(post(`/rate/edit/${OTHER}`, { ...FORM, intent: "save" }, cookie), ctx(), OTHER)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
  });

  it("deletes a rate not in use", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => edit.action(withId(post(`/rate/edit/${IDS.rate}?delete=1`, { intent: "delete" }, cookie), ctx(), IDS.rate)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
  });

  it("a rate in use cannot be deleted: the API's message", async () => {
    server.use(http.delete(apiUrl("/Business/Fees/:id"), () => problemResponse(409, IN_USE)));
    const { cookie } = await signedIn();
    const context = ctx();
    const res = await run<Loose>(() => edit.action(withId(post(`/rate/edit/${IDS.rate}?delete=1`, { intent: "delete" }, cookie), context, IDS.rate)));
    expect(res.status).toBe(409);
    expect(res.data).toEqual({ deleteError: IN_USE });
    expect(pendingToast(context)).toEqual({ type: "error", message: IN_USE });
  });
});
