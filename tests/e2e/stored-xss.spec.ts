// Stored XSS: an operator whose every free-text field — company, stations, chargers,
// connectors' rates, payment account — holds `<script>` and `"><img onerror>` payloads, and whose
// notifications (written by the OCPP central system) quote the charger's name. Every
// screen that shows them renders them as text: no script runs, no element is injected, and the
// server's HTML (including the data React Router embeds in <script> tags) never contains them raw.
import ocppRpc from "ocpp-rpc";
import { E2E_PORT } from "../../playwright.config";
import { test, expect, createAccount, idToken, login, uniqueCuit, uniqueEmail } from "./fixtures";

const SCRIPT = "<script>window.__xss=1</script>";
const ATTR = `"><img src=x onerror="window.__xss=2">`;
const payload = (label: string) => `${label} ${SCRIPT}${ATTR}`.slice(0, 80);

test.describe.configure({ mode: "serial" });

test("text stored with HTML payloads is shown escaped on every screen", async ({ page, request, baseURL, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("xss");
  const password = "Clave-Segura-1";
  await createAccount(email, password);
  const token = await idToken(email, password);
  const api = async (method: string, path: string, data?: unknown) => {
    const res = await request.fetch(`${baseURL}/api${path}`, { method, data, headers: { Authorization: `Bearer ${token}` } });
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  // Every free-text field gets a payload (the API stores text as given; it only bounds lengths).
  await api("POST", "/Account/Business", {
    businessName: payload("Empresa"),
    cuit: uniqueCuit().replace(/-/g, ""),
    businessAddress: payload("Calle"),
    phoneNumber: "+54 11 5555-0000",
  });
  const station = await api("POST", "/Business/ChargingStation", {
    name: payload("Estación"),
    address: payload("Dirección"),
    city: payload("Ciudad"),
    province: "AR-C",
    latitude: -34.6,
    longitude: -58.4,
    openingHours: { twentyFourSeven: true, periods: [] },
    published: true,
  });
  const rate = await api("POST", "/Business/Fees", { name: payload("Tarifa"), pricePerKwhCents: 1000 });
  const charger = await api("POST", "/Business/Charger", {
    name: payload("Cargador"),
    model: payload("Modelo"),
    serialNumber: payload("Serie"),
    ocppIdentity: `XSS-${Date.now().toString(36)}`,
    stationId: station.id,
    connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22, rateId: rate.id }],
  });
  // A second charger without a station, for the "add chargers" screen.
  await api("POST", "/Business/Charger", {
    name: payload("Suelto"),
    ocppIdentity: `XSS-B-${Date.now().toString(36)}`,
    connectors: [{ connectorId: 1, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 }],
  });
  await api("PUT", "/Pagos360/BusinessUser", { apiKey: "abcdefghijklmnop1234", accountName: payload("Cuenta") });

  // The charger reports faults over OCPP: the notifications it causes quote its hostile name.
  const ocpp = new ocppRpc.RPCClient({
    endpoint: `ws://127.0.0.1:${E2E_PORT}/ocpp`,
    identity: charger.ocppIdentity,
    password: charger.ocppPassword,
    protocols: ["ocpp1.6"],
    strictMode: true,
    reconnect: false,
  } as ConstructorParameters<typeof ocppRpc.RPCClient>[0]);
  await ocpp.connect();
  try {
    await ocpp.call("BootNotification", { chargePointVendor: "ABB", chargePointModel: "Terra" });
    await ocpp.call("StatusNotification", { connectorId: 0, status: "Faulted", errorCode: "GroundFailure" });
    await ocpp.call("StatusNotification", { connectorId: 1, status: "Faulted", errorCode: "OverCurrentFailure" });
  } finally {
    await ocpp.close();
  }
  const notes = (await api("GET", "/Business/Notification")) as { items: { title: string; body: string }[] };
  expect(notes.items.filter((n) => n.body.includes(SCRIPT)).length).toBeGreaterThanOrEqual(2);

  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await login(page, email, password);
  await expect(page).toHaveURL(/\/home/);

  const screens = [
    "/home",
    "/station",
    `/station/edit/${station.id}`,
    "/charger",
    `/charger/edit/${charger.id}`,
    `/charger/add?stationId=${station.id}`,
    "/rate",
    `/rate/edit/${rate.id}`,
    "/activity",
    "/notification",
    "/user",
    "/payment",
    "/payment/payments/pagos360",
  ];
  for (const path of screens) {
    // The server's HTML: the payloads only ever appear escaped.
    const html = await (await page.request.get(path)).text();
    expect(html, path).not.toContain("<script>window.__xss");
    expect(html, path).not.toContain("<img src=x onerror");
    // (In attributes the payload's quotes and brackets are entities: "onerror=" is only text there.)
    expect(html, path).not.toContain(`onerror="window.__xss`);

    await page.goto(path);
    if (javaScriptEnabled) await page.waitForLoadState("networkidle");
    expect(await page.locator("img[onerror]").count(), path).toBe(0);
    expect(await page.locator("script:not([src])").evaluateAll((els) => els.filter((e) => e.textContent?.includes("__xss=1") && !e.textContent.includes("\\u003c")).length), path).toBe(0);
    if (javaScriptEnabled) expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), path).toBeUndefined();
  }
  // Shown as text where the screen shows the name.
  await page.goto("/station");
  await expect(page.getByText(SCRIPT, { exact: false }).first()).toBeVisible();
  await page.goto("/notification");
  await expect(page.getByText(SCRIPT, { exact: false }).first()).toBeVisible();
  expect(dialogs).toEqual([]);
});
