// Reliability under faults, against the production build in separate server
// processes: the Business API host slow or down (HTTP transport), the identity provider down
// (the emulator behind a proxy), the database down and back (PostgreSQL behind a proxy the test
// cuts), and SIGTERM with requests, a write and a charger in flight.
// Server-level behaviour: run once, in the no-JavaScript project (document requests).
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import ocppRpc from "ocpp-rpc";
import pg from "pg";
import { test, expect, activeOperator, appServer, EMULATOR, login, uniqueEmail, type AppServer } from "./fixtures";

const { RPCClient } = ocppRpc;
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100) + 10;
const PASSWORD = "Clave-Segura-1";
const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

test.describe.configure({ mode: "serial" });
test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "server behaviour: the no-js project covers it");

/** A forwarding HTTP proxy (in front of the app's own /api, or of the identity emulator) that can be made slow or refuse. */
async function apiProxy(target: () => string) {
  let mode: "pass" | "hang" | "refuse" | "slow" = "pass";
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    if (mode === "refuse") return void req.socket.destroy();
    if (mode === "hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (mode === "slow") await new Promise((r) => setTimeout(r, 3000));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "connection") headers.set(k, v);
    const upstream = await fetch(`${target()}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (k !== "content-encoding" && k !== "content-length" && k !== "transfer-encoding") out[k] = v;
    });
    res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (m: typeof mode) => {
      mode = m;
      if (m !== "hang") for (const res of hanging) res.destroy();
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A TCP proxy in front of PostgreSQL whose connections the test can cut or slow down. */
async function tcpProxy(port: number) {
  let up = true;
  let delayMs = 0;
  const sockets = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on("data", (chunk) => (delayMs ? setTimeout(() => to.writable && to.write(chunk), delayMs) : to.write(chunk)));
    from.on("close", () => to.destroy());
  };
  const server = net.createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = net.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const down = () => {
    up = false;
    for (const s of sockets) s.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    down,
    up() {
      up = true;
    },
    /** Every packet from now on waits this long in each direction. */
    delay(ms: number) {
      delayMs = ms;
    },
    close: () => new Promise<void>((r) => (down(), server.close(() => r()))),
  };
}

/** A scratch PostgreSQL database reached through a TCP proxy, or a skip when there is no server. */
async function proxiedDatabase(name: string) {
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch {
    test.skip(true, "PostgreSQL no disponible");
  }
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  const proxy = await tcpProxy(Number(new URL(PG_URL).port || 5432));
  const url = new URL(PG_URL);
  url.port = String(proxy.port);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    proxy,
    async drop() {
      await proxy.close();
      await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
      await admin.end();
    },
  };
}

/** POST a charger with two connectors (one transaction) to `server`'s API. */
const postCharger = (server: AppServer, token: string, identity: string) =>
  fetch(`${server.url}/api/Business/Charger`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: `Cargador ${identity}`,
      ocppIdentity: identity,
      connectors: [1, 2].map((connectorId) => ({ connectorId, standard: "IEC_62196_T2", format: "SOCKET", powerType: "AC_3_PHASE", maxPowerKw: 22 })),
    }),
  });

/** How many rows of a charger and of its connectors the database holds (read directly, not through the proxy). */
async function chargerRows(database: string, identity: string) {
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ chargers: number; connectors: number }>(
      `select count(distinct c.id)::int as chargers, count(k.id)::int as connectors
         from chargers c left join connectors k on k.charger_id = c.id where c.ocpp_identity = $1`,
      [identity],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** A verified operator with an active company on `server` (API called directly, not through the proxy). */
const operator = (server: AppServer) => activeOperator(server.url, { prefix: "fallas", password: PASSWORD, businessName: "Fallas S.A." });

test("Business API host slow or down: a Spanish error screen after the 10 s timeout, the server stays up, the next request works", async ({ page }) => {
  test.setTimeout(150_000);
  let appUrl = "";
  const proxy = await apiProxy(() => `${appUrl}`);
  const server = appServer({ port: BASE_PORT, dataDir: "tests/.e2e-data/faults-api", autoApprove: true, env: { API_BASE_URL: `${proxy.url}/api` } });
  appUrl = server.url;
  await server.start();
  try {
    const { email } = await operator(server);
    await login(page, email, PASSWORD, undefined, server.url);
    await expect(page).toHaveURL(/\/home$/);

    proxy.set("hang");
    const started = Date.now();
    const slow = await page.goto(`${server.url}/station`);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(9_500);
    expect(took).toBeLessThan(25_000);
    expect(slow!.status()).toBeGreaterThanOrEqual(500);
    await expect(page.locator("body")).toContainText(/Probá de nuevo en unos minutos|no está disponible/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    proxy.set("refuse");
    const refused = await page.goto(`${server.url}/rate`);
    expect(refused!.status()).toBeGreaterThanOrEqual(500);
    await expect(page.locator("body")).toContainText(/Probá de nuevo en unos minutos|no está disponible/);

    proxy.set("pass");
    const ok = await page.goto(`${server.url}/station`);
    expect(ok!.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("estaciones");
  } finally {
    await server.stop();
    await proxy.close();
  }
});

test("identity provider down: login and registration say so in Spanish; a signed-in operator keeps working", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const proxy = await apiProxy(() => EMULATOR);
  const server = appServer({
    port: BASE_PORT + 3,
    dataDir: "tests/.e2e-data/faults-identity",
    autoApprove: true,
    env: { FIREBASE_AUTH_EMULATOR_HOST: proxy.url.replace(/^http:\/\//, "") },
  });
  await server.start();
  try {
    const { email } = await operator(server);
    await login(page, email, PASSWORD, undefined, server.url);
    await expect(page).toHaveURL(/\/home$/);

    proxy.set("refuse");
    // Signed in: the session's ID token is verified locally, so every screen still works.
    for (const path of ["/home", "/station", "/charger", "/rate", "/activity", "/user"]) {
      const res = await page.goto(`${server.url}${path}`);
      expect(res!.status(), path).toBe(200);
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    await page.goto(`${server.url}/rate/new`);
    await page.getByLabel("Nombre de la tarifa").fill("Tarifa sin identidad");
    await page.getByLabel("Precio por kWh").fill("250");
    await page.getByRole("button", { name: "Crear tarifa" }).click();
    await expect(page).toHaveURL(/\/rate$/);
    await expect(page.getByText("Tarifa sin identidad").first()).toBeVisible();

    // Signed out: login and registration cannot reach the provider and say so, on the form.
    const guest = await browser.newPage({ javaScriptEnabled: false });
    try {
      await login(guest, email, PASSWORD, undefined, server.url);
      await expect(guest).toHaveURL(/\/auth\/login/);
      await expect(guest.getByText("No pudimos comunicarnos con el servicio de identidad. Probá de nuevo en unos minutos.")).toBeVisible();

      await guest.goto(`${server.url}/auth/register`);
      await guest.getByLabel("Correo electrónico").fill(uniqueEmail("sin-identidad"));
      await guest.getByLabel("Contraseña", { exact: true }).fill(PASSWORD);
      await guest.getByLabel("Repetir contraseña").fill(PASSWORD);
      await guest.getByLabel("Acepto los términos y condiciones").check();
      await guest.getByRole("button", { name: "Crear cuenta" }).click();
      await expect(guest).toHaveURL(/\/auth\/register/);
      await expect(guest.getByText("No pudimos comunicarnos con el servicio de identidad. Probá de nuevo en unos minutos.")).toBeVisible();

      // Back up: the same login goes through.
      proxy.set("pass");
      await login(guest, email, PASSWORD, undefined, server.url);
      await expect(guest).toHaveURL(/\/home$/);
    } finally {
      await guest.close();
    }
    expect(server.process()?.exitCode).toBeNull();
  } finally {
    await server.stop();
    await proxy.close();
  }
});

test("database down and back: /healthz 503, error screen, no crash, a write cut mid-transaction leaves nothing; recovers without a restart", async ({ page }) => {
  test.setTimeout(150_000);
  const { url, name, proxy, drop } = await proxiedDatabase(`enchufa_e2e_faults_${process.pid}`);
  const server = appServer({ port: BASE_PORT + 1, dataDir: "tests/.e2e-data/faults-db", autoApprove: true, env: { DATABASE_URL: url } });
  await server.start();
  try {
    const { email, token } = await operator(server);

    // A charger and its two connectors are written in one transaction: the connection is cut
    // once the charger row is inserted (seen from PostgreSQL's side), and neither row survives.
    const identity = `HALF-${Date.now().toString(36)}`;
    proxy.delay(200);
    const write = postCharger(server, token, identity);
    const watcher = new pg.Client({ connectionString: PG_URL });
    await watcher.connect();
    try {
      await expect
        .poll(
          async () =>
            (
              await watcher.query(`select 1 from pg_stat_activity where datname = $1 and state = 'idle in transaction' and query ilike 'insert into "chargers"%'`, [name])
            ).rowCount,
          { timeout: 20_000, intervals: [20] },
        )
        .toBe(1);
    } finally {
      await watcher.end();
    }
    proxy.down();
    const cut = await write;
    expect(cut.status).toBeGreaterThanOrEqual(500);
    expect(cut.status).toBeLessThan(600);
    proxy.delay(0);
    proxy.up();
    await expect.poll(() => chargerRows(name, identity), { timeout: 10_000 }).toEqual({ chargers: 0, connectors: 0 });
    await login(page, email, PASSWORD, undefined, server.url);
    await expect(page).toHaveURL(/\/home$/);

    proxy.down();
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "down", database: "down" });
    const broken = await page.goto(`${server.url}/station`);
    expect(broken!.status()).toBeGreaterThanOrEqual(500);
    await expect(page.locator("body")).toContainText(/Probá de nuevo en unos minutos|no está disponible/);
    expect(server.process()?.exitCode).toBeNull();

    proxy.up();
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 20_000 }).toBe(200);
    const back = await page.goto(`${server.url}/station`);
    expect(back!.status()).toBe(200);
    expect(server.process()?.exitCode).toBeNull();
  } finally {
    await server.stop();
    await drop();
  }
});

test("SIGTERM: in-flight requests and writes finish whole, chargers are disconnected cleanly (1001), exit 0 within 10 s", async ({ page }) => {
  test.setTimeout(120_000);
  // PostgreSQL behind a proxy that can be slowed down, so a page is still being served when the signal arrives.
  const { url, name, proxy, drop } = await proxiedDatabase(`enchufa_e2e_sigterm_${process.pid}`);
  const server = appServer({ port: BASE_PORT + 2, dataDir: "tests/.e2e-data/faults-sigterm", autoApprove: true, env: { DATABASE_URL: url } });
  await server.start();
  try {
    const { email, token } = await operator(server);
    const identity = `SIGTERM-${Date.now().toString(36)}`;
    const created = await postCharger(server, token, identity);
    expect(created.status).toBe(201);
    const { ocppPassword } = (await created.json()) as { ocppPassword: string };
    const charger = new RPCClient({
      endpoint: `ws://127.0.0.1:${BASE_PORT + 2}/ocpp`,
      identity,
      password: ocppPassword,
      protocols: ["ocpp1.6"],
      strictMode: true,
      reconnect: false,
    } as ConstructorParameters<typeof RPCClient>[0]);
    await charger.connect();
    await charger.call("BootNotification", { chargePointVendor: "Prueba", chargePointModel: "SIGTERM" });
    const closed = new Promise<number>((resolve) => charger.once("close", ({ code }: { code: number }) => resolve(code)));

    await login(page, email, PASSWORD, undefined, server.url);
    await expect(page).toHaveURL(/\/home$/);

    // A page whose queries each take 300 ms more is in flight when the signal arrives.
    // So is a write of a charger with two connectors (one transaction).
    proxy.delay(150);
    const inFlight = page.request.get(`${server.url}/charger`);
    const writeIdentity = `${identity}-W`;
    const inFlightWrite = postCharger(server, token, writeIdentity);
    await new Promise((r) => setTimeout(r, 400));
    const child = server.process()!;
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once("exit", (code) => resolve({ code, at: Date.now() })));
    const signalled = Date.now();
    child.kill("SIGTERM");

    const res = await inFlight;
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain("Cargador");
    expect((await inFlightWrite).status).toBe(201);
    expect(await closed).toBe(1001);
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(10_000);
    // The write that was in flight landed whole: the charger and both connectors.
    expect(await chargerRows(name, writeIdentity)).toEqual({ chargers: 1, connectors: 2 });
  } finally {
    proxy.delay(0);
    await server.stop();
    await drop();
  }
});
