import { z } from "zod";
import { LOGIN_THROTTLE_DEFAULTS } from "../infra/login-throttle";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

/** ENCRYPTION_KEY: comma-separated 32-byte hex keys, newest first (also read by `npm run db:reencrypt`). */
export const hexKeys = z
  .string()
  .transform((s) => s.split(",").map((k) => k.trim()).filter(Boolean))
  .refine((keys) => keys.length > 0 && keys.every((k) => /^[0-9a-fA-F]{64}$/.test(k)), {
    message: "debe ser una o más claves de 32 bytes en hexadecimal (64 caracteres), separadas por comas",
  });

/** How to make a good value, said with every refusal of a weak one. */
const GENERATE = "generá uno con `openssl rand -hex 32`";
/**
 * Words of example values and placeholders (`.env.example`, docs, compose files) and the product
 * name, as words of their own (between separators), so a random value that happens to hold
 * their letters is not refused.
 */
const PLACEHOLDER = /(^|[^a-z0-9])(change-?me|enchufa|example|placeholder|your|secret|password|default|dummy|sample|replace|insecure)(?![a-z0-9])/i;

/** Shannon entropy of the value's own characters, in bits for the whole value: a rough upper bound of its randomness. */
function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / value.length) * Math.log2(n / value.length);
  return perChar * value.length;
}

/**
 * Why a production secret is not good enough, or undefined: a known placeholder, one character
 * or one group of characters repeated, too few different characters, or too little entropy for
 * its length. `minBits`: what a random value of the required form easily reaches (64 random hex
 * characters give ~240 bits by this measure, 32 random characters ~120).
 */
export function weakSecret(value: string, minBits: number): string | undefined {
  if (PLACEHOLDER.test(value)) return "es un valor de ejemplo";
  if (/^(.+?)\1+$/s.test(value)) return "repite los mismos caracteres";
  if (new Set(value).size < 8) return "tiene muy pocos caracteres distintos";
  if (entropyBits(value) < minBits) return "es demasiado previsible";
  return undefined;
}

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    APP_NAME: z.string().min(1).default("Enchufá"),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default(".data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "debe empezar con postgres://")
      .optional(),
    API_BASE_URL: z.url().optional(),
    SESSION_SECRET: z.string().min(32, "debe tener al menos 32 caracteres").optional(),
    ENCRYPTION_KEY: hexKeys.optional(),
    FIREBASE_PROJECT_ID: z.string().min(1, "falta el id del proyecto de Firebase"),
    FIREBASE_API_KEY: z.string().min(1).optional(),
    FIREBASE_AUTH_DOMAIN: z.string().optional(),
    FIREBASE_APP_ID: z.string().optional(),
    FIREBASE_MESSAGING_SENDER_ID: z.string().optional(),
    FIREBASE_VAPID_KEY: z.string().optional(),
    FIREBASE_AUTH_EMULATOR_HOST: z.string().regex(/^[\w.-]+:\d+$/, "debe tener la forma host:puerto").optional(),
    FIREBASE_SERVICE_ACCOUNT_JSON: z.string().optional(),
    GOOGLE_APPLICATION_CREDENTIALS: z.string().optional(),
    GOOGLE_MAPS_API_KEY: z.string().optional(),
    ENCHUFA_LOCAL: bool,
    AUTO_APPROVE_BUSINESSES: bool,
    TRUST_PROXY: bool,
    /** PostgreSQL connections per node (the OCPP central system writes one transaction per message). */
    DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(200).default(10),
    /** Statements each PostgreSQL connection prepares (parsed and planned once); 0: none, e.g. behind PgBouncer's transaction pooling before 1.21. */
    DATABASE_PREPARED_STATEMENTS: z.coerce.number().int().min(0).max(10_000).default(200),
    /** OCPP: idle time is charged at most this long when the unplug report never arrives. */
    OCPP_IDLE_MAX_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(240),
    /** OCPP: how often chargers silent for 2× their heartbeat interval are marked offline. */
    OCPP_SWEEP_SECONDS: z.coerce.number().min(1).max(3600).default(30),
    /** OCPP: calls one charger may make in a burst; its budget is kept across its reconnections. */
    OCPP_CALL_BURST: z.coerce.number().int().min(1).max(100_000).default(60),
    /** OCPP: calls per second one charger may sustain once its burst is spent. */
    OCPP_CALLS_PER_SECOND: z.coerce.number().min(0.1).max(10_000).default(10),
    /** OCPP: connections one charger (identity, once authenticated) may open per minute. */
    OCPP_CONNECTIONS_PER_CHARGER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
    /** OCPP: connection attempts per client address and minute (behind TRUST_PROXY, the forwarded one); many chargers may share one address. */
    OCPP_CONNECTIONS_PER_IP_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    /** Server processes on this machine: a number, or "auto" (one per core). More than one needs PostgreSQL. */
    WEB_CONCURRENCY: z.union([z.literal("auto"), z.coerce.number().int().min(1).max(64)]).default("auto"),
    /** This node's name in chargers.connected_node (default: random per process). */
    NODE_ID: z.string().regex(/^[\w.:-]{1,64}$/, "solo letras, números y . _ : -").optional(),
    /** Home KPIs and charts of a period, and the filters' option lists: reused per company this long (0: read on every request). */
    COMPANY_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(15),
    /** Business API over HTTP: requests per client address and minute. */
    API_REQUESTS_PER_IP_MINUTE: z.coerce.number().int().min(1).default(1200),
    /** OCPI interface (/ocpi, roaming partners' servers): requests per client address and minute. */
    OCPI_REQUESTS_PER_IP_MINUTE: z.coerce.number().int().min(1).default(600),
    /**
     * Failed sign-ins of one account from one client address: this many a minute, twice as many in
     * 15 minutes, four times as many in an hour (infra/login-throttle.ts). Read by the dashboard.
     */
    LOGIN_FAILURES_PER_ACCOUNT_ADDRESS: z.coerce.number().int().min(1).max(1000).default(LOGIN_THROTTLE_DEFAULTS.perAccountAddress),
    /** Failed sign-ins from one client address, every account together: this many in 15 minutes, four times as many in an hour. */
    LOGIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(LOGIN_THROTTLE_DEFAULTS.perAddress),
    /** Business API: authenticated requests per account and minute (every node together). */
    API_REQUESTS_PER_ACCOUNT_MINUTE: z.coerce.number().int().min(1).default(600),
    /** Dashboard live updates (GET /Business/Live): streams open at once per account, and per client address, on each node. */
    LIVE_STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(10),
    LIVE_STREAMS_PER_IP: z.coerce.number().int().min(1).max(10_000).default(50),
    /** Images a company may keep stored (photos attached or not), by count and by total size (ADR 0028). */
    IMAGES_PER_COMPANY: z.coerce.number().int().min(1).max(100_000).default(200),
    IMAGES_MB_PER_COMPANY: z.coerce.number().int().min(1).max(100_000).default(100),
    /** An uploaded image no profile or station uses is deleted after this many hours. */
    UNREFERENCED_IMAGE_HOURS: z.coerce.number().min(1).max(24 * 365).default(24),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** E-mail provider (invitations): POST { from, to, subject, text, html } as JSON. Local mode without it: the local inbox. */
    MAIL_PROVIDER_URL: z.url().optional(),
    /** Bearer token for MAIL_PROVIDER_URL. */
    MAIL_PROVIDER_TOKEN: z.string().optional(),
    /** Sender of the e-mails, e.g. "Enchufá <no-responder@example.com>". */
    MAIL_FROM: z.string().min(3).optional(),
    /**
     * Own TLS for a single node without a load balancer: PEM certificate (chain) and private key
     * files. With both, the server speaks HTTPS and chargers connect over wss:// on PORT.
     */
    /** The payment providers' APIs (unset: the real ones). Local mode points them at its emulator. */
    MERCADOPAGO_API_URL: z.url().optional(),
    PAGOS360_API_URL: z.url().optional(),
    /** ARCA's WSAA and WSFEv1 (unset: ARCA's own, homologation or production per company). Local mode points them at its emulator. */
    ARCA_WSAA_URL: z.url().optional(),
    ARCA_WSFE_URL: z.url().optional(),
    /** How often drivers' payments no event moved are looked at (start timeouts, price caps, refunds, polls). */
    PAYMENTS_SWEEP_SECONDS: z.coerce.number().min(1).max(300).default(5),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === "production";
    const need = (key: keyof typeof env, why: string) => {
      if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: why });
    };
    if (production && !env.ENCHUFA_LOCAL) {
      need("SESSION_SECRET", "es obligatoria en producción (firma la cookie de sesión)");
      need("ENCRYPTION_KEY", "es obligatoria en producción (cifra las credenciales de pago)");
      need("FIREBASE_API_KEY", "es obligatoria en producción (API de Identity Toolkit)");
      // Every listed value counts (all of them verify cookies or open credentials), not only the first.
      const secrets = (env.SESSION_SECRET ?? "").split(",").map((v) => v.trim()).filter(Boolean);
      secrets.forEach((value, i) => {
        const why = weakSecret(value, 80);
        const which = secrets.length > 1 ? ` (el valor ${i + 1} de la lista)` : "";
        if (why) ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: `${why}${which}: no sirve en producción; ${GENERATE}` });
      });
      (env.ENCRYPTION_KEY ?? []).forEach((key, i, keys) => {
        const why = weakSecret(key.toLowerCase(), 160);
        const which = keys.length > 1 ? ` (la clave ${i + 1} de la lista)` : "";
        if (why) ctx.addIssue({ code: "custom", path: ["ENCRYPTION_KEY"], message: `${why}${which}: no sirve en producción; ${GENERATE}` });
      });
    }
    if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
      ctx.addIssue({
        code: "custom",
        path: [env.TLS_CERT_FILE ? "TLS_KEY_FILE" : "TLS_CERT_FILE"],
        message: "TLS_CERT_FILE y TLS_KEY_FILE van juntas: el certificado y su clave privada",
      });
    }
    if (typeof env.WEB_CONCURRENCY === "number" && env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["WEB_CONCURRENCY"],
        message: "más de un proceso necesita PostgreSQL (DATABASE_URL): la base embebida funciona dentro de un solo proceso",
      });
    }
    // Production talks to the real providers only: an emulator (plain http, or this machine) is refused.
    if (production && !env.ENCHUFA_LOCAL) {
      for (const key of ["MERCADOPAGO_API_URL", "PAGOS360_API_URL", "ARCA_WSAA_URL", "ARCA_WSFE_URL"] as const) {
        const value = env[key];
        if (value && isEmulatorUrl(value)) {
          ctx.addIssue({ code: "custom", path: [key], message: "no se permite un emulador en producción: tiene que ser https:// y no apuntar a esta máquina" });
        }
      }
    }
    if (production && env.FIREBASE_AUTH_EMULATOR_HOST) {
      const loopback = !env.HOST || ["127.0.0.1", "localhost", "::1"].includes(env.HOST);
      if (!env.ENCHUFA_LOCAL || !loopback) {
        ctx.addIssue({
          code: "custom",
          path: ["FIREBASE_AUTH_EMULATOR_HOST"],
          message:
            "no se permite en producción: el emulador acepta tokens sin firmar (solo el modo local, en 127.0.0.1, puede usarlo)",
        });
      }
    }
  });

/** A URL only an emulator would have: not https, or a loopback / private-looking local host. */
export function isEmulatorUrl(value: string): boolean {
  const url = new URL(value);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return url.protocol !== "https:" || host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\./.test(host) || host === "0.0.0.0" || host.endsWith(".local");
}

export type Env = Omit<z.output<typeof schema>, "HOST"> & { HOST: string };

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuración inválida:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Validate the environment once at start; every missing or bad variable is named. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".") || "entorno"}: ${i.message}`));
  }
  const env = result.data;
  const HOST = env.HOST ?? (env.ENCHUFA_LOCAL || env.NODE_ENV !== "production" ? "127.0.0.1" : "0.0.0.0");
  return { ...env, HOST };
}
