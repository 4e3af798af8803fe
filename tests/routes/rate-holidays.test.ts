// «Feriados locales» (/rate/holidays) against the Business API mocked with msw: the loader, dates
// typed DD/MM/AAAA sent as AAAA-MM-DD, a blank or impossible row refused on its row before the
// API, the API's refusal (a repeated date) on the row it names, and the rate form's preview clock
// counting the company's holidays of the coming week.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as holidays from "~/routes/app/rate/holidays";
import { previewClock } from "~/routes/app/rate/rate.server";
import { createApiClient } from "~/lib/api.server";
import { localMoment } from "#domain/tariff-bands";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { args, get, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-holidays", email: "ana@example.com" }, { refreshToken: "refresh-holidays" });

function recordPuts(answer?: () => Response) {
  const bodies: Loose[] = [];
  server.use(
    http.put(apiUrl("/Business/Holidays"), async ({ request }) => {
      const body = (await request.json()) as Loose;
      bodies.push(body);
      return answer ? answer() : HttpResponse.json({ dates: [...(body.dates as string[])].sort(), national: [] });
    }),
  );
  return bodies;
}

describe("Feriados locales", () => {
  it("is guarded, and loads the company's dates and the national ones", async () => {
    const anonymous = await run(() => holidays.loader(args(get("/rate/holidays"), ctx())));
    expect(anonymous.location).toBe("/auth/login?redirectTo=%2Frate%2Fholidays");
    const { cookie } = await signedIn();
    const res = await run(() => holidays.loader(args(get("/rate/holidays", cookie), ctx())));
    expect(res.data).toEqual({ dates: ["2027-03-15"], national: ["2026-12-08", "2026-12-25"], max: 60 });
  });

  it("sends DD/MM/AAAA as AAAA-MM-DD and comes back with a toast", async () => {
    const bodies = recordPuts();
    const { cookie } = await signedIn();
    const res = await run(() => holidays.action(args(post("/rate/holidays", { "dates[0]": "7/10/2027", "dates[1]": "2027-03-15" }, cookie), ctx())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/rate/holidays");
    expect(res.headers.get("Set-Cookie")).toContain("toast-session");
    expect(bodies).toEqual([{ dates: ["2027-03-15", "2027-10-07"] }]);
  });

  it("a blank row, an impossible day and a repeated date are refused on their rows, before the API", async () => {
    const bodies = recordPuts();
    const { cookie } = await signedIn();
    const res = await run(() => holidays.action(args(post("/rate/holidays", { "dates[0]": "", "dates[1]": "30/02/2027", "dates[2]": "15/03/2027", "dates[3]": "15/3/2027" }, cookie), ctx())));
    expect(res.status).toBe(400);
    const errors = (res.data as Loose).result.error;
    expect(errors["dates[0]"]).toEqual(["Ingresá la fecha (DD/MM/AAAA) o quitá la fila."]);
    expect(errors["dates[1]"]).toEqual(["«30/02/2027» no es una fecha válida: usá DD/MM/AAAA, por ejemplo 15/03/2027."]);
    expect(bodies).toEqual([]);
    const dup = await run(() => holidays.action(args(post("/rate/holidays", { "dates[0]": "15/03/2027", "dates[1]": "15/3/2027" }, cookie), ctx())));
    expect((dup.data as Loose).result.error["dates[1]"]).toEqual(["El 15/03/2027 ya está en la lista."]);
    expect(bodies).toEqual([]);
  });

  it("the API's refusal lands on the row it names, with a toast", async () => {
    recordPuts(() => problemResponse(422, "Revisá los datos.", { errors: { "dates[0]": ["Esa fecha no existe."] } }));
    const { cookie } = await signedIn();
    const res = await run(() => holidays.action(args(post("/rate/holidays", { "dates[0]": "01/01/2027" }, cookie), ctx())));
    expect(res.status).toBe(422);
    expect((res.data as Loose).result.error["dates[0]"]).toEqual(["Esa fecha no existe."]);
  });

  it("the rate form's preview counts the company's holidays of the coming week with the national ones", async () => {
    const now = new Date();
    const soon = localMoment(now.getTime() + 2 * 86_400_000, "America/Argentina/Buenos_Aires").date;
    server.use(http.get(apiUrl("/Business/Holidays"), () => HttpResponse.json({ dates: [soon, "2099-01-02"], national: [] })));
    const clock = await previewClock(createApiClient(ctx(), "token"), now);
    expect(clock.holidays).toContain(soon);
    expect(clock.holidays).not.toContain("2099-01-02");
  });
});
