// The loaders' Business API client over the HTTP transport (API_BASE_URL), mocked with msw.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { delay, http, HttpResponse } from "msw";
import { API_TIMEOUT_MS, ApiTimeoutError, createApiClient } from "~/lib/api.server";
import { endpoints, type EndpointDef } from "#contract/endpoints";
import { server, API_TEST_BASE_URL, apiUrl, problem } from "../mocks/server";
import { fixtures } from "../mocks/fixtures";

const transport = { apiFetch: (req: Request) => fetch(req), apiBaseUrl: API_TEST_BASE_URL };

/** A JSON body, or undefined when the answer is not JSON. */
const jsonOf = async (res: Response): Promise<unknown> => ((res.headers.get("content-type") ?? "").includes("json") ? res.json() : undefined);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

describe("createApiClient (HTTP transport)", () => {
  it("sends the bearer token and JSON accept header, and reads the profile", async () => {
    let seen: Request | undefined;
    server.events.on("request:start", ({ request }) => {
      seen = request.clone();
    });
    const api = createApiClient(transport, "id-token-123");
    const res = await api.request(endpoints.profileGet);
    server.events.removeAllListeners();

    expect(res.status).toBe(200);
    expect(seen?.headers.get("authorization")).toBe("Bearer id-token-123");
    expect(seen?.headers.get("accept")).toBe("application/json");
    expect(seen?.url).toBe(`${API_TEST_BASE_URL}/Business/BusinessUser`);
    const body = (await jsonOf(res)) as typeof fixtures.businessUser;
    expect(body).toEqual(fixtures.businessUser);
    // The Business API's published field names.
    expect(Object.keys(body!)).toEqual(expect.arrayContaining(["businessAddress", "businessName", "cuit", "phoneNumber", "photoUrl", "status"]));
  });

  it("sends no Authorization header without a token", async () => {
    let auth: string | null = "unset";
    server.use(
      http.get(apiUrl("/Business/Service"), ({ request }) => {
        auth = request.headers.get("authorization");
        return HttpResponse.json([]);
      }),
    );
    await createApiClient(transport, null).request(endpoints.serviceList);
    expect(auth).toBeNull();
  });

  it("strips a trailing slash from the base URL", async () => {
    let url = "";
    server.use(
      http.get(apiUrl("/Business/Service"), ({ request }) => {
        url = request.url;
        return HttpResponse.json([]);
      }),
    );
    await createApiClient({ ...transport, apiBaseUrl: `${API_TEST_BASE_URL}/` }, "t").request(endpoints.serviceList);
    expect(url).toBe(`${API_TEST_BASE_URL}/Business/Service`);
  });

  it("sends JSON bodies with a JSON content type", async () => {
    let contentType: string | null = null;
    let received: unknown;
    server.use(
      http.patch(apiUrl("/Business/BusinessUser/Update"), async ({ request }) => {
        contentType = request.headers.get("content-type");
        received = await request.json();
        return HttpResponse.json({ ...fixtures.businessUser, ...(received as object) });
      }),
    );
    const patch = { businessName: "Cargas del Sur S.A.", phoneNumber: "+54 11 5555-0000" };
    const res = await createApiClient(transport, "t").request(endpoints.profileUpdate, { body: patch });
    expect(contentType).toBe("application/json");
    expect(received).toEqual(patch);
    expect((await res.json()).businessName).toBe("Cargas del Sur S.A.");
  });

  it("sends FormData as multipart with the browser boundary (profile picture, field Image = image.jpg)", async () => {
    let contentType = "";
    let fileName = "";
    server.use(
      http.patch(apiUrl("/Business/Images/ProfilePicture"), async ({ request }) => {
        contentType = request.headers.get("content-type") ?? "";
        const form = await request.formData();
        const file = form.get("Image");
        fileName = file instanceof File ? file.name : "";
        return HttpResponse.json({ photoUrl: fixtures.businessUser.photoUrl });
      }),
    );
    const form = new FormData();
    form.append("Image", new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: "image/jpeg" }), "image.jpg");
    const res = await createApiClient(transport, "t").request(endpoints.profilePictureUpload, { body: form });
    expect(res.status).toBe(200);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(fileName).toBe("image.jpg");
  });

  it("sends a JSON body on DELETE (remove profile picture by imageUrl)", async () => {
    let received: unknown;
    server.use(
      http.delete(apiUrl("/Business/Images/ProfilePicture"), async ({ request }) => {
        received = await request.json();
        return HttpResponse.json({ photoUrl: null });
      }),
    );
    await createApiClient(transport, "t").request(endpoints.profilePictureDelete, { body: { imageUrl: "/api/images/abc.jpg" } });
    expect(received).toEqual({ imageUrl: "/api/images/abc.jpg" });
  });

  it("rejects with ApiTimeoutError after 10 s and aborts the request", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let aborted = false;
    server.use(
      http.get(apiUrl("/Business/Dashboard"), async ({ request }) => {
        request.signal.addEventListener("abort", () => (aborted = true));
        await delay("infinite");
        return HttpResponse.json({});
      }),
    );
    const pending = createApiClient(transport, "t").request(endpoints.dashboardGet);
    const outcome = pending.then(
      () => "resolved",
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(API_TIMEOUT_MS).toBe(10_000);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).message).toContain("/Business/Dashboard");
    expect(aborted).toBe(true);
  });

  it("does not time out a response that arrives in time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    server.use(
      http.get(apiUrl("/Business/Dashboard"), async () => {
        await delay(9_000);
        return HttpResponse.json({ ok: true });
      }),
    );
    const pending = createApiClient(transport, "t").request(endpoints.dashboardGet);
    await vi.advanceTimersByTimeAsync(9_000);
    const res = await pending;
    expect(res.status).toBe(200);
    await vi.advanceTimersByTimeAsync(5_000); // the timer was cleared: nothing rejects later
  });

  it.each([
    [400, "Solicitud inválida."],
    [401, "Sesión inválida o vencida."],
    [403, "Tu empresa todavía no fue aprobada."],
    [404, "El recurso no existe."],
    [409, "No pudimos usar ese CUIT. Si es el de tu empresa, escribinos."],
    [422, "Revisá los datos ingresados."],
    [500, "Ocurrió un error inesperado."],
    [503, "Servicio no disponible."],
  ])("passes a %i response through unchanged", async (status, title) => {
    const body = problem(status, title, status === 422 ? { errors: { businessName: ["Este campo es obligatorio."] } } : {});
    server.use(
      http.get(apiUrl("/Business/ChargingStation/123"), () =>
        HttpResponse.json(body, { status, headers: { "Content-Type": "application/problem+json", "X-Request-Id": "req-1" } }),
      ),
    );
    const res = await createApiClient(transport, "t").request(endpoints.stationGet, { params: { id: "123" } });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-request-id")).toBe("req-1");
    expect(await jsonOf(res)).toEqual(body);
  });

  it("passes a non-JSON failure through unchanged", async () => {
    server.use(http.get(apiUrl("/Business/Charger"), () => new HttpResponse("Bad Gateway", { status: 502, headers: { "Content-Type": "text/plain" } })));
    const res = await createApiClient(transport, "t").request(endpoints.chargerList);
    expect(res.status).toBe(502);
    expect(await jsonOf(res.clone())).toBeUndefined();
    expect(await res.text()).toBe("Bad Gateway");
  });

  it("default handlers answer the main resources", async () => {
    const api = createApiClient(transport, "t");
    for (const path of [
      "/Account/Business",
      "/Business/ChargingStation",
      "/Business/Charger",
      "/Business/Fees",
      "/Business/Activity",
      "/Business/Dashboard",
      "/Business/Notification",
      "/Business/Notification/UnreadCount",
      "/Business/Service",
      "/Business/ChargerBrand",
      "/Driver/ConnectorType",
      "/MercadoPago/BusinessUser",
      "/Pagos360/BusinessUser",
      "/Business/Payments",
    ]) {
      const endpoint = Object.values(endpoints as Record<string, EndpointDef>).find((e) => e.method === "GET" && e.path === path);
      expect(endpoint, path).toBeDefined();
      const res = await api.request(endpoint!);
      expect(res.status, path).toBe(200);
    }
  });
});
