import { test, expect, login } from "./fixtures";

// Actividad: filters, sort and pages in the URL, the session detail, and the CSV export.

test.beforeEach(async ({ page }) => {
  await login(page, undefined, undefined, "/activity");
  await expect(page).toHaveURL(/\/activity$/);
  await expect(page.getByRole("heading", { name: "Actividad", level: 1 })).toBeVisible();
});

test("filter by status and period, sort by energy, open a session", async ({ page }) => {
  await page.getByLabel("Estado").selectOption({ label: "Completada" });
  await page.getByLabel("Desde").fill("2020-01-01");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/status=COMPLETED/);
  await expect(page).toHaveURL(/from=2020-01-01/);
  const rows = page.getByTestId("session-row");
  // With JavaScript the URL changes before the new list is rendered: every wait below is on the
  // list itself (its rows, the column's aria-sort, the range shown), not only on the URL.
  await expect(rows).toHaveCount(20);
  await expect(rows.filter({ hasNotText: "Completada" })).toHaveCount(0);

  const energy = page.getByRole("columnheader", { name: /^Energía/ });
  await page.getByRole("link", { name: /^Energía/ }).click();
  await expect(page).toHaveURL(/sort=energyWh/);
  await expect(energy).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("link", { name: /^Energía/ }).click();
  await expect(page).toHaveURL(/sort=-energyWh/);
  await expect(energy).toHaveAttribute("aria-sort", "descending");
  const energies = await page.getByTestId("session-energy").allInnerTexts();
  const values = energies.map((e) => Number(e.replace(/[^\d,]/g, "").replace(",", ".")));
  expect(values).toEqual([...values].sort((a, b) => b - a));

  await page.getByRole("link", { name: "Siguiente" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/status=COMPLETED/);
  await expect(page.getByText(/^Mostrando 21–40 de/)).toBeVisible();

  await rows.first().getByRole("link").click();
  await expect(page).toHaveURL(/session=[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { name: /^Carga #\d+/ })).toBeVisible();
  await expect(page.getByTestId("cost-breakdown")).toContainText("Penalidad por inactividad");
  await expect(page.getByTestId("cost-total")).toHaveText(/\$\s?[\d.]+,\d{2}/);
  await expect(page.getByTestId("session-curve").getByRole("img", { name: /Curva de potencia y energía/ })).toBeVisible();
  await page.getByRole("link", { name: "Volver a la actividad" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).not.toHaveURL(/session=/);
});

test("newest first pages by cursor: Siguiente and Anterior keep the filters in the URL", async ({ page }) => {
  await page.getByLabel("Estado").selectOption({ label: "Completada" });
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/status=COMPLETED/);
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(20);
  // The filtered list itself, not only its URL (with JavaScript the URL changes first).
  await expect(rows.filter({ hasNotText: "Completada" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Anterior" })).toHaveCount(0);
  const firstPage = await rows.allInnerTexts();

  await page.getByRole("link", { name: "Siguiente" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page).toHaveURL(/status=COMPLETED/);
  await expect(page).not.toHaveURL(/page=/);
  await expect(page.getByRole("link", { name: "Anterior" })).toBeVisible();
  await expect(rows).toHaveCount(20);
  await expect.poll(() => rows.allInnerTexts()).not.toEqual(firstPage);
  const secondPage = await rows.allInnerTexts();

  await page.getByRole("link", { name: "Siguiente" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect.poll(() => rows.allInnerTexts()).not.toEqual(secondPage);
  await page.getByRole("link", { name: "Anterior" }).click();
  await expect(page).toHaveURL(/before=/);
  await expect.poll(() => rows.allInnerTexts()).toEqual(secondPage);
  await page.getByRole("link", { name: "Anterior" }).click();
  await expect.poll(() => rows.allInnerTexts()).toEqual(firstPage);
  await expect(page.getByRole("link", { name: "Anterior" })).toHaveCount(0);
  await expect(page).toHaveURL(/status=COMPLETED/);
});

test("a wrong filter is explained, an unknown session is a 404", async ({ page }) => {
  await page.goto("/activity?status=PERDIDA");
  await expect(page.getByTestId("status-error")).toHaveText("Elegí una opción válida.");
  const res = await page.goto("/activity?session=00000000-0000-4000-8000-000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("No encontramos esta página")).toBeVisible();
});

test("export the filtered list as CSV for Excel in Spanish", async ({ page }, testInfo) => {
  await page.getByLabel("Estado").selectOption({ label: "Completada" });
  await page.getByLabel("Desde").fill("2020-01-01");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/status=COMPLETED/);
  const link = page.getByTestId("export-csv");
  // The URL can change before the filtered page is on screen (a document navigation commits
  // first): wait for the page that belongs to the filter before reading it.
  await expect(link).toHaveAttribute("href", /^\/activity\/export\.csv\?.*status=COMPLETED/);
  const href = await link.getAttribute("href");
  const total = Number((await page.getByTestId("activity-total-count").innerText()).replace(/\D/g, ""));

  let bytes: Buffer;
  if (testInfo.project.name === "js") {
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^actividad-\d{8}\.csv$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  } else {
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers()["content-disposition"]).toMatch(/attachment; filename="actividad-\d{8}\.csv"/);
    bytes = await res.body();
  }
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
  const header = lines[0].split(";");
  expect(header.slice(0, 3)).toEqual(["Inicio", "Fin", "Transacción"]);
  expect(lines).toHaveLength(total + 1);
  const energyCol = header.indexOf("Energía (kWh)");
  const statusCol = header.indexOf("Estado");
  for (const line of lines.slice(1, 50)) {
    const cells = line.split(";");
    expect(cells[statusCol]).toBe("Completada");
    // A decimal comma is quoted, so a spreadsheet whose list separator is "," keeps it one cell.
    expect(cells[energyCol]).toMatch(/^"\d+,\d{3}"$/);
  }
});
