// A dashboard page refused by the API's request limit is a 429 page in Spanish with the wait
// ("Demasiados intentos. Probá de nuevo en N minutos."), through the app's one error boundary,
// and its Retry-After reaches the response (the page and its .data answer).
import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { isRouteErrorResponse, UNSAFE_ErrorResponseImpl as ErrorResponse, type HeadersArgs } from "react-router";
import * as layout from "~/routes/app/layout";
import * as root from "~/root";
import { createApiClient } from "~/lib/api.server";
import { endpoints } from "#contract/endpoints";

import { args, fake, FakeBusinessApi, get, makeContext, run, signedInCookie, withAuthRouteTests } from "./auth-helpers";

withAuthRouteTests();

/** The Business API past the account's limit: 429 with Retry-After, as api/app.ts answers. */
function limitedApi(retryAfter = "150") {
  const api = new FakeBusinessApi();
  api.fetch = async () =>
    new Response(JSON.stringify({ title: "Demasiados intentos. Esperá 3 minutos y probá de nuevo.", status: 429 }), {
      status: 429,
      headers: { "Content-Type": "application/problem+json", "Retry-After": retryAfter },
    });
  return api;
}

async function thrown(fn: () => unknown) {
  try {
    await fn();
  } catch (error) {
    return error as { type?: string; data: { message: string }; init: ResponseInit };
  }
  throw new Error("nothing was thrown");
}

describe("a page over the API's request limit", () => {
  it("the guard answers 429 with Retry-After and the wait in Spanish, not a 503", async () => {
    const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
    const { cookie } = await signedInCookie(account);
    const res = await run(() => layout.loader(args(get("/home", cookie), makeContext(limitedApi()))));
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("150");
    expect((res.data as { message: string }).message).toBe("Demasiados intentos. Probá de nuevo en 3 minutos.");
  });

  it("a loader's typed read is a 429 too (not turned into a 503 value)", async () => {
    const api = createApiClient({ apiFetch: limitedApi("30").fetch, apiBaseUrl: "http://api.test/api" }, "token");
    const error = await thrown(() => api.call(endpoints.chargerList));
    expect(error.init.status).toBe(429);
    expect(new Headers(error.init.headers).get("Retry-After")).toBe("30");
    expect(error.data.message).toBe("Demasiados intentos. Probá de nuevo en 1 minuto.");
  });

  it("the root passes Retry-After of the thrown error on to the response", () => {
    const none = new Headers();
    const headers = new Headers(
      (root.headers as (args: HeadersArgs) => HeadersInit)({ errorHeaders: new Headers({ "Retry-After": "150" }), actionHeaders: none, loaderHeaders: none, parentHeaders: none }),
    );
    expect(headers.get("Retry-After")).toBe("150");
  });

  it("the error boundary shows the wait in Spanish with the status, never «Algo salió mal»", async () => {
    const account = fake.addAccount("ana@example.com", "Clave-Segura-1");
    const { cookie } = await signedInCookie(account);
    let error: unknown;
    try {
      await layout.loader(args(get("/home", cookie), makeContext(limitedApi())));
    } catch (e) {
      error = e;
    }
    // What React Router hands the boundary for a thrown data(): an ErrorResponse with its status.
    const { init, data: body } = error as { init: ResponseInit; data: unknown };
    const routeError = new ErrorResponse(init.status!, undefined, body);
    expect(isRouteErrorResponse(routeError)).toBe(true);
    const Boundary = root.ErrorBoundary as unknown as (props: { error: unknown }) => ReturnType<typeof root.default>;
    const html = renderToString(<Boundary error={routeError} />);
    expect(html).toContain("Demasiados intentos. Probá de nuevo en 3 minutos.");
    expect(html).toContain("429");
    expect(html).not.toContain("Algo salió mal");
  });
});
