// What the invoicing service is built from and the context its functions take. The one place
// ARCA comes in is `gateway` (domain/arca-port.ts): server startup builds it, tests pass a fake.
import type { Db } from "../db/client";
import type { Logger } from "../infra/logger";
import type { Mailer } from "../infra/mail";
import type { SendPush } from "../infra/push";
import type { LiveEvents } from "../ocpp/live";
import type { InvoicingGateway } from "../domain/arca-port";

export interface InvoicingDeps {
  db: Db;
  gateway: InvoicingGateway;
  logger: Logger;
  /** The driver's invoice e-mail; absent: no e-mail (the invoice is still on the receipt page). */
  mailer?: Mailer;
  appName?: string;
  /** The operator's notifications (the certificate's expiry) reach their browsers and open screens with these. */
  sendPush?: SendPush;
  live?: Pick<LiveEvents, "publish">;
  now?: () => Date;
  /** How long a series' lease lasts (ms): longer than any ARCA call may take. */
  leaseMs?: number;
}

export interface InvoicingContext extends Omit<InvoicingDeps, "now" | "leaseMs"> {
  now: () => Date;
  leaseMs: number;
}

/** Longer than the ARCA client's own timeouts (WSAA login plus FECAESolicitar), so a live holder is never overtaken. */
export const DEFAULT_LEASE_MS = 120_000;

export function invoicingContext(deps: InvoicingDeps): InvoicingContext {
  return { ...deps, now: deps.now ?? (() => new Date()), leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS };
}

/** The date in Argentina (UTC−3 all year) of an instant, as ARCA writes dates: YYYY-MM-DD. */
export function argentineDate(at: Date): string {
  return new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

/** The wait before the next attempt after `attempts` failed ones: 30 s doubling, at most 30 min. */
export function backoffMs(attempts: number): number {
  return Math.min(30 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}
