// A charger's last sign of life, for offline detection: any message counts, noted in memory and
// written in batches (one statement per 1,000 chargers), never one write per message.
import type { Db } from "../../db/client";
import type { Logger } from "../../infra/logger";
import type { createMessageLog } from "../message-log";
import { touchMany } from "../store";
import { sessionOf, type Client, type Session } from "./client";

/** Outside heartbeats, a charger's sign of life is noted at most this often. */
const NOTE_EVERY_MS = 30_000;

export function createSignsOfLife(o: { telemetry: Db; logger: Logger; now: () => Date; connections: Map<string, Client>; messageLog: ReturnType<typeof createMessageLog> }) {
  /** Charger id → its latest sign of life not yet written (see touchMany). */
  const signsOfLife = new Map<string, Date>();

  /** Notes a sign of life for the next batch; `force` (heartbeats) notes it even within NOTE_EVERY_MS of the last. */
  function note(session: Session, force: boolean) {
    const t = o.now();
    if (!force && t.getTime() - session.lastTouch < NOTE_EVERY_MS) return;
    session.lastTouch = t.getTime();
    signsOfLife.set(session.ref.id, t);
  }

  /**
   * Writes the signs of life noted since the last flush. A charger that is no longer there was
   * deleted while connected: its socket is closed, so it stops writing into the message log of a
   * charger nobody can see.
   */
  async function write() {
    if (signsOfLife.size === 0) return;
    const batch = [...signsOfLife];
    signsOfLife.clear();
    const found = await touchMany(o.telemetry, batch);
    if (found.size === batch.length) return;
    const gone = new Set(batch.flatMap(([id]) => (found.has(id) ? [] : [id])));
    for (const [identity, client] of o.connections) {
      const { ref } = sessionOf(client);
      if (!gone.has(ref.id)) continue;
      o.logger.info({ identity }, "OCPP: el cargador fue eliminado; se cierra su conexión");
      o.connections.delete(identity);
      void client.close({ code: 1008, reason: "Charger removed" });
    }
    await o.messageLog.discard([...gone]);
  }

  /**
   * One flush at a time, each after the one in flight: a caller (the sweep, the shutdown) then
   * sees the timer's writes too, e.g. a sign of life taken just before, or a deleted charger's
   * messages being discarded.
   */
  let inFlight: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    const run = inFlight.catch(() => {}).then(write);
    inFlight = run;
    return run;
  }

  return { note, flush };
}
