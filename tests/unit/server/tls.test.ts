// Own TLS for a small single node (TLS_CERT_FILE / TLS_KEY_FILE): the real server (server.ts,
// with a stand-in React Router build and PGlite) serves HTTPS, a charger connects over wss:// to
// /ocpp on the same port with Basic auth, and plain HTTP is not answered. The certificate is
// self-signed, made here with openssl (node:crypto cannot make certificates).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import type { TLSSocket } from "node:tls";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { RPCClient } from "ocpp-rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessUsers, chargers } from "#db/schema";
import { hashOcppPassword } from "#infra/crypto";
import { parseEnv, EnvError } from "../../../server/env";
import { readTls } from "../../../server/http";
import { startServer, type RunningServer } from "../../../server";
import { validCuit } from "../../api/helpers";

const opensslMissing = spawnSync("openssl", ["version"]).status !== 0;

/** A self-signed certificate for 127.0.0.1 / localhost (EC P-256: quick to make). */
function selfSigned(dir: string, name: string) {
  const key = path.join(dir, `${name}-key.pem`);
  const cert = path.join(dir, `${name}-cert.pem`);
  const r = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`openssl falló: ${r.stderr}`);
  return { key, cert };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Enough of a React Router build for the server to start; these tests never reach a page. */
const FAKE_BUILD = `export const routes = {};
export const entry = { module: {} };
export const assets = { routes: {}, url: "/x.js", version: "1", entry: { module: "/x.js", imports: [] } };
export const future = {};
export const publicPath = "/";
export const assetsBuildDirectory = "/tmp";
export const isSpaMode = false;
export const ssr = true;
export const mode = "production";
`;

// Without openssl the suite is skipped, and its name in the report says why.
const SUITE = opensslMissing ? "own TLS — omitida: openssl no está instalado y node:crypto no puede generar el certificado autofirmado" : "own TLS";

describe.skipIf(opensslMissing)(SUITE, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "enchufa-tls-"));
  const saved = { ...process.env };
  let running: RunningServer;
  let pem: Buffer;
  let port: number;
  const password = "tls-charger-password-0123456789ab";

  beforeAll(async () => {
    const files = selfSigned(dir, "node");
    pem = readFileSync(files.cert);
    mkdirSync(path.join(dir, "build", "server"), { recursive: true });
    mkdirSync(path.join(dir, "build", "client"), { recursive: true });
    writeFileSync(path.join(dir, "build", "server", "index.js"), FAKE_BUILD);
    port = await freePort();
    Object.assign(process.env, {
      BUILD_DIR: path.join(dir, "build"),
      DATA_DIR: path.join(dir, "data"),
      PORT: String(port),
      HOST: "127.0.0.1",
      FIREBASE_PROJECT_ID: "demo-tls",
      ENCRYPTION_KEY: "49b7ef468a53217b4616715d8b5200b618915d8381462d85b5265909b730dde0",
      SESSION_SECRET: "47f6b6c79e8d6f63958b73b18afa3052a5e3e5df3e5383cf25c475dd639891ee",
      LOG_LEVEL: "silent",
      TLS_CERT_FILE: files.cert,
      TLS_KEY_FILE: files.key,
    });
    delete process.env.DATABASE_URL;
    const hash = await hashOcppPassword(password);
    running = await startServer({
      onDatabase: async ({ db }) => {
        const [b] = await db.insert(businessUsers).values({ firebaseUid: "tls-owner", email: "tls@example.com", businessName: "TLS S.A.", cuit: validCuit(4242), status: "ACTIVE" }).returning();
        await db.insert(chargers).values({ businessId: b.id, name: "TLS", ocppIdentity: "TLS-1", ocppPasswordHash: hash, heartbeatInterval: 60 });
      },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves HTTPS on PORT with the configured certificate", async () => {
    expect(running.url).toBe(`https://127.0.0.1:${port}`);
    const { status, subject } = await new Promise<{ status: number; subject: string }>((resolve, reject) => {
      httpsGet(`${running.url}/healthz`, { ca: pem }, (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        res.resume();
        resolve({ status: res.statusCode ?? 0, subject: cert.subject.CN as string });
      }).on("error", reject);
    });
    expect(status).toBe(200);
    expect(subject).toBe("localhost");
  });

  it("plain HTTP on the same port gets no answer", async () => {
    const outcome = await new Promise<string>((resolve) => {
      httpGet(`http://127.0.0.1:${port}/healthz`, (res) => resolve(`answered ${res.statusCode}`)).on("error", (err) => resolve(`error ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    });
    expect(outcome).toMatch(/^error /);
  });

  it("a charger connects over wss:// to /ocpp with Basic auth, and is online", async () => {
    const client = new RPCClient({
      endpoint: `wss://127.0.0.1:${port}/ocpp`,
      identity: "TLS-1",
      password,
      protocols: ["ocpp2.0.1"],
      strictMode: true,
      reconnect: false,
      wsOpts: { ca: pem },
    } as unknown as ConstructorParameters<typeof RPCClient>[0]);
    await client.connect();
    try {
      expect(client.protocol).toBe("ocpp2.0.1");
      const boot = (await client.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alfen", model: "Eve" } })) as { status: string };
      expect(boot.status).toBe("Accepted");
      expect(running.ocpp.connectionCount()).toBe(1);
    } finally {
      await client.close();
    }
    // Not trusting the certificate: the TLS handshake fails before any OCPP.
    const untrusting = new RPCClient({ endpoint: `wss://127.0.0.1:${port}/ocpp`, identity: "TLS-1", password, protocols: ["ocpp2.0.1"], reconnect: false } as unknown as ConstructorParameters<typeof RPCClient>[0]);
    await expect(untrusting.connect()).rejects.toThrow(/self.signed|certificate/i);
  });

  it("configuration: both files or neither; unreadable or mismatched files stop the start in Spanish", () => {
    const base = { FIREBASE_PROJECT_ID: "demo-tls" };
    expect(() => parseEnv({ ...base, TLS_CERT_FILE: "/x/cert.pem" })).toThrow(/TLS_KEY_FILE: TLS_CERT_FILE y TLS_KEY_FILE van juntas/);
    expect(() => parseEnv({ ...base, TLS_KEY_FILE: "/x/key.pem" })).toThrow(/TLS_CERT_FILE: TLS_CERT_FILE y TLS_KEY_FILE van juntas/);
    expect(readTls({})).toBeUndefined();
    const node = { cert: path.join(dir, "node-cert.pem"), key: path.join(dir, "node-key.pem") };
    expect(() => readTls({ TLS_CERT_FILE: path.join(dir, "no-existe.pem"), TLS_KEY_FILE: node.key })).toThrow(EnvError);
    expect(() => readTls({ TLS_CERT_FILE: path.join(dir, "no-existe.pem"), TLS_KEY_FILE: node.key })).toThrow(/TLS_CERT_FILE: no se pudo leer .*no-existe\.pem \(ENOENT\)/);
    const other = selfSigned(dir, "other");
    expect(() => readTls({ TLS_CERT_FILE: node.cert, TLS_KEY_FILE: other.key })).toThrow(/el certificado o la clave no sirven/);
    expect(readTls({ TLS_CERT_FILE: node.cert, TLS_KEY_FILE: node.key })?.cert.toString()).toContain("BEGIN CERTIFICATE");
  });
});
