// 'Tarjetas RFID', 'Importar tarjetas' and 'Grupos de acceso': loaders and actions
// against the Business API mocked with msw over the HTTP transport (tests/mocks).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as tagNew from "~/routes/app/tag/new";
import * as tagList from "~/routes/app/tag/index";
import * as tagImport from "~/routes/app/tag/import";
import * as groupNew from "~/routes/app/group/new";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { APP, args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";
import { pendingToast } from "~/lib/context";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = (isDataRequest = false) => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL, isDataRequest });
const signedIn = () => signedInCookie({ uid: "uid-tags", email: "ana@example.com" }, { refreshToken: "refresh-tags" });
const GROUP_ID = "0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d";
const TAG = { id: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", idTag: "ABC123", holderName: "Ana Pérez", email: null, expiresOn: null, blocked: false, groupId: null, groupName: null, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };

function groupsAnswer() {
  server.use(http.get(apiUrl("/Business/AccessGroup"), () => HttpResponse.json({ items: [{ id: GROUP_ID, name: "Flota" }], total: 1, page: 1, pageSize: 100 })));
}

function multipart(path: string, file: File | null, cookie: string): Request {
  const form = new FormData();
  if (file) form.set("file", file);
  return new Request(`${APP}${path}`, { method: "POST", headers: { Cookie: cookie }, body: form });
}

describe("Nueva tarjeta", () => {
  it("offers the company's groups", async () => {
    groupsAnswer();
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => tagNew.loader(args(get("/tag/new", cookie), ctx())));
    expect(res.data.groups).toEqual([{ id: GROUP_ID, name: "Flota" }]);
  });

  it("creates the tag with what was typed and goes back to the list with the product's toast", async () => {
    const bodies: unknown[] = [];
    server.use(http.post(apiUrl("/Business/Tag"), async ({ request }) => (bodies.push(await request.json()), HttpResponse.json(TAG, { status: 201 }))));
    const { cookie } = await signedIn();
    const context = ctx();
    const res = await run(() => tagNew.action(args(post("/tag/new", { idTag: " ABC123 ", holderName: "Ana Pérez", email: "", expiresOn: "2030-12-31", blocked: "on", groupId: GROUP_ID }, cookie), context)));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/tag");
    expect(res.headers.get("Set-Cookie")).toContain("toast-session");
    expect(bodies).toEqual([{ idTag: "ABC123", holderName: "Ana Pérez", email: null, expiresOn: "2030-12-31", blocked: true, groupId: GROUP_ID }]);
  });

  it("checks the fields on the server, in Spanish, without calling the API", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => tagNew.action(args(post("/tag/new", { idTag: "AB CD", holderName: "", email: "no", expiresOn: "2030-02-31" }, cookie), ctx())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({
      idTag: ["Usá hasta 20 letras, números o signos, sin espacios ni acentos."],
      holderName: ["Este campo es obligatorio."],
      email: ["Ingresá un correo electrónico válido."],
      expiresOn: ["Ingresá una fecha válida."],
    });
  });

  it("a taken idTag (409) lands on the field, with a toast", async () => {
    server.use(http.post(apiUrl("/Business/Tag"), () => problemResponse(409, "Ya tenés una tarjeta con ese idTag.", { errors: { idTag: ["Ya tenés una tarjeta con ese idTag."] } })));
    const { cookie } = await signedIn();
    const context = ctx();
    const res = await run<Loose>(() => tagNew.action(args(post("/tag/new", { idTag: "abc123", holderName: "Ana" }, cookie), context)));
    expect(res.status).toBe(409);
    expect(res.data.result.error).toEqual({ idTag: ["Ya tenés una tarjeta con ese idTag."] });
    expect(pendingToast(context)).toEqual({ type: "error", message: "Ya tenés una tarjeta con ese idTag." });
  });
});

describe("Tarjetas RFID: list", () => {
  it("sends search, sort and page to the API and brings the tag to delete", async () => {
    const queries: URLSearchParams[] = [];
    server.use(
      http.get(apiUrl("/Business/Tag"), ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json({ items: [TAG], total: 1, page: 1, pageSize: 20 });
      }),
    );
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => tagList.loader(args(get(`/tag?q=%20ana%20&sort=password&delete=${TAG.id}`, cookie), ctx())));
    expect(Object.fromEntries(queries[0])).toEqual({ q: "ana", sort: "holderName", page: "1", pageSize: "20" });
    expect(res.data.toDelete).toMatchObject({ idTag: "ABC123" });
  });

  it("deletes with the confirmation's POST and says so", async () => {
    server.use(
      http.get(apiUrl(`/Business/Tag/${TAG.id}`), () => HttpResponse.json(TAG)),
      http.delete(apiUrl(`/Business/Tag/${TAG.id}`), () => new HttpResponse(null, { status: 204 })),
    );
    const { cookie } = await signedIn();
    const res = await run(() => tagList.action(args(post("/tag", { intent: "delete", id: TAG.id }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/tag");
  });
});

describe("Importar tarjetas", () => {
  it("sends the file as text/csv and reports the imported count", async () => {
    const sent: { type: string | null; text: string }[] = [];
    server.use(
      http.post(apiUrl("/Business/Tag/Import"), async ({ request }) => {
        sent.push({ type: request.headers.get("content-type"), text: await request.text() });
        return HttpResponse.json({ created: 2, updated: 1 });
      }),
    );
    const { cookie } = await signedIn();
    const file = new File(["\uFEFFidTag;titular;email;vencimiento;bloqueada;grupo\r\nA1;Ana;;;no;\r\n"], "tarjetas.csv", { type: "text/csv" });
    const res = await run(() => tagImport.action(args(multipart("/tag/import", file, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/tag");
    expect(sent[0].type).toBe("text/csv; charset=utf-8");
    expect(sent[0].text).toContain("A1;Ana;;;no;");
    expect(tagImport.importedMessage({ created: 2, updated: 1 })).toBe("Importamos 3 tarjetas: 2 nuevas y 1 actualizada.");
  });

  it("bad rows: nothing imported, every row's messages on the page (no JavaScript: the real status)", async () => {
    server.use(
      http.post(apiUrl("/Business/Tag/Import"), () =>
        problemResponse(422, "No importamos nada: 2 filas tienen errores. Corregilas y volvé a subir el archivo.", {
          errors: {
            "rows[4]": ["idTag: «a1» ya está en la fila 2."],
            "rows[3]": ["titular: Este campo es obligatorio.", "bloqueada: Escribí «sí» o «no»."],
          },
        }),
      ),
    );
    const { cookie } = await signedIn();
    const context = ctx();
    const res = await run<Loose>(() => tagImport.action(args(multipart("/tag/import", new File(["x"], "t.csv"), cookie), context)));
    expect(res.status).toBe(422);
    expect(res.data.report).toEqual({
      title: "No importamos nada: 2 filas tienen errores. Corregilas y volvé a subir el archivo.",
      rows: [
        { line: 3, messages: ["titular: Este campo es obligatorio.", "bloqueada: Escribí «sí» o «no»."] },
        { line: 4, messages: ["idTag: «a1» ya está en la fila 2."] },
      ],
    });
    expect(pendingToast(context)?.type).toBe("error");
  });

  it("no file, or one over 1 MB, never reaches the API", async () => {
    const { cookie } = await signedIn();
    const none = await run<Loose>(() => tagImport.action(args(multipart("/tag/import", null, cookie), ctx())));
    expect(none.status).toBe(400);
    expect(none.data.report.title).toBe("Elegí un archivo CSV para importar.");
    const big = await run<Loose>(() => tagImport.action(args(multipart("/tag/import", new File(["x".repeat(1024 * 1024 + 1)], "big.csv"), cookie), ctx())));
    expect(big.status).toBe(413);
    expect(big.data.report.title).toBe("El archivo supera 1 MB. Dividilo en partes más chicas.");
  });
});

describe("Nuevo grupo", () => {
  it("'Solo las estaciones elegidas' without any: the field's Spanish message, no API call", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => groupNew.action(args(post("/group/new", { name: "Flota", allStations: "some" }, cookie), ctx())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ stationIds: ["Elegí al menos una estación, o marcá «Todas las estaciones»."] });
  });

  it("creates the group with its stations and rate", async () => {
    const bodies: unknown[] = [];
    server.use(http.post(apiUrl("/Business/AccessGroup"), async ({ request }) => (bodies.push(await request.json()), HttpResponse.json({ id: GROUP_ID, name: "Flota" }, { status: 201 }))));
    const { cookie } = await signedIn();
    const form = new URLSearchParams({ name: "Flota", allStations: "some", rateId: "" });
    form.append("stationIds", "6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f");
    const req = new Request(`${APP}/group/new`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: form.toString() });
    const res = await run(() => groupNew.action(args(req, ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/group");
    expect(bodies).toEqual([{ name: "Flota", allStations: false, stationIds: ["6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f"], rateId: null, billingCuit: null, billingName: null, billingTaxCondition: null, billingMonthly: false }]);
  });

  it("without JavaScript: «Facturar mensualmente» ticked posts the billing data, the CUIT as its 11 digits", async () => {
    const bodies: unknown[] = [];
    server.use(http.post(apiUrl("/Business/AccessGroup"), async ({ request }) => (bodies.push(await request.json()), HttpResponse.json({ id: GROUP_ID, name: "Flota" }, { status: 201 }))));
    const { cookie } = await signedIn();
    const form = new URLSearchParams({ name: "Flota", allStations: "all", rateId: "", billingCuit: "30-50001091-2", billingName: " Flota Sur SA ", billingTaxCondition: "MONOTRIBUTO", billingMonthly: "on" });
    const req = new Request(`${APP}/group/new`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: form.toString() });
    const res = await run(() => groupNew.action(args(req, ctx())));
    expect(res.status).toBe(302);
    expect(bodies).toEqual([{ name: "Flota", allStations: true, stationIds: [], rateId: null, billingCuit: "30500010912", billingName: "Flota Sur SA", billingTaxCondition: "MONOTRIBUTO", billingMonthly: true }]);
  });

  it("«Facturar mensualmente» without CUIT, name or condition, or a CUIT with a wrong check digit: Spanish messages on the fields, no API call", async () => {
    const { cookie } = await signedIn();
    const missing = await run<Loose>(() => groupNew.action(args(post("/group/new", { name: "Flota", allStations: "all", billingMonthly: "on" }, cookie), ctx())));
    expect(missing.status).toBe(400);
    expect(missing.data.result.error).toEqual({
      billingCuit: ["Ingresá el CUIT al que se factura cada mes."],
      billingName: ["Ingresá la razón social a la que se factura cada mes."],
      billingTaxCondition: ["Elegí la condición frente al IVA del cliente."],
    });
    const bad = await run<Loose>(() => groupNew.action(args(post("/group/new", { name: "Flota", allStations: "all", billingCuit: "30-50001091-3" }, cookie), ctx())));
    expect(bad.status).toBe(400);
    expect(bad.data.result.error).toEqual({ billingCuit: ["El dígito verificador del CUIT no es válido."] });
  });
});
