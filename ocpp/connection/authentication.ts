// Who may open a socket: HTTP Basic auth on the WebSocket upgrade (OCPP security profile 1, or 2
// behind a TLS-terminating load balancer), the subprotocol, and how often an address and a
// charger may connect. Runs before any handler exists for the socket.
import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { chargers } from "../../db/schema";
import { verifyOcppPassword } from "../../infra/crypto";
import type { Logger } from "../../infra/logger";
import { keyedRate, type ConnectionLimit } from "../limits";
import type { LiveEvents } from "../live";
import { findChargerByIdentity, type ChargerAuthRow, type ChargerRef } from "../store";
import { OCPP_PATH, OCPP_PROTOCOLS, type Session } from "./client";

interface Handshake {
  endpoint: string;
  identity: string;
  password?: Buffer;
  protocols: Set<string>;
  remoteAddress?: string;
  headers: Record<string, string | string[] | undefined>;
}
type Accept = (session: Session, protocol: string) => void;
type Reject = (code: number, message: string) => void;

export interface Authenticator {
  /** ocpp-rpc's auth callback: accepts the socket with its Session, or rejects it with an HTTP status. */
  authenticate(accept: Accept, reject: Reject, handshake: Handshake): Promise<void>;
  /** Drops the connection counters that refilled completely (the same as none). */
  prune(): void;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest();

export function createAuthenticator(o: { db: Db; logger: Logger; live: LiveEvents; connectionLimit: ConnectionLimit; trustProxy?: boolean }): Authenticator {
  const { db, logger, live } = o;
  const connectsPerCharger = keyedRate(o.connectionLimit.perChargerPerMinute);
  const connectsPerAddress = keyedRate(o.connectionLimit.perAddressPerMinute);
  // A verified password is remembered (as a digest, with the hash it matched) so reconnects, and
  // hashes written with a slower algorithm, are not verified again; rotating the password
  // changes the hash and voids the entry.
  const verified = new Map<string, { hash: string; digest: Buffer }>();

  /** Whether `password` is the one `hash` was made of, through the cache under `key`. */
  async function sameAs(key: string, hash: string, password: string): Promise<boolean> {
    const digest = sha256(password);
    const known = verified.get(key);
    if (known && known.hash === hash) return timingSafeEqual(known.digest, digest);
    const ok = await verifyOcppPassword(password, hash);
    if (ok) verified.set(key, { hash, digest });
    return ok;
  }

  /**
   * Which of the charger's passwords this is: the current one, or the one before a rotation the
   * charger accepted but may not use yet (ADR 0031).
   */
  async function passwordMatches(row: ChargerAuthRow, password: string): Promise<"current" | "previous" | false> {
    if (row.passwordHash && (await sameAs(row.id, row.passwordHash, password))) return "current";
    if (row.previousPasswordHash && (await sameAs(`${row.id}:previous`, row.previousPasswordHash, password))) return "previous";
    return false;
  }

  /**
   * The charger connected with its current password: the one before it (kept since a rotation)
   * stops opening. Only if the current password is still the one it used (a rotation may have
   * happened meanwhile).
   */
  async function retirePreviousPassword(row: ChargerAuthRow) {
    if (!row.previousPasswordHash || !row.passwordHash) return;
    await db
      .update(chargers)
      .set({ ocppPreviousPasswordHash: null })
      .where(and(eq(chargers.id, row.id), eq(chargers.ocppPasswordHash, row.passwordHash)));
    verified.delete(`${row.id}:previous`);
    logger.info({ identity: row.ocppIdentity }, "OCPP: el cargador se conectó con la contraseña nueva; la anterior dejó de valer");
    live.publish(row.businessId, { kind: "charger", chargerId: row.id });
  }

  /** The client's address: the socket's, or behind a trusted proxy the first X-Forwarded-For. */
  function clientAddress(handshake: Handshake): string {
    const forwarded = o.trustProxy ? String(handshake.headers["x-forwarded-for"] ?? "").split(",")[0].trim() : "";
    return (forwarded || handshake.remoteAddress || "unknown").replace(/^::ffff:/, "");
  }

  async function authenticate(accept: Accept, reject: Reject, handshake: Handshake) {
    const ip = clientAddress(handshake);
    const log = { identity: handshake.identity, ip };
    try {
      if (handshake.endpoint !== OCPP_PATH) return reject(404, "Not found");
      // Every attempt from an address counts, before any database read (floods, password guessing).
      if (!connectsPerAddress.take(ip)) {
        logger.warn(log, "OCPP: demasiadas conexiones desde la misma dirección, rechazada");
        return reject(429, "Too many connections");
      }
      const protocol = OCPP_PROTOCOLS.find((p) => handshake.protocols.has(p));
      if (!protocol) {
        logger.warn(log, "OCPP: conexión sin el subprotocolo ocpp2.0.1 ni ocpp1.6, rechazada");
        return reject(400, "Subprotocol ocpp2.0.1 or ocpp1.6 required");
      }
      const row = await findChargerByIdentity(db, handshake.identity);
      const password = handshake.password?.toString("utf8");
      const matched = row && password ? await passwordMatches(row, password) : false;
      if (!row || !matched) {
        logger.warn({ ...log, known: Boolean(row) }, "OCPP: autenticación rechazada");
        return reject(401, "Unauthorized");
      }
      // Counted once authenticated: someone without the password cannot use up a charger's connections.
      if (!connectsPerCharger.take(row.ocppIdentity)) {
        logger.warn(log, "OCPP: el cargador se reconecta demasiado seguido, conexión rechazada");
        return reject(429, "Too many connections");
      }
      if (matched === "current") await retirePreviousPassword(row);
      else logger.info(log, "OCPP: el cargador se conectó con la contraseña anterior; la nueva sigue pendiente");
      const ref: ChargerRef = { id: row.id, businessId: row.businessId, name: row.name, ocppIdentity: row.ocppIdentity };
      accept({ ref, protocol, lastTouch: 0 } satisfies Session, protocol);
    } catch (err) {
      logger.error({ ...log, err: err instanceof Error ? err.message : String(err) }, "OCPP: error al autenticar");
      reject(503, "Service unavailable");
    }
  }

  return {
    authenticate,
    prune() {
      connectsPerCharger.prune();
      connectsPerAddress.prune();
    },
  };
}
