// The Roaming screen's action (ADR 0021) against the Business API mocked with msw: a
// partner's versions URL the API refuses (private or plain http in production) comes back as the
// field's message under "URL de versiones del socio", with the same words in the toast.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http } from "msw";
import * as roaming from "~/routes/app/roaming";
import { pendingToast } from "~/lib/context";
import { API_TEST_BASE_URL, apiUrl, problemResponse, server } from "../mocks/server";
import { args, makeContext, post, run, signedInCookie, type Loose } from "./auth-helpers";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const ctx = () => makeContext(undefined, { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL });
const signedIn = () => signedInCookie({ uid: "uid-roaming", email: "ana@example.com" }, { refreshToken: "refresh-roaming" });
const MESSAGE = "La dirección del socio tiene que ser pública y usar https.";

describe("Roaming: registering with a partner", () => {
  it("a refused partner address lands on the versions URL field, kept as typed, with the toast", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl("/Business/Roaming/Partner"), async ({ request }) => {
        bodies.push(await request.json());
        return problemResponse(422, "Revisá los datos ingresados.", { errors: { versionsUrl: [MESSAGE] } });
      }),
    );
    const { cookie } = await signedIn();
    const context = ctx();
    const res = await run<Loose>(() => roaming.action(args(post("/roaming", { intent: "register", versionsUrl: "https://10.0.0.8/ocpi/versions", token: "tokenA" }, cookie), context)));
    expect(res.status).toBe(422);
    expect(res.data).toMatchObject({ intent: "register", errors: { versionsUrl: [MESSAGE] }, values: { versionsUrl: "https://10.0.0.8/ocpi/versions" } });
    expect(pendingToast(context)).toEqual({ type: "error", message: MESSAGE });
    expect(bodies).toEqual([{ versionsUrl: "https://10.0.0.8/ocpi/versions", token: "tokenA" }]);
  });
});
