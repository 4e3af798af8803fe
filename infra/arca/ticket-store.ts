// WSAA access tickets in the database (arca_access_tickets), so a restarted process or another
// node uses the ticket WSAA already gave instead of asking a second one, which WSAA refuses while
// the first is valid. Token and sign are secrets: sealed with the key ring, bound to their key;
// a ticket that no longer opens (its encryption key left the ring) is as good as none.
import { and, eq, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { arcaAccessTickets } from "../../db/schema";
import type { KeyRing } from "../crypto";
import type { AccessTicket, TicketStore } from "./client";

const aad = (key: string) => `arca-ticket:${key}`;

/** A ticket's token and sign sealed bound to its key, so a ciphertext copied to another key's row does not open. */
export function sealTicketSecret(ring: KeyRing, key: string, plain: string): string {
  return ring.encrypt(plain, aad(key));
}

export function openTicketSecret(ring: KeyRing, key: string, sealed: string): string {
  return ring.decrypt(sealed, aad(key));
}

export function dbTicketStore(db: Db, ring: KeyRing): TicketStore {
  return {
    async get(key) {
      const [row] = await db.select().from(arcaAccessTickets).where(eq(arcaAccessTickets.key, key));
      if (!row?.ticketSealed || !row.expiresAt) return null;
      try {
        const { token, sign } = JSON.parse(openTicketSecret(ring, key, row.ticketSealed)) as Omit<AccessTicket, "expiresAt">;
        return { token, sign, expiresAt: row.expiresAt };
      } catch {
        return null;
      }
    },
    async set(key, ticket) {
      const values = {
        ticketSealed: ticket ? sealTicketSecret(ring, key, JSON.stringify({ token: ticket.token, sign: ticket.sign })) : null,
        expiresAt: ticket?.expiresAt ?? null,
        loginUntil: null,
        waitUntil: null,
      };
      await db
        .insert(arcaAccessTickets)
        .values({ key, ...values })
        .onConflictDoUpdate({ target: arcaAccessTickets.key, set: { ...values, updatedAt: new Date() } });
    },
    async claimLogin(key, now, leaseMs) {
      await db.insert(arcaAccessTickets).values({ key }).onConflictDoNothing();
      const [before] = await db.select().from(arcaAccessTickets).where(eq(arcaAccessTickets.key, key));
      // One conditional update decides between processes: the claim is free and no refusal's wait runs.
      const [claimed] = await db
        .update(arcaAccessTickets)
        .set({ loginStartedAt: now, loginUntil: new Date(now.getTime() + leaseMs), waitUntil: null })
        .where(
          and(
            eq(arcaAccessTickets.key, key),
            or(isNull(arcaAccessTickets.loginUntil), lt(arcaAccessTickets.loginUntil, now)),
            or(isNull(arcaAccessTickets.waitUntil), lte(arcaAccessTickets.waitUntil, now)),
          ),
        )
        .returning({ key: arcaAccessTickets.key });
      if (claimed) return { claimed: true, previousLoginAt: before?.loginStartedAt ?? null };
      const [row] = await db.select({ waitUntil: arcaAccessTickets.waitUntil }).from(arcaAccessTickets).where(eq(arcaAccessTickets.key, key));
      return { claimed: false, waitUntil: row?.waitUntil && row.waitUntil > now ? row.waitUntil : null };
    },
    async endLogin(key, waitUntil) {
      await db.update(arcaAccessTickets).set({ loginUntil: null, waitUntil }).where(eq(arcaAccessTickets.key, key));
    },
  };
}
