// Create forms carry a one-time token that their actions send as Idempotency-Key:
// the API then creates one record however often the same form arrives (tests/api/idempotency).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import * as newRate from "~/routes/app/rate/new";
import * as newStation from "~/routes/app/station/new";
import * as newCharger from "~/routes/app/charger/new";
import { FORM_TOKEN_FIELD } from "~/lib/form-token";
import { fixtures } from "../mocks/fixtures";
import { API_TEST_BASE_URL, apiUrl, server } from "../mocks/server";
import { get, makeContext, post, run, signedInCookie, type Loose, args } from "./auth-helpers";
import { validChargerForm } from "./charger-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-token", email: "ana@example.com" }, { refreshToken: "refresh-token" });
const noParams = (request: Request, context: ReturnType<typeof ctx>) => args(request, context);

function recordKeys(path: string, answer: (replayed: boolean) => Response) {
  const keys: (string | null)[] = [];
  server.use(
    http.post(apiUrl(path), ({ request }) => {
      const key = request.headers.get("Idempotency-Key");
      const replayed = key !== null && keys.includes(key);
      keys.push(key);
      return answer(replayed);
    }),
  );
  return keys;
}

describe("create forms send their one-time token", () => {
  it("each loader hands out a fresh token", async () => {
    const { cookie } = await signedIn();
    for (const [mod, path] of [
      [newRate, "/rate/new"],
      [newStation, "/station/new"],
      [newCharger, "/charger/new"],
    ] as const) {
      const a = await run<Loose>(() => mod.loader(noParams(get(path, cookie), ctx())));
      const b = await run<Loose>(() => mod.loader(noParams(get(path, cookie), ctx())));
      expect(a.data.formToken, path).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.data.formToken, path).not.toBe(b.data.formToken);
    }
  });

  it("Nueva tarifa: the same form twice sends the same key both times", async () => {
    const { cookie } = await signedIn();
    const keys = recordKeys("/Business/Fees", () => HttpResponse.json({ ...fixtures.rate, connectorCount: 0 }, { status: 201 }));
    const form = { name: "Dos veces", pricePerKwhCents: "100", vatIncluded: "true", vatRateBp: "2100", intent: "save", [FORM_TOKEN_FIELD]: "token-rate-0001" };
    for (let i = 0; i < 2; i++) expect((await run(() => newRate.action(noParams(post("/rate/new", form, cookie), ctx())))).status).toBe(302);
    expect(keys).toEqual(["token-rate-0001", "token-rate-0001"]);
  });

  it("Nuevo cargador: a replayed creation goes to the charger (its one-time password is not kept)", async () => {
    const { cookie } = await signedIn();
    const keys = recordKeys("/Business/Charger", (replayed) =>
      replayed
        ? HttpResponse.json({ ...fixtures.charger }, { status: 201, headers: { "Idempotent-Replayed": "true" } })
        : HttpResponse.json({ ...fixtures.charger, ocppPassword: "s3cret-Once-0123456789abcdef" }, { status: 201 }),
    );
    const form = { ...validChargerForm(), [FORM_TOKEN_FIELD]: "token-charger-01" };
    const first = await run<Loose>(() => newCharger.action(noParams(post("/charger/new", form, cookie), ctx())));
    expect(first.data.created.password).toBe("s3cret-Once-0123456789abcdef");
    const second = await run<Loose>(() => newCharger.action(noParams(post("/charger/new", form, cookie), ctx())));
    expect(second.status).toBe(302);
    expect(second.location).toBe(`/charger/edit/${fixtures.charger.id}`);
    expect(keys).toEqual(["token-charger-01", "token-charger-01"]);
  });

  it("a malformed token is not sent (the API would refuse it)", async () => {
    const { cookie } = await signedIn();
    const keys = recordKeys("/Business/Fees", () => HttpResponse.json({ ...fixtures.rate, connectorCount: 0 }, { status: 201 }));
    const form = { name: "Rara", pricePerKwhCents: "100", vatIncluded: "true", vatRateBp: "2100", intent: "save", [FORM_TOKEN_FIELD]: "<script>" };
    await run(() => newRate.action(noParams(post("/rate/new", form, cookie), ctx())));
    expect(keys).toEqual([null]);
  });
});
