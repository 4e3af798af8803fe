// The msw server for loader/action/client unit tests (HTTP transport to API_BASE_URL).
//
//   import { server } from "../mocks/server";
//   beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
//   afterEach(() => server.resetHandlers());
//   afterAll(() => server.close());
//
// Override per test with `server.use(http.get(apiUrl("/Business/BusinessUser"), () => ...))`.
import { setupServer } from "msw/node";
import { handlers } from "./handlers";

export const server = setupServer(...handlers);
export { API_TEST_BASE_URL, apiUrl, problem, problemResponse } from "./handlers";
