// GET /Business/Live: server-sent events for the caller's company while a dashboard page is
// open ("a charger/connector/session changed"); the page then reloads its own data. Only the
// kind of change travels, never the data, so nothing here can leak past the loaders' scoping.
// A stream holds a connection and a subscription for up to an hour: each account and each client
// address may hold only so many at once on a node, and a stream ends when its token expires.
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { businessMembers } from "#db/schema";
import { clientIpOf } from "../audit";
import { tenant, type ApiServices, type AppEnv, type Ctx } from "../env";
import { ApiError } from "../problem";
import type { LiveEvent } from "#ocpp/live";

/** A comment line every 25 s keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;
/** Streams end after an hour; EventSource reconnects by itself (and re-checks the session). */
const MAX_STREAM_MS = 60 * 60_000;

/** How often an open stream checks that its member still belongs to the company. */
const MEMBERSHIP_CHECK_MS = 10_000;

/** Open streams per account and per client address on one node (LIVE_STREAMS_PER_ACCOUNT / _PER_IP). */
export const DEFAULT_LIVE_STREAM_LIMITS = { perAccount: 10, perAddress: 50 };
/** What a refused stream is told to wait: an open page's stream ends within the hour, a closed one at once. */
const RETRY_AFTER_S = 30;
export const TOO_MANY_STREAMS_MESSAGE = "Hay demasiadas pantallas abiertas con datos en vivo. Cerrá alguna y probá de nuevo en un rato.";

/** Counts open streams by key; a stream takes its slots before it opens and gives them back once, when it ends. */
class OpenStreams {
  private readonly open = new Map<string, number>();

  take(keys: [string, number][]): (() => void) | null {
    if (keys.some(([key, limit]) => (this.open.get(key) ?? 0) >= limit)) return null;
    for (const [key] of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [key] of keys) {
        const n = (this.open.get(key) ?? 1) - 1;
        if (n > 0) this.open.set(key, n);
        else this.open.delete(key);
      }
    };
  }
}

/**
 * When the caller's ID token expires (ms), from its `exp` claim: the verifier's claims when they
 * carry it, else the payload of the bearer token identify() has just verified (its signature
 * covers the payload, so reading it is safe). Undefined for a token that is not a JWT.
 */
export function tokenExpiresAt(c: Ctx): number | undefined {
  const claimed = (c.get("claims") as { exp?: unknown } | undefined)?.exp;
  if (typeof claimed === "number") return claimed * 1000;
  const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
  const payload = token?.split(".")[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export function liveRoutes({ ocpp, db, liveStreamLimits }: ApiServices) {
  const limits = liveStreamLimits ?? DEFAULT_LIVE_STREAM_LIMITS;
  const streams = new OpenStreams();
  const r = new Hono<AppEnv>();
  r.get("/", (c) => {
    const b = tenant(c);
    const member = c.get("member");
    const address = clientIpOf(c);
    const keys: [string, number][] = [[`account:${c.get("claims").uid}`, limits.perAccount]];
    if (address) keys.push([`address:${address}`, limits.perAddress]);
    const release = streams.take(keys);
    if (!release) throw new ApiError(429, "rate-limited", TOO_MANY_STREAMS_MESSAGE, { headers: { "Retry-After": String(RETRY_AFTER_S) } });
    // The stream ends when the token does: EventSource reconnects through a fresh session.
    const endsAt = Math.min(Date.now() + MAX_STREAM_MS, tokenExpiresAt(c) ?? Infinity);
    let checkedAt = Date.now();
    // A member removed while the page is open: the stream ends (the page's next load is refused).
    const stillMember = async () => {
      if (!member || Date.now() - checkedAt < MEMBERSHIP_CHECK_MS) return true;
      checkedAt = Date.now();
      const [row] = await db
        .select({ id: businessMembers.id })
        .from(businessMembers)
        .where(and(eq(businessMembers.id, member.id), eq(businessMembers.businessId, b.id)))
        .limit(1);
      return !!row;
    };
    c.header("Cache-Control", "no-store");
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      const queue: LiveEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = ocpp?.live.subscribe(b.id, (event) => {
        queue.push(event);
        wake?.();
      });
      let open = true;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: "ready", data: "{}", retry: 5_000 });
        while (open && !stream.aborted && !stream.closed && Date.now() < endsAt) {
          if (queue.length === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, Math.min(KEEPALIVE_MS, endsAt - Date.now())).unref?.();
            });
            wake = undefined;
          }
          if (!open || Date.now() >= endsAt || !(await stillMember())) break;
          if (queue.length === 0) {
            await stream.write(": keepalive\n\n");
            continue;
          }
          // Bursts (a charger booting reports every connector) go out as one event per kind.
          const kinds = new Set(queue.splice(0).map((e) => e.kind));
          for (const kind of kinds) await stream.writeSSE({ event: "change", data: JSON.stringify({ kind }) });
        }
      } finally {
        unsubscribe?.();
        release();
      }
    });
  });
  return r;
}
