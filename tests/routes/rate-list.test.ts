// 'Tarifas' (the list) loader and action against the Business API mocked with msw over the
// HTTP transport (tests/mocks): query parameters, bounds, the ?delete= confirmation and the
// API's 409 for a rate in use, with JavaScript (single fetch) and without.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as list from "~/routes/app/rate/index";
import { fixtures, IDS } from "../mocks/fixtures";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";
import { pendingToast } from "~/lib/context";

const IN_USE = "La tarifa está asignada a conectores. Asignales otra tarifa antes de eliminarla.";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = (isDataRequest = false) => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL, isDataRequest });
const signedIn = () => signedInCookie({ uid: "uid-rates", email: "ana@example.com" }, { refreshToken: "refresh-rates" });

/** Record the list calls' query strings. */
function recordListQueries() {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(apiUrl("/Business/Fees"), ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json(fixtures.rates);
    }),
  );
  return queries;
}

describe("Tarifas: loader", () => {
  it("without a session goes to the login screen and comes back", async () => {
    const res = await run(() => list.loader(args(get("/rate?q=ac"), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/auth/login?redirectTo=%2Frate%3Fq%3Dac");
  });

  it("lists the rates with search, sort and page from the URL, sent to the API", async () => {
    const queries = recordListQueries();
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => list.loader(args(get("/rate?q=%20AC%20&sort=-pricePerKwhCents&page=2", cookie), ctx())));
    expect(res.status).toBe(200);
    expect(res.data.items[0]).toMatchObject({ id: IDS.rate, name: "AC Estándar", connectorCount: 1 });
    expect(res.data.q).toBe("AC");
    expect(res.data.sort).toBe("-pricePerKwhCents");
    expect(Object.fromEntries(queries[0])).toEqual({ q: "AC", sort: "-pricePerKwhCents", page: "2", pageSize: "20" });
    expect(res.data.toDelete).toBeNull();
  });

  it("bounds what the URL asks for: unknown sort → by name, page size ≤ 100, page ≥ 1", async () => {
    const queries = recordListQueries();
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => list.loader(args(get("/rate?sort=password&pageSize=5000&page=-3", cookie), ctx())));
    expect(res.data.sort).toBe("name");
    expect(Object.fromEntries(queries[0])).toEqual({ sort: "name", page: "1", pageSize: "100" });
  });

  it("?delete=<id> brings the rate to confirm, from the page or from the API", async () => {
    const { cookie } = await signedIn();
    const onPage = await run<Loose>(() => list.loader(args(get(`/rate?delete=${IDS.rate}`, cookie), ctx())));
    expect(onPage.data.toDelete).toMatchObject({ id: IDS.rate, name: "AC Estándar" });

    server.use(http.get(apiUrl("/Business/Fees"), () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 20 })));
    const elsewhere = await run<Loose>(() => list.loader(args(get(`/rate?delete=${IDS.rate}`, cookie), ctx())));
    expect(elsewhere.data.toDelete).toMatchObject({ id: IDS.rate });

    const bogus = await run<Loose>(() => list.loader(args(get("/rate?delete=../../etc", cookie), ctx())));
    expect(bogus.data.toDelete).toBeNull();
  });

  it("an API failure is an error page, not a crash", async () => {
    server.use(http.get(apiUrl("/Business/Fees"), () => problemResponse(500, "Error interno.")));
    const { cookie } = await signedIn();
    const res = await run(() => list.loader(args(get("/rate", cookie), ctx())));
    expect(res.thrown).toBe(true);
    expect(res.status).toBe(502);
  });
});

describe("Tarifas: delete", () => {
  it("deletes and goes back to the list with a success toast", async () => {
    const deleted: string[] = [];
    server.use(
      http.delete(apiUrl("/Business/Fees/:id"), ({ params, request }) => {
        deleted.push(`${params.id} ${request.headers.get("authorization")?.slice(0, 7)}`);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { cookie } = await signedIn();
    const res = await run(() => list.action(args(post(`/rate?delete=${IDS.rate}`, { intent: "delete", id: IDS.rate }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
    expect(res.headers.get("Set-Cookie")).toContain("toast-session");
    expect(deleted).toEqual([`${IDS.rate} Bearer `]);
  });

  it("a rate in use: the API's 409 message, as a toast in the same page without JavaScript", async () => {
    server.use(http.delete(apiUrl("/Business/Fees/:id"), () => problemResponse(409, IN_USE)));
    const { cookie } = await signedIn();
    const context = ctx(false);
    const res = await run<Loose>(() => list.action(args(post(`/rate?delete=${IDS.rate}`, { intent: "delete", id: IDS.rate }, cookie), context)));
    expect(res.status).toBe(409);
    expect(res.data).toEqual({ deleteError: IN_USE });
    expect(pendingToast(context)).toEqual({ type: "error", message: IN_USE });
  });

  it("a rate in use, with JavaScript: the toast rides a flash cookie on a 200 so React Router revalidates", async () => {
    server.use(http.delete(apiUrl("/Business/Fees/:id"), () => problemResponse(409, IN_USE)));
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => list.action(args(post(`/rate.data?delete=${IDS.rate}`, { intent: "delete", id: IDS.rate }, cookie), ctx(true))));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ deleteError: IN_USE });
    expect(res.headers.get("Set-Cookie")).toContain("toast-session");
  });

  it("refuses anything but a well-formed delete", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => list.action(args(post("/rate", { intent: "delete", id: "1 OR 1=1" }, cookie), ctx())));
    expect(res.status).toBe(400);
    expect(res.data.deleteError).toMatch(/Probá de nuevo/);
  });

  it("a rate that no longer exists: back to the list with a notice", async () => {
    server.use(http.delete(apiUrl("/Business/Fees/:id"), () => problemResponse(404, "La tarifa no existe.")));
    const { cookie } = await signedIn();
    const res = await run(() => list.action(args(post("/rate", { intent: "delete", id: IDS.rate }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate");
  });
});
