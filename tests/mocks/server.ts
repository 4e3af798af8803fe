// The msw server for loader/action/client unit tests (HTTP transport to API_BASE_URL).
//
//   import { server } from "../mocks/server";
//   beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
//   afterEach(() => server.resetHandlers());
//   afterAll(() => server.close());
//
// Override per test with `server.use(http.get(apiUrl("/Business/BusinessUser"), () => ...))`.
// Mercado Pago and Pagos360 answer from `providers` (./providers.ts): `afterEach(() => providers.reset())`.
import { setupServer } from "msw/node";
import { handlers } from "./handlers";

export const server = setupServer(...handlers);
export { API_TEST_BASE_URL, apiUrl, problem, problemResponse } from "./handlers";
export { MERCADOPAGO_TEST_URL, PAGOS360_TEST_URL, PROVIDER_TEST_WEBHOOK_SECRET, providers, providersFake } from "./providers";
