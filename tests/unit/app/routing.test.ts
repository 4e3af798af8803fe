import { describe, expect, it } from "vitest";
import { authEntryTarget, loader as authIndexLoader } from "~/routes/auth/index";
import { loader as rootIndexLoader } from "~/routes/index";
import { loader as catchAllLoader } from "~/routes/catch-all";
import { pageMeta } from "~/lib/meta";
import { args as routeArgs, makeContext } from "../../routes/auth-helpers";

const args = (url: string) => routeArgs(new Request(url), makeContext());

describe("routing", () => {
  it("'/' redirects to /home", async () => {
    const res = (await rootIndexLoader()) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/home");
  });

  it("unknown paths redirect to /404", async () => {
    const res = (await catchAllLoader()) as Response;
    expect(res.headers.get("Location")).toBe("/404");
  });

  it.each([
    ["http://x/auth", "/auth/login"],
    ["http://x/auth?mode=other&oobCode=1", "/auth/login"],
    ["http://x/auth?mode=resetPassword&oobCode=abc&lang=es", "/auth/confirm-password?mode=resetPassword&oobCode=abc&lang=es"],
    ["http://x/auth?mode=verifyEmail&oobCode=abc", "/auth/verify-email?mode=verifyEmail&oobCode=abc"],
  ])("%s → %s", async (url, target) => {
    expect(authEntryTarget(new URL(url))).toBe(target);
    const res = (await authIndexLoader(args(url))) as Response;
    expect(res.headers.get("Location")).toBe(target);
  });
});

describe("page titles", () => {
  const matchesWith = (appName?: string) =>
    [{ id: "root", loaderData: appName ? { appName } : undefined }] as unknown as Parameters<ReturnType<typeof pageMeta>>[0]["matches"];

  it("reads '{pageTitle} - {product}'", () => {
    const meta = pageMeta("Mis estaciones")({ matches: matchesWith("Enchufá") } as never);
    expect(meta).toEqual([{ title: "Mis estaciones - Enchufá" }]);
  });

  it("uses APP_NAME through the root loader", () => {
    const meta = pageMeta("Inicio")({ matches: matchesWith("Cargá") } as never);
    expect(meta).toEqual([{ title: "Inicio - Cargá" }]);
  });
});
