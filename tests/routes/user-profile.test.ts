// 'Mi perfil' loader and action against a Business API mocked with msw over the HTTP transport,
// and the in-memory Identity Toolkit of auth-helpers for "Cambiar contraseña".
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { http, HttpResponse } from "msw";
import { getToast } from "remix-toast";
import * as user from "~/routes/app/user";
import { resetAllRateLimits } from "~/lib/rate-limit.server";
import { BLANK_PHOTO, IMAGE_MESSAGES, MAX_IMAGE_BYTES } from "~/lib/profile";
import {
  API_BASE,
  APP,
  args,
  cookieJar,
  fake,
  get,
  makeContext,
  post,
  readSession,
  resetFake,
  run,
  server,
  signedInCookie,
  type Loose,
} from "./auth-helpers";
import { pendingToast } from "~/lib/context";

const PASSWORD = "Clave-Segura-1";
const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const STORED = `/api/images/${"b".repeat(64)}.png`;
const UPLOADED = `/api/images/${"c".repeat(64)}.png`;

interface Call {
  method: string;
  path: string;
  body?: unknown;
  image?: { name: string; type: string; size: number; field: string };
}

/** The Business API as far as this screen uses it. */
class ProfileApi {
  business: Record<string, unknown> = {
    businessAddress: "Av. Corrientes 1234, CABA",
    businessName: "Cargas del Sur S.A.",
    cuit: "30712345671",
    phoneNumber: "11 4321-5678",
    photoUrl: STORED,
    status: "ACTIVE",
    email: "ana@example.com",
  };
  calls: Call[] = [];
  fail: Partial<Record<"get" | "update" | "upload" | "delete", Response>> = {};

  handlers() {
    const path = (p: string) => `${API_BASE}${p}`;
    const record = (c: Call) => this.calls.push(c);
    return [
      http.get(path("/Account/Business"), () =>
        HttpResponse.json({ exists: true, status: this.business.status ?? "ACTIVE", businessName: this.business.businessName, role: "OWNER", companies: [] })
      ),
      http.get(path("/Business/BusinessUser"), () => {
        record({ method: "GET", path: "/Business/BusinessUser" });
        return this.fail.get ?? HttpResponse.json(this.business);
      }),
      http.patch(path("/Business/BusinessUser/Update"), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        record({ method: "PATCH", path: "/Business/BusinessUser/Update", body });
        if (this.fail.update) return this.fail.update;
        Object.assign(this.business, body);
        return HttpResponse.json(this.business);
      }),
      http.patch(path("/Business/Images/ProfilePicture"), async ({ request }) => {
        const form = await request.formData();
        const [field, value] = [...form.entries()][0];
        const file = value as File;
        record({
          method: "PATCH",
          path: "/Business/Images/ProfilePicture",
          image: { field, name: file.name, type: file.type, size: file.size },
        });
        if (this.fail.upload) return this.fail.upload;
        this.business.photoUrl = UPLOADED;
        return HttpResponse.json({ photoUrl: UPLOADED });
      }),
      http.delete(path("/Business/Images/ProfilePicture"), async ({ request }) => {
        const body = await request.json();
        record({ method: "DELETE", path: "/Business/Images/ProfilePicture", body });
        if (this.fail.delete) return this.fail.delete;
        this.business.photoUrl = null;
        return HttpResponse.json({ photoUrl: null });
      }),
    ];
  }

  writes() {
    return this.calls.filter((c) => c.method !== "GET");
  }
}

const problem = (status: number, title: string, errors?: Record<string, string[]>) =>
  new Response(JSON.stringify({ type: "about:blank", title, status, ...(errors ? { errors } : {}) }), {
    status,
    headers: { "Content-Type": "application/problem+json" },
  });

let api: ProfileApi;
const context = (overrides: Record<string, unknown> = {}) =>
  makeContext(undefined, { apiFetch: (req: Request) => fetch(req), ...overrides });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());
beforeEach(() => {
  resetFake();
  resetAllRateLimits();
  api = new ProfileApi();
  server.use(...api.handlers());
  vi.spyOn(console, "error").mockImplementation(() => {});
});

async function signedIn() {
  const account = fake.addAccount("ana@example.com", PASSWORD);
  return { account, ...(await signedInCookie(account)) };
}

const VALID = { businessName: "Cargas del Norte S.A.", businessAddress: "Av. Santa Fe 4321, CABA", phoneNumber: "11 5555-0000" };

function multipart(fields: Record<string, string | File>, cookie: string): Request {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return new Request(`${APP}/user`, { method: "POST", headers: { Cookie: cookie }, body });
}

const pngFile = (name = "logo.png") => new File([new Uint8Array(PNG_1x1)], name, { type: "image/png" });
const dataUrl = (bytes: Uint8Array, mime = "image/png") => `data:${mime};base64,${Buffer.from(bytes).toString("base64")}`;

async function toastOf(headers: Headers) {
  const cookie = cookieJar(headers);
  return (await getToast(new Request(APP, { headers: { Cookie: cookie } }))).toast;
}

describe("user loader", () => {
  it("no session → login, coming back to /user", async () => {
    const res = await run(() => user.loader(args(get("/user"), context())));
    expect(res.location).toBe("/auth/login?redirectTo=%2Fuser");
  });

  it("maps GET /Business/BusinessUser to the profile, with the account e-mail and the stored photo", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => user.loader(args(get("/user", cookie), context())));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      loaded: true,
      profile: {
        address: "Av. Corrientes 1234, CABA",
        cuit: "30712345671",
        name: "Cargas del Sur S.A.",
        phone: "11 4321-5678",
        photo: STORED,
        status: "ACTIVE",
      },
      email: "ana@example.com",
      storedPhoto: STORED,
      cuitEditable: false,
    });
  });

  it("every default: empty strings, the identity's name and photo, then the blank photo", async () => {
    const { cookie } = await signedIn();
    api.business = { businessName: "", cuit: null, businessAddress: null, phoneNumber: null, photoUrl: null, status: null };
    const res = await run<Loose>(() => user.loader(args(get("/user", cookie), context())));
    expect(res.data.profile).toEqual({ address: "", cuit: "", name: "", phone: "", photo: BLANK_PHOTO, status: "" });
    expect(res.data.storedPhoto).toBeNull();
    expect(res.data.email).toBe("ana@example.com");
  });

  it("a failed GET is logged in Spanish and shown, never a 500", async () => {
    const { cookie } = await signedIn();
    api.fail.get = problem(500, "Error interno.");
    const res = await run<Loose>(() => user.loader(args(get("/user", cookie), context())));
    expect(res.status).toBe(200);
    expect(res.data.loaded).toBe(false);
    expect(res.data.logged).toMatch(/no se pudo obtener el perfil de la empresa \(500: Error interno\.\)/);
    expect(console.error).toHaveBeenCalledWith(expect.stringMatching(/^Mi perfil: no se pudo obtener/), "");
  });
});

describe("user action: the profile", () => {
  it("saves the fields with PATCH /Business/BusinessUser/Update and comes back with a toast", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => user.action(args(post("/user", { intent: "profile", ...VALID }, cookie), context())));
    expect(res.status).toBe(302);
    expect(res.location).toBe("/user");
    expect(await toastOf(res.headers)).toEqual({ type: "success", message: "Guardamos los cambios de tu perfil." });
    expect(api.writes()).toEqual([{ method: "PATCH", path: "/Business/BusinessUser/Update", body: VALID }]);
  });

  it("no upload when the photo is empty or the blank placeholder (or not a new image)", async () => {
    const { cookie } = await signedIn();
    for (const photo of ["", BLANK_PHOTO, STORED]) {
      api.calls = [];
      const res = await run(() => user.action(args(multipart({ intent: "profile", ...VALID, photo }, cookie), context())));
      expect(res.location, photo).toBe("/user");
      expect(api.writes().map((c) => c.path)).toEqual(["/Business/BusinessUser/Update"]);
    }
    // A file input left empty (no JavaScript, nothing chosen).
    api.calls = [];
    await run(() => user.action(args(multipart({ intent: "profile", ...VALID, photo: new File([], "") }, cookie), context())));
    expect(api.writes().map((c) => c.path)).toEqual(["/Business/BusinessUser/Update"]);
  });

  it("a data-URL (JavaScript) is uploaded first as Image 'image.jpg', then the profile with its photoUrl", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => user.action(args(multipart({ intent: "profile", ...VALID, photo: dataUrl(PNG_1x1) }, cookie), context())));
    expect(res.location).toBe("/user");
    expect(api.writes()).toEqual([
      {
        method: "PATCH",
        path: "/Business/Images/ProfilePicture",
        image: { field: "Image", name: "image.jpg", type: "image/png", size: PNG_1x1.length },
      },
      { method: "PATCH", path: "/Business/BusinessUser/Update", body: { ...VALID, photoUrl: UPLOADED } },
    ]);
  });

  it("a file (no JavaScript) is uploaded the same way", async () => {
    const { cookie } = await signedIn();
    const res = await run(() =>
      user.action(args(multipart({ intent: "profile", ...VALID, photo: pngFile("Logo.PNG") }, cookie), context()))
    );
    expect(res.location).toBe("/user");
    expect(api.writes()[0]).toMatchObject({ path: "/Business/Images/ProfilePicture", image: { field: "Image", name: "image.jpg" } });
  });

  it.each([
    ["a .webp", () => new File([new Uint8Array(PNG_1x1)], "foto.webp"), IMAGE_MESSAGES.format],
    ["a file one byte over 800 KB", () => new File([new Uint8Array(MAX_IMAGE_BYTES + 1).fill(0xff)], "grande.jpg"), IMAGE_MESSAGES.size],
    ["a text file renamed .png", () => new File(["no soy una imagen"], "falsa.png", { type: "image/png" }), IMAGE_MESSAGES.format],
  ])("%s: the Spanish toast, nothing saved, nothing typed lost", async (_label, make, message) => {
    const { cookie } = await signedIn();
    const ctx = context();
    const res = await run<Loose>(() => user.action(args(multipart({ intent: "profile", ...VALID, photo: make() }, cookie), ctx)));
    expect(res.status).toBe(400);
    expect(pendingToast(ctx)).toEqual({ type: "error", message });
    expect(res.data.photoError).toBe(message);
    expect(res.data.result.initialValue).toMatchObject(VALID);
    expect(res.data.result.initialValue.photo).toBeUndefined();
    expect(api.writes()).toEqual([]);
  });

  it("with JavaScript the toast travels in remix-toast's cookie", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() =>
      user.action(
        args(multipart({ intent: "profile", ...VALID, photo: dataUrl(PNG_1x1, "image/webp") }, cookie), context({ isDataRequest: true }))
      )
    );
    // 200 so React Router revalidates the root loader (it skips that after a 4xx); the status is in the payload.
    expect(res.status).toBe(200);
    expect(res.data.status).toBe(400);
    expect(await toastOf(res.headers)).toEqual({ type: "error", message: "Formato de archivo no soportado." });
  });

  it("invalid fields: errors on the fields, no API call", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() =>
      user.action(
        args(
          post("/user", { intent: "profile", businessName: "", businessAddress: "Av. Santa Fe 4321", phoneNumber: "x" }, cookie),
          context()
        )
      )
    );
    expect(res.status).toBe(400);
    expect(res.data.result.error).toMatchObject({
      businessName: ["Ingresá el nombre de la empresa."],
      phoneNumber: ["Ingresá un teléfono válido, con código de área (por ejemplo 11 4321-5678)."],
    });
    expect(api.writes()).toEqual([]);
  });

  it("an approved company's CUIT is never sent, even if a client posts one", async () => {
    const { cookie } = await signedIn();
    await run(() => user.action(args(post("/user", { intent: "profile", ...VALID, cuit: "20-12345678-6" }, cookie), context())));
    expect(api.writes()).toEqual([{ method: "PATCH", path: "/Business/BusinessUser/Update", body: VALID }]);
  });

  it("a failed update is passed through: its status, its field errors, its title as the toast; logged in Spanish", async () => {
    const { cookie } = await signedIn();
    api.fail.update = problem(422, "Revisá los datos.", { phoneNumber: ["Ingresá un teléfono válido (por ejemplo +54 11 5555-0000)."] });
    const ctx = context();
    const res = await run<Loose>(() => user.action(args(post("/user", { intent: "profile", ...VALID }, cookie), ctx)));
    expect(res.status).toBe(422);
    expect(res.data.result.error).toEqual({ phoneNumber: ["Ingresá un teléfono válido (por ejemplo +54 11 5555-0000)."] });
    expect(res.data.result.initialValue).toMatchObject(VALID);
    expect(pendingToast(ctx)).toEqual({ type: "error", message: "Revisá los datos." });
    expect(console.error).toHaveBeenCalledWith(
      expect.stringMatching(/^Mi perfil: no se pudo actualizar el perfil de la empresa \(422/),
      ""
    );
  });

  it("a failed upload is passed through and the profile is not updated", async () => {
    const { cookie } = await signedIn();
    api.fail.upload = problem(413, IMAGE_MESSAGES.size, { Image: [IMAGE_MESSAGES.size] });
    const ctx = context();
    const res = await run<Loose>(() => user.action(args(multipart({ intent: "profile", ...VALID, photo: pngFile() }, cookie), ctx)));
    expect(res.status).toBe(413);
    expect(pendingToast(ctx)).toEqual({ type: "error", message: IMAGE_MESSAGES.size });
    expect(api.writes().map((c) => c.path)).toEqual(["/Business/Images/ProfilePicture"]);
    expect(console.error).toHaveBeenCalledWith(expect.stringMatching(/^Mi perfil: no se pudo subir la foto de perfil \(413/), "");
  });

  it("the API unreachable: a Spanish toast, 503, values kept", async () => {
    const { cookie } = await signedIn();
    server.use(http.patch(`${API_BASE}/Business/BusinessUser/Update`, () => HttpResponse.error()));
    const ctx = context();
    const res = await run<Loose>(() => user.action(args(post("/user", { intent: "profile", ...VALID }, cookie), ctx)));
    expect(res.status).toBe(503);
    expect(pendingToast(ctx)?.message).toBe("No pudimos comunicarnos con el servidor. Probá de nuevo en unos minutos.");
    expect(res.data.result.initialValue).toMatchObject(VALID);
  });
});

describe("user action: remove the photo", () => {
  it("DELETE /Business/Images/ProfilePicture with imageUrl, then back with a toast", async () => {
    const { cookie } = await signedIn();
    const res = await run(() => user.action(args(post("/user", { intent: "remove-photo", imageUrl: STORED }, cookie), context())));
    expect(res.location).toBe("/user");
    expect(await toastOf(res.headers)).toEqual({ type: "success", message: "Quitamos la foto de perfil." });
    expect(api.writes()).toEqual([{ method: "DELETE", path: "/Business/Images/ProfilePicture", body: { imageUrl: STORED } }]);
  });

  it("a failure is passed through with its title", async () => {
    const { cookie } = await signedIn();
    api.fail.delete = problem(404, "La imagen no existe.");
    const ctx = context();
    const res = await run(() => user.action(args(post("/user", { intent: "remove-photo", imageUrl: STORED }, cookie), ctx)));
    expect(res.status).toBe(404);
    expect(pendingToast(ctx)).toEqual({ type: "error", message: "La imagen no existe." });
  });
});

describe("user action: change the password", () => {
  const CHANGE = { intent: "password", currentPassword: PASSWORD, newPassword: "Nueva-Clave-2", confirmPassword: "Nueva-Clave-2" };

  it("checks the current password, updates it, and keeps the session with fresh tokens (no JavaScript: a redirect)", async () => {
    const { cookie, user: before } = await signedIn();
    const res = await run<Loose>(() => user.action(args(post("/user", CHANGE, cookie), context())));
    // A redirect: the layout loader of this response would still hold the revoked token.
    expect(res.status).toBe(302);
    expect(res.location).toBe("/user");
    expect(await toastOf(res.headers)).toEqual({ type: "success", message: "Listo, tu contraseña se actualizó." });
    expect(fake.accounts.get("ana@example.com")!.password).toBe("Nueva-Clave-2");
    // The current password is checked by a sign-in; after the change, a sign-in with the new one
    // gives tokens dated after it (the change's own carry the last sign-in's auth_time, which the
    // revocation check refuses when it fell in an earlier second).
    expect(fake.called("accounts:signInWithPassword").map((c) => c.body)).toMatchObject([
      { email: "ana@example.com", password: PASSWORD },
      { email: "ana@example.com", password: "Nueva-Clave-2" },
    ]);
    const after = (await readSession(cookieJar(res.headers, cookie))).user!;
    expect(after.uid).toBe(before.uid);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(fake.refreshTokens.has(after.refreshToken)).toBe(true);
  });

  it("with JavaScript: data that resets the form, the toast and the new session cookie", async () => {
    const { cookie, user: before } = await signedIn();
    const res = await run<Loose>(() => user.action(args(post("/user", CHANGE, cookie), context({ isDataRequest: true }))));
    expect(res.status).toBe(200);
    expect(await toastOf(res.headers)).toEqual({ type: "success", message: "Listo, tu contraseña se actualizó." });
    expect((await readSession(cookieJar(res.headers, cookie))).user!.refreshToken).not.toBe(before.refreshToken);
    // The form starts over: nothing of the passwords comes back.
    expect(res.data.result.initialValue).toBeNull();
    expect(JSON.stringify(res.data)).not.toContain("Nueva-Clave-2");
  });

  it("a wrong current password: on its field, nothing changed", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => user.action(args(post("/user", { ...CHANGE, currentPassword: "Otra-Clave-9" }, cookie), context())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ currentPassword: ["La contraseña actual no es correcta."] });
    expect(fake.called("accounts:update")).toHaveLength(0);
    expect(fake.accounts.get("ana@example.com")!.password).toBe(PASSWORD);
    expect(JSON.stringify(res.data)).not.toContain("Otra-Clave-9");
  });

  it("validation first: no identity call for a mismatch", async () => {
    const { cookie } = await signedIn();
    const res = await run<Loose>(() => user.action(args(post("/user", { ...CHANGE, confirmPassword: "Distinta-1" }, cookie), context())));
    expect(res.status).toBe(400);
    expect(res.data.result.error).toEqual({ confirmPassword: ["Las contraseñas no coinciden."] });
    expect(fake.calls).toHaveLength(0);
  });

  it("wrong current passwords count against the account's login limit", async () => {
    const { cookie } = await signedIn();
    for (let i = 0; i < 8; i++)
      await run(() => user.action(args(post("/user", { ...CHANGE, currentPassword: `Mala-${i}-clave` }, cookie), context())));
    const res = await run<Loose>(() => user.action(args(post("/user", CHANGE, cookie), context())));
    expect(res.status).toBe(429);
    expect(res.data.result.error[""][0]).toMatch(/^Demasiados intentos/);
  });

  it("the identity service down: a Spanish toast and message, logged", async () => {
    const { cookie } = await signedIn();
    fake.down = true;
    const ctx = context();
    const res = await run<Loose>(() => user.action(args(post("/user", CHANGE, cookie), ctx)));
    expect(res.status).toBe(503);
    expect(pendingToast(ctx)?.message).toBe("No pudimos comunicarnos con el servicio de identidad. Probá de nuevo en unos minutos.");
    expect(console.error).toHaveBeenCalledWith("Mi perfil: no se pudo cambiar la contraseña (NETWORK)", "");
  });
});
