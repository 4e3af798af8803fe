import { describe, expect, it, vi } from "vitest";
import { dataWithError, readToast } from "~/lib/toast.server";
import { createRequestContext, pendingToast, type AppContext } from "~/lib/context";
import { getToast } from "remix-toast";

const context = (isDataRequest: boolean) => createRequestContext({ isDataRequest } as AppContext);

describe("dataWithToast", () => {
  it("with JavaScript, flashes the toast in remix-toast's cookie for the revalidation", async () => {
    const ctx = context(true);
    const result = await dataWithError(ctx, { ok: false }, "No pudimos guardar.", { status: 422 });
    expect(pendingToast(ctx)).toBeNull();
    expect(result.init?.status).toBe(422);
    const cookie = new Headers(result.init?.headers).get("Set-Cookie")!;
    const { toast } = await getToast(new Request("http://x/", { headers: { Cookie: cookie.split(";")[0] } }));
    expect(toast).toEqual({ type: "error", message: "No pudimos guardar." });
  });

  it("without JavaScript, hands the toast to the root loader of the same response", async () => {
    const ctx = context(false);
    const result = await dataWithError(ctx, { ok: false }, "No pudimos guardar.");
    expect(pendingToast(ctx)).toEqual({ type: "error", message: "No pudimos guardar." });
    expect(new Headers(result.init?.headers).get("Set-Cookie")).toBeNull();
    expect(result.data).toEqual({ ok: false });
  });
});

describe("readToast", () => {
  it("reads and clears a flashed toast; a request without the toast cookie signs nothing", async () => {
    const result = await dataWithError(context(true), {}, "No pudimos guardar.");
    const cookie = new Headers(result.init?.headers).get("Set-Cookie")!.split(";")[0];
    const read = await readToast(new Request("http://x/", { headers: { Cookie: `enchufa_session=abc; ${cookie}` } }));
    expect(read.toast).toEqual({ type: "error", message: "No pudimos guardar." });
    expect(read.headers?.get("Set-Cookie")).toMatch(/^toast-session=/);
    const sign = vi.spyOn(crypto.subtle, "sign");
    expect(await readToast(new Request("http://x/", { headers: { Cookie: "enchufa_session=abc" } }))).toEqual({});
    expect(await readToast(new Request("http://x/"))).toEqual({});
    expect(sign).not.toHaveBeenCalled();
    sign.mockRestore();
  });
});
