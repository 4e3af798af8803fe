import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { createCookieSessionStorage } from "react-router";
import { cuitCheckDigit } from "#domain/cuit";

export const DEMO = { email: "demo@enchufa.local", password: "Demo1234!" };
export const EMULATOR = `http://127.0.0.1:${process.env.E2E_AUTH_EMULATOR_PORT ?? 9199}`;
export const PROJECT_ID = "demo-enchufa";

/** Out-of-band codes (verify e-mail, reset password) the emulator "sent" to an address. */
export async function oobCodes(email: string): Promise<{ requestType: string; oobCode: string; oobLink: string }[]> {
  const res = await fetch(`${EMULATOR}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
  const body = (await res.json()) as { oobCodes: { email: string; requestType: string; oobCode: string; oobLink: string }[] };
  return body.oobCodes.filter((c) => c.email.toLowerCase() === email.toLowerCase());
}

/**
 * A flash toast as an action sets it (remix-toast's `toast-session` cookie), signed with the
 * suite's server secret (local mode keeps it in its data directory) unless another is given.
 */
export async function flashToastCookie(message: string, type = "success", secret?: string): Promise<string> {
  const port = Number(process.env.E2E_PORT ?? 3100);
  const serverSecret = (JSON.parse(readFileSync(`tests/.e2e-data/${port}/secrets.json`, "utf8")) as { sessionSecret: string }).sessionSecret;
  const storage = createCookieSessionStorage({ cookie: { name: "toast-session", secrets: [secret ?? serverSecret] } });
  const session = await storage.getSession();
  session.flash("flash", { toast: { message, type } });
  const header = await storage.commitSession(session);
  return header.slice("toast-session=".length).split(";")[0]; // URL-encoded, as the browser stores it
}

/** A unique address per test so parallel tests never share an account. */
export function uniqueEmail(prefix = "operador") {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** Log in through the real login form (works with JavaScript on and off). */
/** Signs in through the login form; `origin` targets a server other than the suite's own. */
export async function login(page: Page, email = DEMO.email, password = DEMO.password, redirectTo?: string, origin = "") {
  await page.goto(`${origin}/auth/login${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Ingresar" }).click();
}

/** A Firebase account made directly in the emulator (verified or not), without the UI. */
export async function createAccount(email: string, password: string, opts: { verified?: boolean } = {}): Promise<string> {
  const base = `${EMULATOR}/identitytoolkit.googleapis.com/v1`;
  const res = await fetch(`${base}/accounts:signUp?key=e2e`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { localId?: string };
  if (!res.ok || !body.localId) throw new Error(`No se pudo crear la cuenta ${email} en el emulador`);
  if (opts.verified ?? true) {
    const update = await fetch(`${base}/projects/${PROJECT_ID}/accounts:update`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer owner" },
      body: JSON.stringify({ localId: body.localId, emailVerified: true }),
    });
    if (!update.ok) throw new Error(`No se pudo verificar la cuenta ${email}`);
  }
  return body.localId;
}

/**
 * A verified account with an active company (local mode approves at once), made through the
 * emulator and the Business API of the server at `baseUrl` — no UI. Returns its e-mail and token.
 */
export async function activeOperator(baseUrl: string, opts: { prefix: string; password: string; businessName: string }): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(opts.prefix);
  await createAccount(email, opts.password);
  const token = await idToken(email, opts.password);
  const res = await fetch(`${baseUrl}/api/Account/Business`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ businessName: opts.businessName, cuit: uniqueCuit().replace(/-/g, ""), businessAddress: "Av. Corrientes 1234", phoneNumber: "+54 11 5555-0000" }),
  });
  expect(res.status).toBe(201);
  return { email, token };
}

/** A valid company CUIT (prefix 30, right check digit) that no other test uses. */
export function uniqueCuit(): string {
  for (;;) {
    const first10 = `30${String(crypto.randomInt(0, 100_000_000)).padStart(8, "0")}`;
    const digit = cuitCheckDigit(first10);
    if (digit !== null) return `${first10.slice(0, 2)}-${first10.slice(2)}-${digit}`;
  }
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface AppServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The running server process (signals, exit code). */
  process(): ChildProcess | undefined;
}

/** A real ID token from the emulator (for calling the Business API over HTTP). */
export async function idToken(email: string, password: string): Promise<string> {
  const res = await fetch(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=e2e`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string };
  if (!body.idToken) throw new Error(`No se pudo obtener un token para ${email}`);
  return body.idToken;
}

/**
 * A second app server (the production build) on its own port and data directory, sharing the
 * test emulator: for flows the main local-mode server cannot show, like a company that waits
 * for approval (AUTO_APPROVE_BUSINESSES off). stop()/start() keep the data.
 */
export function appServer(opts: { port: number; dataDir: string; autoApprove: boolean; env?: Record<string, string> }): AppServer {
  const url = `http://127.0.0.1:${opts.port}`;
  const dataDir = path.resolve(ROOT, opts.dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  const env = {
    ...process.env,
    NODE_ENV: "production",
    ENCHUFA_LOCAL: "1",
    HOST: "127.0.0.1",
    PORT: String(opts.port),
    DATA_DIR: dataDir,
    FIREBASE_PROJECT_ID: PROJECT_ID,
    FIREBASE_API_KEY: "local-emulator-key",
    FIREBASE_AUTH_EMULATOR_HOST: EMULATOR.replace(/^http:\/\//, ""),
    SESSION_SECRET: "e2e-second-server-session-secret-0123456789",
    ENCRYPTION_KEY: "0".repeat(64),
    AUTO_APPROVE_BUSINESSES: opts.autoApprove ? "1" : "0",
    PUBLIC_URL: url,
    LOG_LEVEL: "warn",
    ...opts.env,
  };
  let child: ChildProcess | undefined;
  return {
    url,
    process: () => child,
    async start() {
      const proc = spawn(process.execPath, [path.join(process.env.BUILD_DIR ?? "build", "server.js")], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "ignore", "inherit"] });
      child = proc;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (proc.exitCode !== null) throw new Error(`El servidor de prueba terminó (código ${proc.exitCode})`);
        try {
          if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) return;
        } catch {
          /* not yet */
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("El servidor de prueba no respondió a tiempo");
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once("exit", () => resolve());
        running.kill("SIGTERM");
      });
    },
  };
}

/** `npm run business -- <command> <email>` against a stopped server's data directory. */
export function business(command: "approve" | "reject" | "suspend" | "status", email: string, opts: { dataDir: string; port: number }) {
  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  const result = spawnSync(tsx, ["scripts/business.ts", command, email], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: path.resolve(ROOT, opts.dataDir), PORT: String(opts.port), DATABASE_URL: "" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`business ${command} falló: ${result.stderr}`);
  return result.stdout.trim();
}

export const test = base;
export { expect };
