// GET /Business/Live: server-sent events for the caller's company while a dashboard page is
// open ("a charger/connector/session changed"); the page then reloads its own data. Only the
// kind of change travels, never the data, so nothing here can leak past the loaders' scoping.
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { businessMembers } from "#db/schema";
import { tenant, type ApiServices, type AppEnv } from "../env";
import type { LiveEvent } from "#ocpp/live";

/** A comment line every 25 s keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;
/** Streams end after an hour; EventSource reconnects by itself (and re-checks the session). */
const MAX_STREAM_MS = 60 * 60_000;

/** How often an open stream checks that its member still belongs to the company (issue 26). */
const MEMBERSHIP_CHECK_MS = 10_000;

export function liveRoutes({ ocpp, db }: ApiServices) {
  const r = new Hono<AppEnv>();
  r.get("/", (c) => {
    const b = tenant(c);
    const member = c.get("member");
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
      const deadline = Date.now() + MAX_STREAM_MS;
      try {
        await stream.writeSSE({ event: "ready", data: "{}", retry: 5_000 });
        while (open && !stream.aborted && !stream.closed && Date.now() < deadline) {
          if (queue.length === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, KEEPALIVE_MS).unref?.();
            });
            wake = undefined;
          }
          if (!open || !(await stillMember())) break;
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
      }
    });
  });
  return r;
}
