// RFID tags: create a tag, then import a CSV — first a file with bad rows (nothing is
// imported, each row's errors are listed), then a good one — in both projects (JavaScript on and
// off). Each run uses its own idTags and deletes the tag it created.
import type { TestInfo } from "@playwright/test";
import { DEMO, expect, login, test } from "./fixtures";

const suffix = (info: TestInfo) => `${info.project.name === "no-js" ? "N" : "J"}${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 4)}`.toUpperCase();
const csvFile = (lines: string[]) => ({ name: "tarjetas.csv", mimeType: "text/csv", buffer: Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n`, "utf8") });
const HEADER = "idTag;titular;email;vencimiento;bloqueada;grupo";

test("create a tag, see it listed, delete it", async ({ page }, info) => {
  const idTag = `E2E${suffix(info)}`;
  await login(page, DEMO.email, DEMO.password, "/tag/new");
  await expect(page).toHaveTitle("Nueva tarjeta - Enchufá");
  await page.getByLabel("Código de la tarjeta (idTag)").fill("CON ESPACIO");
  await page.getByLabel("Titular", { exact: true }).fill("Ana Pérez");
  await page.getByRole("button", { name: "Crear tarjeta" }).click();
  await expect(page.getByText("Usá hasta 20 letras, números o signos, sin espacios ni acentos.")).toBeVisible();

  await page.getByLabel("Código de la tarjeta (idTag)").fill(idTag);
  await page.getByLabel("Titular", { exact: true }).fill("Ana Pérez");
  await page.getByLabel("Vence el").fill("2030-12-31");
  await page.getByRole("button", { name: "Crear tarjeta" }).click();
  await expect(page).toHaveURL(/\/tag$/);
  await expect(page.getByTestId("toast").filter({ hasText: `Creamos la tarjeta «${idTag}».` })).toBeVisible();

  await page.goto(`/tag?q=${idTag}`);
  const row = page.getByTestId("tag-row").filter({ hasText: idTag });
  await expect(row).toContainText("Ana Pérez");
  await expect(row).toContainText("31/12/2030");
  await row.getByRole("link", { name: `Eliminar ${idTag}` }).click();
  await expect(page.getByTestId("delete-confirm")).toContainText(`¿Eliminar la tarjeta «${idTag}»?`);
  await page.getByRole("button", { name: "Sí, eliminar" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: `Eliminamos la tarjeta «${idTag}».` })).toBeVisible();
});

test("import a CSV: bad rows import nothing and are listed; a good file imports every row", async ({ page }, info) => {
  const s = suffix(info);
  await login(page, DEMO.email, DEMO.password, "/tag/import");
  await expect(page).toHaveTitle("Importar tarjetas - Enchufá");

  await page.getByLabel("Planilla CSV").setInputFiles(csvFile([HEADER, `IMP${s}A;Bruno Díaz;;31/12/2030;no;`, `IMP${s}B;;no-es-correo;31/02/2030;quizás;`]));
  await page.getByRole("button", { name: "Importar" }).click();
  const report = page.getByTestId("import-report");
  await expect(report).toContainText("No importamos nada: 1 fila tiene errores.");
  await expect(report.getByTestId("import-row-error")).toHaveText([
    "Fila 3: titular: Este campo es obligatorio. email: Ingresá un correo electrónico válido. vencimiento: Ingresá la fecha como dd/mm/aaaa. bloqueada: Escribí «sí» o «no».",
  ]);
  await page.goto(`/tag?q=IMP${s}`);
  await expect(page.getByText("No encontramos tarjetas con ese código o titular")).toBeVisible();

  await page.goto("/tag/import");
  await page.getByLabel("Planilla CSV").setInputFiles(csvFile([HEADER, `IMP${s}A;Bruno Díaz;;31/12/2030;no;`, `IMP${s}B;Carla Gómez;carla@example.com;;sí;`]));
  await page.getByRole("button", { name: "Importar" }).click();
  await expect(page).toHaveURL(/\/tag$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Importamos 2 tarjetas: 2 nuevas." })).toBeVisible();
  await page.goto(`/tag?q=IMP${s}`);
  await expect(page.getByTestId("tag-row")).toHaveCount(2);
  await expect(page.getByTestId("tag-row").filter({ hasText: `IMP${s}B` })).toContainText("Bloqueada");
});
