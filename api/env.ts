// Types shared by the API's app, middleware and routes.
import type { ArcaConfig } from "#infra/arca/gateway";
import type { ImageLimits } from "./image-quota";
import type { MaintenanceReply, MaintenanceRequest } from "../ocpp/maintenance";
import type { Context } from "hono";
import type { Channels, Db } from "../db/client";
import type { StableReads, WriteWatch } from "../db/write-watch";
import type { BusinessUser } from "../db/schema";
import type { KeyRing } from "../infra/crypto";
import type { SendPush } from "../infra/push";
import type { Logger } from "../infra/logger";
import type { CompanyCache } from "./company-cache";
import type { ChargerAnswer, ChargerCommand, CommandProtocol, CommandReply, OcppCallSpec, PasswordDelivery } from "../ocpp/commands";
import type { LiveEvents } from "../ocpp/live";
import type { Mailer } from "../infra/mail";
import type { Role } from "../domain/permissions";
import type { EndpointRule } from "#contract/endpoints";
import type { DriverPayments } from "../payments";
import type { Invoicing } from "../invoicing";
import type { OcpiClientOptions } from "../ocpi/client";
import type { OcpiServices } from "../ocpi/registration";

/** What the API needs of the OCPP central system: commands to chargers and live events. */
export interface OcppGateway {
  sendCommand(charger: { id: string; ocppIdentity: string }, command: ChargerCommand): Promise<CommandReply>;
  /** Gives a connected charger a new password; absent, rotation is manual only. */
  sendPassword?(charger: { id: string; ocppIdentity: string }, password: string): Promise<PasswordDelivery>;
  /** Firmware update or diagnostics request (ocpp/maintenance.ts); absent, the charger counts as offline. */
  sendMaintenance?(charger: { id: string; ocppIdentity: string }, request: MaintenanceRequest): Promise<MaintenanceReply>;
  /** One OCPP call built for the charger's protocol (reservations, local list, charging profiles); absent: every charger counts as offline. */
  callCharger?(charger: { id: string; ocppIdentity: string }, build: (protocol: CommandProtocol) => OcppCallSpec): Promise<ChargerAnswer>;
  /** Shares a station's grid capacity among its charging connectors now (load balancing, ADR 0018). */
  rebalanceStation?(stationId: string): Promise<void>;
  /** The price on the screens of connected chargers that show it, sent again after an operator's change (ocpp/price-display.ts). */
  refreshPrices?(filter: { rateIds?: string[]; chargerId?: string }): Promise<void>;
  // publish: an operator's write that changes what live screens show (closing a stuck session).
  live: Pick<LiveEvents, "subscribe" | "publish">;
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
  /**
   * The embedded database's statements (Database.writes): with it, the caller's companies and the
   * unread count are kept until a statement writes their tables. Absent (PostgreSQL): read every time.
   */
  writes?: WriteWatch;
  /** The database's channels: with them, a write drops the company's cached entries on every node. */
  channels?: Channels;
  /** Where invitation e-mails go (infra/mail): a provider in production, a local inbox in local mode and tests. */
  mailer?: Mailer;
  /** Product name in e-mails (APP_NAME). */
  appName?: string;
  /** Drivers paying at the charger: the one service of the process, shared with the central system (server.ts makes it). */
  driverPayments: DriverPayments;
  /** Electronic invoices (server.ts builds it with the ARCA gateway); absent: one with no company configured. */
  invoicing?: Invoicing;
  /** ARCA's web services: URLs (unset: ARCA's own for each company's environment), fetch and timeout (tests). */
  arca?: ArcaConfig;
  /** How roaming partners are called (ocpi/client.ts): fetch, timeout, plain http (tests, local mode). */
  ocpiClient?: OcpiClientOptions;
  /** Open /Business/Live streams per account and per client address on this node (LIVE_STREAMS_PER_ACCOUNT, LIVE_STREAMS_PER_IP). */
  liveStreamLimits?: LiveStreamLimits;
  /** Images per company and unreferenced uploads' grace period (api/image-quota.ts, ADR 0028). */
  imageLimits?: ImageLimits;
}

export interface LiveStreamLimits {
  perAccount: number;
  perAddress: number;
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
  /** Reads kept until their tables are written (ApiDeps.writes); without a watch, read every time. */
  stableReads: StableReads;
  mailer: Mailer;
  appName: string;
  /** OCPI roaming: the handshake with partners (ocpi/registration.ts). */
  ocpi: OcpiServices;
  invoicing: Invoicing;
  liveStreamLimits?: LiveStreamLimits;
  imageLimits?: ImageLimits;
  /** ARCA's web services (ARCA_WSAA_URL / ARCA_WSFE_URL, or ARCA's own per environment). */
  arca: ArcaConfig;
}

/** The caller's membership in the company the request acts for. */
export interface CallerMember {
  id: string;
  role: Role;
  email: string;
}

/** One of the caller's companies (GET /Account/Business lists them for the header's switcher). */
export interface MembershipSummary {
  memberId: string;
  businessId: string;
  businessName: string;
  status: BusinessUser["status"];
  role: Role;
}

export type AppEnv = {
  /**
   * In-process calls from the dashboard carry their request's PageScope (see page-scope.ts) and
   * the browser's address; over HTTP, server/http.ts passes the client's address (audit log).
   */
  Bindings: { pageScope?: unknown; clientIp?: string };
  Variables: {
    requestId: string;
    claims: TokenClaims;
    /**
     * The company the request acts for (the X-Enchufa-Business header, else the caller's default
     * company), or null when the caller belongs to none yet.
     */
    business: BusinessUser | null;
    /** The caller's membership in `business` (role), null with it. */
    member: CallerMember | null;
    /** Every company the caller belongs to. */
    memberships: MembershipSummary[];
    /** The access rule of the endpoint being served (api/access.ts). */
    rule: EndpointRule;
    /** An audit entry was written for this request (api/audit.ts). */
    audited: boolean;
    /** The idempotency middleware already ran for this request (it is mounted on two patterns). */
    idempotencyChecked: boolean;
    /**
     * Called by readJson with the validated body, before the handler acts on it: the audit of a
     * command writes its entry here (api/audit.ts), so nothing is sent when it cannot be written.
     */
    onValidInput: ((input: unknown) => Promise<void>) | undefined;
  };
};

export type Ctx = Context<AppEnv>;

/** The caller's company, known to exist (an endpoint whose rule names a company permission). */
export function tenant(c: Ctx): BusinessUser {
  const b = c.get("business");
  if (!b) throw new Error("tenant() used on an endpoint without a company permission");
  return b;
}
