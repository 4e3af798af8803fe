// 'Mi perfil' against the real app, API and Auth Emulator, with JavaScript on and off (every
// test runs in both projects). Each test registers its own account and company, so the shared
// demo operator is never touched.
//
// The three upload errors:
// - js: the uploader refuses a .webp and a file over 800 KB on pick (no request), and a
//   FileReader failure (simulated) is 'Ocurrió un error al cargar la imagen.'; a text file
//   renamed .png passes the browser's checks and is refused by the server by content.
// - no-js: the same files are posted in the multipart form and the server answers with the
//   same toasts; "cannot be read" has no browser step there, its server equivalent (a corrupt
//   / renamed file) answers 'Formato de archivo no soportado.'.
import type { Page } from "@playwright/test";
import { createAccount, expect, test, uniqueCuit, uniqueEmail } from "./fixtures";

const PASSWORD = "Clave-Segura-1";
const PNG_1x1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const MSG = {
  format: "Formato de archivo no soportado.",
  size: "La imagen excede el tamaño máximo permitido de 800KB.",
  unreadable: "Ocurrió un error al cargar la imagen.",
};
const UPLOADED_RE = /^\/api\/images\/[0-9a-f]{64}\.png$/;

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth/login");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Ingresar" }).click();
}

/** A new verified account with an approved company (local mode approves at once), on /user. */
async function newOperator(page: Page, name = "Perfil E2E S.R.L.") {
  const email = uniqueEmail("perfil");
  const cuit = uniqueCuit();
  await createAccount(email, PASSWORD);
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/auth\/login-company$/);
  await page.getByLabel("Razón social").fill(name);
  await page.getByLabel("CUIT").fill(cuit);
  await page.getByLabel("Domicilio").fill("Av. Corrientes 1234, CABA");
  await page.getByLabel("Teléfono").fill("11 4321-5678");
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/user");
  return { email, cuit, name };
}

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text });
/**
 * Focus the button before clicking: leaving a field validates it (on blur), and a field error
 * that disappears moves the button up between mousedown and mouseup, which loses the click.
 */
async function save(page: Page) {
  const button = page.getByRole("button", { name: "Guardar cambios" });
  await button.focus();
  await button.click();
}
const fileInput = (page: Page) => page.getByTestId("photo-input");

async function imageLoaded(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
}

test("shows the profile, the read-only CUIT and e-mail, and saves changes", async ({ page }) => {
  const { email, cuit, name } = await newOperator(page);
  await expect(page).toHaveTitle("Mi perfil - Enchufá");
  await expect(page.getByRole("heading", { name: "Mi perfil", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Nombre")).toHaveValue(name);
  await expect(page.getByTestId("profile-cuit")).toHaveValue(cuit);
  await expect(page.getByTestId("profile-cuit")).toHaveAttribute("readonly", "");
  await expect(page.getByTestId("account-email")).toHaveValue(email);
  await expect(page.getByTestId("account-email")).toHaveAttribute("readonly", "");
  await expect(page.getByTestId("profile-status")).toHaveText("Activa");
  await expect(page.getByText("JPG, JPEG, GIF o PNG permitidos. Tamaño máximo de 800KB.")).toBeVisible();
  await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", "/images/blank.png");
  expect(await imageLoaded(page, "photo-preview")).toBe(true);
  await expect(fileInput(page)).toHaveAttribute("accept", ".jpeg,.png,.jpg,.gif");

  // A field error first: on the field, nothing saved.
  await page.getByLabel("Teléfono").fill("abc");
  await save(page);
  await expect(page.getByTestId("phoneNumber-error")).toHaveText(
    "Ingresá un teléfono válido, con código de área (por ejemplo 11 4321-5678)."
  );
  await expect(page.getByLabel("Teléfono")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Nombre").fill("Perfil Editado S.A.");
  await page.getByLabel("Domicilio").fill("Av. Santa Fe 4321, Rosario, Santa Fe");
  await page.getByLabel("Teléfono").fill("341 555-0000");
  await save(page);
  await expect(toast(page, "Guardamos los cambios de tu perfil.")).toHaveCount(1);
  await expect(page.getByTestId("header-business-name")).toHaveText("Perfil Editado S.A.");

  await page.reload();
  await expect(page.getByLabel("Nombre")).toHaveValue("Perfil Editado S.A.");
  await expect(page.getByLabel("Domicilio")).toHaveValue("Av. Santa Fe 4321, Rosario, Santa Fe");
  await expect(page.getByLabel("Teléfono")).toHaveValue("341 555-0000");
  await expect(page.getByTestId("profile-cuit")).toHaveValue(cuit);
});

test("uploads a photo, sees it in the header, and removes it back to the blank placeholder", async ({ page, javaScriptEnabled }) => {
  await newOperator(page);
  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", "/images/blank.png");
  await expect(page.getByRole("button", { name: "Quitar foto" })).toHaveCount(0);

  await fileInput(page).setInputFiles({ name: "Logo.PNG", mimeType: "image/png", buffer: PNG_1x1 });
  if (javaScriptEnabled) {
    // Previewed before saving, as a data-URL.
    await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", /^data:image\/png;base64,/);
  }
  await save(page);
  await expect(toast(page, "Guardamos los cambios de tu perfil.")).toHaveCount(1);

  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", UPLOADED_RE);
  await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", UPLOADED_RE);
  await expect.poll(() => imageLoaded(page, "header-photo")).toBe(true);
  // It stays on every screen (the layout reads the profile on each navigation).
  await page.getByRole("link", { name: "Inicio" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", UPLOADED_RE);
  await page.goto("/user");

  await page.getByRole("button", { name: "Quitar foto" }).click();
  await expect(toast(page, "Quitamos la foto de perfil.")).toHaveCount(1);
  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", "/images/blank.png");
  await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", "/images/blank.png");
  await expect(page.getByRole("button", { name: "Quitar foto" })).toHaveCount(0);
});

test("an image of exactly 800 KB (819,200 bytes, the spec's limit) saves, as the file itself", async ({ page, javaScriptEnabled }) => {
  await newOperator(page);
  // A real PNG with padding after its end: 800 * 1024 bytes in all.
  const exact = Buffer.concat([PNG_1x1, Buffer.alloc(800 * 1024 - PNG_1x1.length, 0)]);
  expect(exact.length).toBe(819_200);
  await fileInput(page).setInputFiles({ name: "exacta.png", mimeType: "image/png", buffer: exact });
  if (javaScriptEnabled) await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", /^data:image\/png;base64,/);
  // The form posts the file (~800 KB), not its data-URL (~1.07 MB, over the server's 1 MB body cap,
  // which with JavaScript turned the page into "500 Algo salió mal").
  await save(page);
  await expect(toast(page, "Guardamos los cambios de tu perfil.")).toHaveCount(1);
  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", UPLOADED_RE);
  await expect(page.getByRole("heading", { name: "Mi perfil", level: 1 })).toBeVisible();
});

test("refuses a file that is not JPG, JPEG, GIF or PNG", async ({ page, javaScriptEnabled }) => {
  await newOperator(page);
  await page.getByLabel("Nombre").fill("Nombre Que No Se Pierde");
  await fileInput(page).setInputFiles({ name: "foto.webp", mimeType: "image/webp", buffer: PNG_1x1 });
  if (!javaScriptEnabled) await save(page);
  await expect(toast(page, MSG.format)).toHaveCount(1);
  await expect(page.getByTestId("photo-error")).toHaveText(MSG.format);
  await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", "/images/blank.png");
  await expect(page.getByLabel("Nombre")).toHaveValue("Nombre Que No Se Pierde");
  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", "/images/blank.png");
});

test("refuses an image over 800 KB (exactly 800 KB + 1 byte)", async ({ page, javaScriptEnabled }) => {
  await newOperator(page);
  await page.getByLabel("Domicilio").fill("Domicilio Que No Se Pierde 123");
  const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(800 * 1024 + 1 - 4, 7)]);
  await fileInput(page).setInputFiles({ name: "grande.jpg", mimeType: "image/jpeg", buffer: big });
  if (!javaScriptEnabled) await save(page);
  await expect(toast(page, MSG.size)).toHaveCount(1);
  await expect(page.getByTestId("photo-error")).toHaveText(MSG.size);
  await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", "/images/blank.png");
  await expect(page.getByLabel("Domicilio")).toHaveValue("Domicilio Que No Se Pierde 123");
});

test("an image that cannot be read (js: FileReader fails) and a renamed non-image (refused by content)", async ({
  page,
  javaScriptEnabled,
}) => {
  await newOperator(page);
  if (javaScriptEnabled) {
    await page.evaluate(() => {
      FileReader.prototype.readAsDataURL = function (this: FileReader) {
        setTimeout(() => this.dispatchEvent(new ProgressEvent("error")), 0);
      };
    });
    await fileInput(page).setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: PNG_1x1 });
    await expect(toast(page, MSG.unreadable)).toHaveCount(1);
    await expect(page.getByTestId("photo-error")).toHaveText(MSG.unreadable);
    await expect(page.getByTestId("photo-preview")).toHaveAttribute("src", "/images/blank.png");
    await page.reload();
  }
  // A text file renamed .png: extension and size pass; its first bytes do not. With JavaScript the
  // browser reads them at once (as the server does) and nothing is posted; without, the server.
  await fileInput(page).setInputFiles({ name: "falsa.png", mimeType: "image/png", buffer: Buffer.from("esto no es una imagen") });
  if (!javaScriptEnabled) await save(page);
  await expect(toast(page, MSG.format)).toHaveCount(1);
  if (javaScriptEnabled) await expect(fileInput(page)).toHaveJSProperty("value", "");
  await expect(page.getByTestId("photo-error")).toHaveText(MSG.format);
  await expect(page.getByTestId("header-photo")).toHaveAttribute("src", "/images/blank.png");
});

test("changes the password: wrong current one refused, then the new one works and the session stays", async ({ page }) => {
  const { email } = await newOperator(page);
  await page.getByLabel("Contraseña actual").fill("Otra-Clave-99");
  await page.getByLabel("Nueva contraseña").fill("Nueva-Clave-22");
  await page.getByLabel("Repetir contraseña").fill("Nueva-Clave-22");
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expect(page.getByTestId("currentPassword-error")).toHaveText("La contraseña actual no es correcta.");

  await page.getByLabel("Contraseña actual").fill(PASSWORD);
  await page.getByLabel("Nueva contraseña").fill("Nueva-Clave-22");
  await page.getByLabel("Repetir contraseña").fill("Nueva-Clave-22");
  await page.getByRole("button", { name: "Cambiar contraseña" }).click();
  await expect(toast(page, "Listo, tu contraseña se actualizó.")).toHaveCount(1);
  await expect(page.getByLabel("Contraseña actual")).toHaveValue("");

  // Still signed in (Firebase revoked the old tokens; the session has the new ones).
  await page.getByRole("link", { name: "Inicio" }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.getByRole("button", { name: "Salir" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
  await signIn(page, email, "Nueva-Clave-22");
  await expect(page).toHaveURL(/\/home$/);
});
