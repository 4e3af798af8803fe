// Each charger's recent OCPP messages, both directions, for troubleshooting. Every
// frame a socket sends or receives is noted in memory and written in batches (one statement per
// flush, like the signs of life), into a ring of OCPP_MESSAGES_KEPT rows per charger: the table
// holds at most that many per charger whatever the traffic, and nothing is ever deleted by a sweep.
// Secrets never reach it: passwords and authorization keys are redacted, and URLs lose their
// user info and Enchufá's upload tokens, before a payload is stored.
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { ocppMessages } from "../db/schema";
import { queryRows } from "../infra/sql";

/** Messages kept per charger. */
export const OCPP_MESSAGES_KEPT = 1_000;
/** A payload longer than this is stored cut, with a mark. */
export const OCPP_MESSAGE_PAYLOAD_MAX = 4_000;
const REDACTED = "•••";
/** Calls awaiting their answer, per socket, whose action a result is filed under. */
const PENDING_MAX = 256;

export type MessageDirection = "IN" | "OUT";

export interface LoggedMessage {
  chargerId: string;
  businessId: string;
  at: Date;
  direction: MessageDirection;
  messageType: number;
  messageId: string;
  action: string | null;
  payload: string;
}

/** Keys whose value is a secret wherever they appear. */
const SECRET_KEYS = /^(password|basicauthpassword|authorizationkey|secret|privatekey)$/i;
/** A configuration key or device-model variable naming a secret (its value is one). */
const SECRET_NAMES = /password|authorizationkey|secret|privatekey/i;

/** The payload with its secrets replaced by "•••" (a copy; the input is not touched). */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (typeof value === "string") return redactUrl(value);
  if (!value || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  // 1.6 configuration: { key: "AuthorizationKey", value: "…" }; 2.0.1 device model:
  // { variable: { name: "BasicAuthPassword" }, attributeValue: "…" } or variableAttribute[].value.
  const named = [o.key, (o.variable as { name?: unknown } | undefined)?.name].some((n) => typeof n === "string" && SECRET_NAMES.test(n));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (SECRET_KEYS.test(k) && v !== undefined && v !== null) out[k] = REDACTED;
    else if (named && (k === "value" || k === "attributeValue") && v !== undefined) out[k] = REDACTED;
    else if (named && k === "variableAttribute" && Array.isArray(v)) out[k] = v.map((a) => (a && typeof a === "object" ? { ...(a as object), ...("value" in a ? { value: REDACTED } : {}) } : a));
    else out[k] = redact(v);
  }
  return out;
}

/** A URL's user info (ftp://user:pass@…) and an upload token in Enchufá's own upload path. */
function redactUrl(s: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return s;
  return s.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, `$1${REDACTED}@`).replace(/(\/ChargerUpload\/[^/]+\/)[^/?#]+/, `$1${REDACTED}`);
}

/** The stored text of a payload: redacted JSON, cut at OCPP_MESSAGE_PAYLOAD_MAX characters. */
export function payloadText(payload: unknown): string {
  return cut(JSON.stringify(redact(payload ?? {})) ?? "{}");
}

/** A call seen going `direction`: its answer, coming the other way, is filed under its action. */
function rememberCall(pending: Map<string, string>, direction: MessageDirection, messageId: string, action: string) {
  if (pending.size >= PENDING_MAX) pending.delete(pending.keys().next().value as string);
  pending.set(`${direction}:${messageId}`, action);
}

/** The action of the call an answer going `direction` replies to (it went the other way), forgotten once read. */
function answeredCall(pending: Map<string, string>, direction: MessageDirection, messageId: string): string | null {
  const key = `${direction === "IN" ? "OUT" : "IN"}:${messageId}`;
  const action = pending.get(key) ?? null;
  pending.delete(key);
  return action;
}

/**
 * One OCPP-J frame read for the log, or null when it is not one (a garbled frame is still
 * answered by ocpp-rpc; the log keeps what it can read). `pending` maps call ids to actions so
 * that a result is filed under the call it answers.
 */
export function readFrame(raw: string, direction: MessageDirection, pending: Map<string, string>): Omit<LoggedMessage, "chargerId" | "businessId" | "at"> | null {
  const quick = readFrameQuickly(raw, direction, pending);
  if (quick) return quick;
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return { direction, messageType: 0, messageId: "", action: null, payload: raw.length > OCPP_MESSAGE_PAYLOAD_MAX ? `${raw.slice(0, OCPP_MESSAGE_PAYLOAD_MAX)}…` : raw };
  }
  if (!Array.isArray(frame) || typeof frame[0] !== "number") return null;
  const messageType = frame[0];
  const messageId = String(frame[1] ?? "");
  if (messageType === 2) {
    const action = String(frame[2] ?? "");
    rememberCall(pending, direction, messageId, action);
    return { direction, messageType, messageId, action, payload: payloadText(frame[3]) };
  }
  const action = answeredCall(pending, direction, messageId);
  if (messageType === 3) return { direction, messageType, messageId, action, payload: payloadText(frame[2]) };
  if (messageType === 4) return { direction, messageType, messageId, action, payload: payloadText({ errorCode: frame[2], errorDescription: frame[3], errorDetails: frame[4] }) };
  return null;
}

/** What may hold a secret or a URL: such payloads go through the full parse and redact(). */
const MAY_HOLD_SECRET = /password|authorizationkey|secret|privatekey|:\/\//i;
const CALL_HEAD = /^\[\s*2\s*,\s*"([^"\\]{1,64})"\s*,\s*"([A-Za-z0-9]{1,64})"\s*,([\s\S]*)\]\s*$/;
const RESULT_HEAD = /^\[\s*3\s*,\s*"([^"\\]{1,64})"\s*,([\s\S]*)\]\s*$/;

/**
 * Most frames (readings, heartbeats, their answers) hold nothing to redact: their head is read
 * with a regular expression and the payload is stored as it came, without parsing it — the log
 * sees every frame of every charger, and JSON.parse + stringify of each was its main cost.
 * Anything that might hold a secret or a URL, or does not look like a plain call or result,
 * returns null and takes the full path.
 */
function readFrameQuickly(raw: string, direction: MessageDirection, pending: Map<string, string>): Omit<LoggedMessage, "chargerId" | "businessId" | "at"> | null {
  if (MAY_HOLD_SECRET.test(raw)) return null;
  const call = CALL_HEAD.exec(raw);
  if (call) {
    const [, messageId, action, body] = call;
    rememberCall(pending, direction, messageId, action);
    return { direction, messageType: 2, messageId, action, payload: cut(body.trim()) };
  }
  const result = RESULT_HEAD.exec(raw);
  if (!result) return null;
  const [, messageId, body] = result;
  return { direction, messageType: 3, messageId, action: answeredCall(pending, direction, messageId), payload: cut(body.trim()) };
}

const cut = (json: string) => (json.length > OCPP_MESSAGE_PAYLOAD_MAX ? `${json.slice(0, OCPP_MESSAGE_PAYLOAD_MAX)}… (recortado, ${json.length} caracteres)` : json);

export interface MessageLog {
  /** A socket's frame (ocpp-rpc's 'message' event), noted for the next batch. */
  note(charger: { id: string; businessId: string }, raw: unknown, outbound: boolean, pending: Map<string, string>): void;
  /** Writes what was noted since the last flush (the timer does it every flushMs). */
  flush(): Promise<void>;
  /** Forgets a charger's counter (its socket closed: another node may take it next). */
  forget(chargerId: string): void;
  /**
   * Forgets deleted chargers altogether: what they sent since the last flush is dropped, and rows
   * a flush already in flight wrote after their delete trigger ran are removed once it ends.
   */
  discard(chargerIds: string[]): Promise<void>;
}

/**
 * The log's writer. The ring's counter per charger is read from the table the first time the
 * charger is flushed by this process (one query for all of a batch's newcomers), then kept in
 * memory while its socket is here.
 */
export function createMessageLog(db: Db, now: () => Date): MessageLog {
  let noted: LoggedMessage[] = [];
  let inFlight: Promise<void> | null = null;
  const counters = new Map<string, number>();

  async function loadCounters(ids: string[]) {
    if (ids.length === 0) return;
    const rows = await queryRows<{ charger_id: string; seq: string | number }>(
      db,
      sql`select charger_id, max(seq) as seq from ocpp_messages where ${inArray(ocppMessages.chargerId, ids)} group by charger_id`,
    );
    for (const id of ids) counters.set(id, 0);
    for (const r of rows) counters.set(r.charger_id, Number(r.seq));
  }

  /** Resolves once no flush is writing (a failed one counts as done: its caller logs it). */
  async function flushed() {
    while (inFlight) await inFlight.catch(() => {});
  }

  return {
    note(charger, raw, outbound, pending) {
      const text = typeof raw === "string" ? raw : Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw);
      const read = readFrame(text, outbound ? "OUT" : "IN", pending);
      if (read) noted.push({ chargerId: charger.id, businessId: charger.businessId, at: now(), ...read });
    },
    async flush() {
      // One flush at a time: a slow one (a busy database) makes the next wait and take what
      // piled up meanwhile, instead of two statements racing for the same chargers' slots.
      await flushed();
      if (noted.length === 0) return;
      const batch = noted;
      noted = [];
      inFlight = write(batch);
      try {
        await inFlight;
      } finally {
        inFlight = null;
      }
    },
    forget(chargerId) {
      counters.delete(chargerId);
    },
    async discard(chargerIds) {
      if (chargerIds.length === 0) return;
      const gone = new Set(chargerIds);
      for (const id of gone) counters.delete(id);
      noted = noted.filter((m) => !gone.has(m.chargerId));
      // A timer's flush may have taken their frames before this: its rows land after the
      // charger's delete trigger, with no foreign key to refuse them. The ids are never reused.
      await flushed();
      await db.execute(sql`delete from ocpp_messages where ${inArray(ocppMessages.chargerId, [...gone])}`);
    },
  };

  async function write(batch: LoggedMessage[]): Promise<void> {
    await loadCounters([...new Set(batch.map((m) => m.chargerId))].filter((id) => !counters.has(id)));
    // One row per ring slot: within a batch a later message takes the slot of an earlier one.
    const bySlot = new Map<string, typeof ocppMessages.$inferInsert>();
    for (const m of batch) {
      const seq = (counters.get(m.chargerId) ?? 0) + 1;
      counters.set(m.chargerId, seq);
      const slot = seq % OCPP_MESSAGES_KEPT;
      bySlot.set(`${m.chargerId}:${slot}`, { ...m, seq, slot });
    }
    const rows = [...bySlot.values()];
    // One statement with one array per column (unnest): building a thousand-row VALUES list
    // with drizzle blocked the event loop for tens of milliseconds every second under load.
    // sql.param: one array parameter (a bare array would be spread into a list of parameters).
    const col = <K extends keyof (typeof rows)[number]>(k: K) => sql.param(rows.map((r) => r[k]));
    await db.execute(sql`
      insert into ocpp_messages (charger_id, slot, business_id, seq, at, direction, message_type, message_id, action, payload)
      select * from unnest(
        ${col("chargerId")}::uuid[], ${col("slot")}::smallint[], ${col("businessId")}::uuid[], ${col("seq")}::bigint[],
        ${sql.param(rows.map((r) => (r.at as Date).toISOString()))}::timestamptz[], ${col("direction")}::text[], ${col("messageType")}::smallint[],
        ${col("messageId")}::text[], ${col("action")}::text[], ${col("payload")}::text[]
      )
      on conflict (charger_id, slot) do update set
        business_id = excluded.business_id, seq = excluded.seq, at = excluded.at, direction = excluded.direction,
        message_type = excluded.message_type, message_id = excluded.message_id, action = excluded.action, payload = excluded.payload`);
  }
}
