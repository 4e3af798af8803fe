import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { dataWithError } from "~/lib/toast.server";
import { getToast } from "remix-toast";

const context = (isDataRequest: boolean) => ({ isDataRequest }) as AppLoadContext;

describe("dataWithToast", () => {
  it("with JavaScript, flashes the toast in remix-toast's cookie for the revalidation", async () => {
    const ctx = context(true);
    const result = await dataWithError(ctx, { ok: false }, "No pudimos guardar.", { status: 422 });
    expect(ctx.pendingToast).toBeUndefined();
    expect(result.init?.status).toBe(422);
    const cookie = new Headers(result.init?.headers).get("Set-Cookie")!;
    const { toast } = await getToast(new Request("http://x/", { headers: { Cookie: cookie.split(";")[0] } }));
    expect(toast).toEqual({ type: "error", message: "No pudimos guardar." });
  });

  it("without JavaScript, hands the toast to the root loader of the same response", async () => {
    const ctx = context(false);
    const result = await dataWithError(ctx, { ok: false }, "No pudimos guardar.");
    expect(ctx.pendingToast).toEqual({ type: "error", message: "No pudimos guardar." });
    expect(new Headers(result.init?.headers).get("Set-Cookie")).toBeNull();
    expect(result.data).toEqual({ ok: false });
  });
});
