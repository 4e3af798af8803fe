// Types shared by the API's app, middleware and routes.
import type { Context } from "hono";
import type { Channels, Db } from "../db/client";
import type { BusinessUser } from "../db/schema";
import type { KeyRing } from "../infra/crypto";
import type { SendPush } from "../infra/push";
import type { Logger } from "../infra/logger";
import type { CompanyCache } from "./company-cache";
import type { ChargerCommand, CommandResult } from "../ocpp/commands";
import type { LiveEvents } from "../ocpp/live";

/** What the API needs of the OCPP central system: commands to chargers and live events. */
export interface OcppGateway {
  sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandResult>;
  live: Pick<LiveEvents, "subscribe">;
}

export interface TokenClaims {
  uid: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

export type VerifyToken = (idToken: string) => Promise<TokenClaims>;


export interface ApiDeps {
  db: Db;
  /** firebase-admin `auth.verifyIdToken` (or a fake in tests). Throws on a bad token. */
  verifyToken: VerifyToken;
  /** Hex 32-byte keys (ENCRYPTION_KEY, comma separated): the first encrypts, all decrypt. */
  encryptionKeys: string[];
  /** e.g. https://enchufa.example — used for the chargers' OCPP URL. */
  publicOrigin?: string;
  logger?: Logger;
  /** Local mode: a newly registered company with a valid CUIT is ACTIVE at once. */
  autoApproveBusinesses?: boolean;
  /** Clock (tests). */
  now?: () => Date;
  /** Web push for new notifications (firebase-admin messaging when configured; a fake in tests). */
  sendPush?: SendPush;
  /** The OCPP central system (absent when the API runs without it, e.g. most API tests). */
  ocpp?: OcppGateway;
  /** Authenticated requests allowed per account and minute (default 600; the store is infra/rate-limit's). */
  accountRequestsPerMinute?: number;
  /** How long a company's period KPIs and charts, and its filters' option lists, are reused (api/company-cache.ts); default 0, always read. */
  companyCacheMs?: number;
  /** The database's channels: with them, a write drops the company's cached entries on every node. */
  channels?: Channels;
}

/** What routes get: the deps with defaults filled in. */
export interface ApiServices {
  db: Db;
  keyRing: KeyRing;
  publicOrigin?: string;
  logger: Logger;
  autoApproveBusinesses: boolean;
  now: () => Date;
  sendPush?: SendPush;
  ocpp?: OcppGateway;
  companyCache: CompanyCache;
}

export type AppEnv = {
  /** In-process calls from the dashboard carry their request's PageScope (see page-scope.ts). */
  Bindings: { pageScope?: unknown };
  Variables: {
    requestId: string;
    claims: TokenClaims;
    /** The caller's company, or null when it has not registered one yet. */
    business: BusinessUser | null;
    /** The idempotency middleware already ran for this request (it is mounted on two patterns). */
    idempotencyChecked: boolean;
  };
};

export type Ctx = Context<AppEnv>;

/** The caller's company, known to exist (routes behind requireBusiness/requireActive). */
export function tenant(c: Ctx): BusinessUser {
  const b = c.get("business");
  if (!b) throw new Error("tenant() used on a route without requireBusiness");
  return b;
}
