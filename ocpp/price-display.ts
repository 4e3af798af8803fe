// The price on the charger's own screen, for chargers whose «Mostrar precio en el cargador» is on
// (contract showsPrice: AUTO means OCPP 2.0.1 only). ADR 0051.
//
// - OCPP 2.0.1: SetDisplayMessage with the price in force after each BootNotification, again when
//   the band changes (the message ends then) and when the operator changes the rate; during a
//   session the TransactionEvent answer carries the running cost as `updatedPersonalMessage`
//   and, at the end, `totalCost` (the protocol allows it only once charging has ended);
//   CostUpdated carries the running cost too, where the charger implements it.
// - OCPP 1.6: the Open Charge Alliance's California Pricing DataTransfer messages (vendor
//   "org.openchargealliance.costmsg"): SetUserPrice after an accepted Authorize, RunningCost
//   after meter values, FinalCost once the session is priced.
//
// Showing the price never stands in a session's way: every call goes out after the charger's
// answer, and what comes back is only read to stop asking a charger that cannot show it (its
// `price_display_refused`, cleared when the operator saves the setting). Texts and amounts come
// from domain/charger-price, the same rule as the stored price.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { chargers, chargingSessions, connectors, rates, stations } from "../db/schema";
import { companyHolidays, dueRateChanges, withChanges } from "../db/rate-schedules";
import type { Logger } from "../infra/logger";
import { finalCostText, ocppAmount, priceNow, priceText, runningCostCents, runningCostText, type PriceNow } from "../domain/charger-price";
import { isArgentineHoliday } from "../domain/holidays.server";
import { DEFAULT_TIME_ZONE, rateSnapshotFromRow, type RateSnapshot } from "../domain/pricing";
import { showsPrice, type PriceDisplayMode } from "../contract/schemas/charger-constants";
import type { OcppProtocol } from "../domain/ocpp-protocol";
import type { ChargerAnswer } from "./commands";
import type { Deliver } from "./outbound/router";
import type { ChargerRef } from "./store";

export const COST_VENDOR_ID = "org.openchargealliance.costmsg";
/** The display message ids this module owns on a 2.0.1 charger: one per EVSE (or 0 for all). */
const MESSAGE_ID_BASE = 9_100;
/** How long a charger's setting is trusted before it is read again. */
const SETTING_TTL_MS = 10_000;
/** A running cost pushed on its own (CostUpdated, RunningCost) at most this often per charger. */
const RUNNING_COST_EVERY_MS = 60_000;
/** A band change is re-announced only when it comes within this long (the timer stays short). */
const REFRESH_WITHIN_MS = 24 * 3_600_000;

/** An answer that says the charger cannot show the price at all (not a passing failure). */
const REFUSALS = new Set(["NotSupportedMessageFormat", "NotSupportedPriority", "NotSupportedState", "Rejected", "UnknownVendorId", "UnknownMessageId", "NotImplemented", "NotSupported"]);

export interface PriceDisplay {
  /** A 2.0.1 charger booted: its screen gets the price in force. */
  booted(ref: ChargerRef): void;
  /** Anything the operator changed about prices: connected chargers using these rates (or this charger) get it again. */
  refresh(filter: { rateIds?: string[]; chargerId?: string }): Promise<void>;
  /** The 2.0.1 TransactionEvent answer's price fields (empty when the charger shows no price). */
  transactionAnswer(ref: ChargerRef, event: { eventType: string; transactionId: string }): Promise<Record<string, unknown>>;
  /** 1.6: an accepted Authorize: the driver's price (SetUserPrice). */
  authorized16(ref: ChargerRef, idTag: string): void;
  /** 1.6: meter values of a transaction were recorded: its running cost (RunningCost). */
  metered16(ref: ChargerRef, transactionId: number): void;
  /** 1.6: the transaction stopped, or a connector moved (the unplug that prices it): FinalCost once priced. */
  stopped16(ref: ChargerRef, transactionId?: number): void;
  close(): void;
}

interface SessionRow {
  id: string;
  status: string;
  energyWh: number;
  meterStartWh: number;
  startedAt: Date;
  chargingEndedAt: Date | null;
  rateSnapshot: RateSnapshot | null;
  totalCents: number;
  transactionId: number;
  timeZone: string | null;
}

type Options = { db: Db; logger: Logger; deliver: Deliver; now: () => Date };

export function createPriceDisplay(o: Options): PriceDisplay {
  const core = createCore(o);
  const v201 = displayMessages201(core, o);
  return { ...v201, ...californiaPricing16(core, o) };
}

type Core = ReturnType<typeof createCore>;

/** What both protocols share: the charger's setting, reading its answers, the session and its running cost. */
function createCore({ db, logger, now }: Options) {
  const settings = new Map<string, { mode: PriceDisplayMode; refused: boolean; at: number }>();
  const lastPush = new Map<string, number>();
  const clockOf = (timeZone: string | null) => ({ timeZone: timeZone ?? DEFAULT_TIME_ZONE, isHoliday: isArgentineHoliday });

  /**
   * Whether the charger shows the price, read with the protocol of the socket it speaks on (the
   * row's protocol may not be written yet when a fresh connection boots).
   */
  async function enabled(ref: ChargerRef, protocol: OcppProtocol): Promise<boolean> {
    let setting = settings.get(ref.id);
    if (!setting || Date.now() - setting.at >= SETTING_TTL_MS) {
      const [row] = await db.select({ mode: chargers.priceDisplay, refused: chargers.priceDisplayRefused }).from(chargers).where(eq(chargers.id, ref.id));
      setting = { mode: row?.mode ?? "OFF", refused: row?.refused ?? true, at: Date.now() };
      settings.set(ref.id, setting);
    }
    return showsPrice(setting.mode, protocol) && !setting.refused;
  }

  /** Reads what came back: a refusal marks the charger so it is not asked again. */
  async function heard(ref: ChargerRef, what: string, answer: ChargerAnswer) {
    const word = answer.kind === "answer" ? answer.status : answer.kind === "rpc-error" ? answer.code : undefined;
    if (answer.kind === "answer" && (word === undefined || word === "Accepted")) return;
    if (!word || !REFUSALS.has(word)) {
      logger.info({ identity: ref.ocppIdentity, what, answer: answer.kind }, "OCPP: el cargador no recibió el precio; se reintenta en la próxima ocasión");
      return;
    }
    settings.set(ref.id, { mode: "OFF", refused: true, at: Date.now() });
    await db.update(chargers).set({ priceDisplayRefused: true }).where(eq(chargers.id, ref.id));
    logger.info({ identity: ref.ocppIdentity, what, status: word }, "OCPP: el cargador no puede mostrar el precio; no se le envía más hasta que se guarde la opción");
  }

  /** After the charger's answer is out: a failure is logged and never reaches the session. */
  function later(ref: ChargerRef, what: string, run: () => Promise<void>) {
    setTimeout(() => run().catch((err) => logger.warn({ identity: ref.ocppIdentity, what, err: String(err) }, "OCPP: no se pudo enviar el precio al cargador")), 0);
  }

  /** The rate in force now per connector of the charger, scheduled changes due and the company's local holidays included (as a session's snapshot takes them). */
  async function connectorRates(chargerId: string) {
    const at = now();
    const rows = await db
      .select({ connectorId: connectors.connectorId, rate: rates, due: dueRateChanges(rates.id, at), holidays: companyHolidays(rates.businessId), timeZone: stations.timeZone })
      .from(connectors)
      .innerJoin(chargers, eq(chargers.id, connectors.chargerId))
      .innerJoin(rates, and(eq(rates.id, connectors.rateId), eq(rates.businessId, chargers.businessId)))
      .leftJoin(stations, eq(stations.id, chargers.stationId))
      .where(eq(connectors.chargerId, chargerId))
      .orderBy(connectors.connectorId);
    return rows.map((r) => ({ connectorId: r.connectorId, rate: rateSnapshotFromRow(withChanges(r.rate, r.due), r.holidays), timeZone: r.timeZone }));
  }

  async function sessionOf(ref: ChargerRef, key: { transactionId: number } | { ocppTransactionId: string }): Promise<SessionRow | undefined> {
    const where =
      "transactionId" in key
        ? and(eq(chargingSessions.chargerId, ref.id), eq(chargingSessions.transactionId, key.transactionId))
        : and(eq(chargingSessions.chargerId, ref.id), eq(chargingSessions.ocppTransactionId, key.ocppTransactionId));
    const [row] = await db
      .select({
        id: chargingSessions.id,
        status: sql<string>`${chargingSessions.status}::text`,
        energyWh: chargingSessions.energyWh,
        meterStartWh: chargingSessions.meterStartWh,
        startedAt: chargingSessions.startedAt,
        chargingEndedAt: chargingSessions.chargingEndedAt,
        rateSnapshot: chargingSessions.rateSnapshot,
        totalCents: chargingSessions.totalCents,
        transactionId: chargingSessions.transactionId,
        timeZone: stations.timeZone,
      })
      .from(chargingSessions)
      .leftJoin(stations, eq(stations.id, chargingSessions.stationId))
      .where(where)
      .limit(1);
    return row;
  }

  return {
    clockOf,
    enabled,
    heard,
    later,
    connectorRates,
    sessionOf,
    forget: (chargerId: string) => settings.delete(chargerId),
    running: (s: SessionRow) => (s.rateSnapshot ? runningCostCents(s.rateSnapshot, s, now(), clockOf(s.timeZone)) : 0),
    /** A running cost pushed on its own is due for this charger (at most once a minute). */
    pushDue(ref: ChargerRef) {
      const t = Date.now();
      if (t - (lastPush.get(ref.id) ?? 0) < RUNNING_COST_EVERY_MS) return false;
      lastPush.set(ref.id, t);
      return true;
    },
  };
}

/** OCPP 2.0.1: display messages, the TransactionEvent answers and CostUpdated. */
function displayMessages201(core: Core, { db, logger, deliver, now }: Options): Pick<PriceDisplay, "booted" | "refresh" | "transactionAnswer" | "close"> {
  const { enabled, heard, later, clockOf } = core;
  const noCostUpdated = new Set<string>();
  const timers = new Map<string, NodeJS.Timeout>();

  /** SetDisplayMessage of the price in force: one message for the charger, or one per EVSE when their prices differ. */
  async function showPrice201(ref: ChargerRef) {
    if (!(await enabled(ref, "ocpp2.0.1"))) return;
    const at = now();
    const list = (await core.connectorRates(ref.id)).map((c) => ({ ...c, text: priceText(c.rate, at, clockOf(c.timeZone)), price: priceNow(c.rate, at, clockOf(c.timeZone)) }));
    if (list.length === 0) return;
    const same = list.every((c) => c.text === list[0].text);
    const messages = same ? [{ ...list[0], connectorId: 0 }] : list;
    let nextChange: Date | null = null;
    for (const m of messages) {
      const ends = m.price.next?.at ?? null;
      if (ends && (!nextChange || ends < nextChange)) nextChange = ends;
      const answer = await deliver(ref, () => ({ method: "SetDisplayMessage", params: { message: displayMessage(m.connectorId, m.text, ends) } }));
      await heard(ref, "SetDisplayMessage", answer);
      if (!(answer.kind === "answer" && answer.status === "Accepted")) return;
    }
    scheduleRefresh(ref, nextChange);
  }

  /** At the next band edge the message above ends: the new price is sent then, while the charger stays on this node. */
  function scheduleRefresh(ref: ChargerRef, at: Date | null) {
    clearTimeout(timers.get(ref.id));
    timers.delete(ref.id);
    if (!at) return;
    const wait = at.getTime() - now().getTime() + 1_000;
    if (wait <= 0 || wait > REFRESH_WITHIN_MS) return;
    const timer = setTimeout(() => later(ref, "SetDisplayMessage", () => showPrice201(ref)), wait);
    timer.unref();
    timers.set(ref.id, timer);
  }

  return {
    booted(ref) {
      later(ref, "SetDisplayMessage", () => showPrice201(ref));
    },

    async refresh(filter) {
      if (filter.chargerId) core.forget(filter.chargerId);
      const rows = await db
        .selectDistinct({ id: chargers.id, businessId: chargers.businessId, name: chargers.name, ocppIdentity: chargers.ocppIdentity })
        .from(chargers)
        .innerJoin(connectors, eq(connectors.chargerId, chargers.id))
        .where(
          and(
            eq(chargers.online, true),
            eq(chargers.ocppProtocol, "ocpp2.0.1"),
            filter.chargerId ? eq(chargers.id, filter.chargerId) : undefined,
            filter.rateIds ? sql`${connectors.rateId} in (${sql.join(filter.rateIds.map((id) => sql`${id}::uuid`), sql`, `)})` : undefined,
          ),
        );
      for (const ref of rows) {
        core.forget(ref.id);
        await showPrice201(ref).catch((err) => logger.warn({ identity: ref.ocppIdentity, err: String(err) }, "OCPP: no se pudo enviar el precio al cargador"));
      }
    },

    async transactionAnswer(ref, event) {
      if (!(await enabled(ref, "ocpp2.0.1"))) return {};
      const s = await core.sessionOf(ref, { ocppTransactionId: event.transactionId });
      if (!s?.rateSnapshot) return {};
      if (event.eventType === "Started") return { updatedPersonalMessage: content(priceText(s.rateSnapshot, now(), clockOf(s.timeZone))) };
      if (s.status === "COMPLETED") return { totalCost: ocppAmount(s.totalCents), updatedPersonalMessage: content(finalCostText(s.totalCents, s.energyWh)) };
      if (s.status !== "ACTIVE" && s.status !== "IDLE") return {};
      const cost = core.running(s);
      if (event.eventType === "Updated" && !noCostUpdated.has(ref.id) && core.pushDue(ref)) {
        later(ref, "CostUpdated", async () => {
          const answer = await deliver(ref, () => ({ method: "CostUpdated", params: { totalCost: ocppAmount(cost), transactionId: event.transactionId } }));
          // CostUpdated is optional in the protocol: a charger without it still gets the running cost in the answers.
          if (answer.kind === "rpc-error" && (answer.code === "NotImplemented" || answer.code === "NotSupported")) noCostUpdated.add(ref.id);
        });
      }
      return { updatedPersonalMessage: content(runningCostText(cost, s.energyWh)) };
    },

    close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
}

/** OCPP 1.6: the Open Charge Alliance's California Pricing DataTransfer messages. */
function californiaPricing16(core: Core, { deliver, now }: Options): Pick<PriceDisplay, "authorized16" | "metered16" | "stopped16"> {
  const { enabled, heard, later, clockOf } = core;
  const pendingFinal = new Map<string, Set<number>>();

  /** One DataTransfer of the cost message vendor, its data a JSON string. */
  async function costMessage(ref: ChargerRef, messageId: string, data: Record<string, unknown>) {
    const answer = await deliver(ref, () => ({ method: "DataTransfer", params: { vendorId: COST_VENDOR_ID, messageId, data: JSON.stringify(data) } }));
    await heard(ref, messageId, answer);
  }

  async function finalCost(ref: ChargerRef, transactionId: number) {
    const s = await core.sessionOf(ref, { transactionId });
    if (!s || s.status === "ACTIVE" || s.status === "IDLE") return; // priced at the unplug: asked again then
    pendingFinal.get(ref.id)?.delete(transactionId);
    if (s.status !== "COMPLETED") return;
    await costMessage(ref, "FinalCost", { transactionId, cost: ocppAmount(s.totalCents), priceText: finalCostText(s.totalCents, s.energyWh) });
  }

  return {
    authorized16(ref, idTag) {
      later(ref, "SetUserPrice", async () => {
        if (!(await enabled(ref, "ocpp1.6"))) return;
        const [first] = await core.connectorRates(ref.id);
        if (!first) return;
        await costMessage(ref, "SetUserPrice", { idToken: idTag, priceText: priceText(first.rate, now(), clockOf(first.timeZone)) });
      });
    },

    metered16(ref, transactionId) {
      later(ref, "RunningCost", async () => {
        if (!(await enabled(ref, "ocpp1.6"))) return;
        const s = await core.sessionOf(ref, { transactionId });
        if (!s?.rateSnapshot || (s.status !== "ACTIVE" && s.status !== "IDLE") || !core.pushDue(ref)) return;
        const at = now();
        await costMessage(ref, "RunningCost", {
          transactionId,
          timestamp: at.toISOString(),
          meterValue: s.meterStartWh + s.energyWh,
          cost: ocppAmount(core.running(s)),
          state: s.status === "ACTIVE" ? "Charging" : "Idle",
          ...californiaPrices(priceNow(s.rateSnapshot, at, clockOf(s.timeZone))),
        });
      });
    },

    stopped16(ref, transactionId) {
      if (transactionId !== undefined) pendingFinal.set(ref.id, (pendingFinal.get(ref.id) ?? new Set()).add(transactionId));
      const pending = [...(pendingFinal.get(ref.id) ?? [])];
      if (pending.length === 0) return;
      later(ref, "FinalCost", async () => {
        if (!(await enabled(ref, "ocpp1.6"))) {
          pendingFinal.delete(ref.id);
          return;
        }
        for (const id of pending) await finalCost(ref, id);
      });
    },
  };
}

/** A text for the charger's screen: UTF-8 (the texts have accents), in Spanish. */
function content(text: string) {
  return { format: "UTF8", language: "es", content: text.slice(0, 512) };
}

/** The 2.0.1 MessageInfo of the price: for the whole charger (0) or one EVSE, until the next band edge. */
function displayMessage(evseId: number, text: string, endsAt: Date | null) {
  return {
    id: MESSAGE_ID_BASE + evseId,
    priority: "NormalCycle",
    message: content(text),
    ...(endsAt ? { endDateTime: endsAt.toISOString() } : {}),
    ...(evseId > 0 ? { display: { name: "DisplayMessageCtrlr", evse: { id: evseId } } } : {}),
  };
}

/** California Pricing's price objects: amounts in pesos, VAT included; per hour where the rate says per minute. */
function californiaPrices(p: PriceNow) {
  const charging = (x: { perKwhCents: number; perMinuteCents: number }) => ({ kWhPrice: ocppAmount(x.perKwhCents), hourPrice: ocppAmount(x.perMinuteCents * 60), flatFee: ocppAmount(p.sessionFeeCents) });
  const idlePrice = p.idle ? { graceMinutes: p.idle.graceMinutes, hourPrice: ocppAmount(p.idle.perMinuteCents * 60) } : { graceMinutes: 0, hourPrice: 0 };
  return {
    chargingPrice: charging(p.now),
    idlePrice,
    ...(p.next ? { nextPeriod: { atTime: p.next.at.toISOString(), chargingPrice: charging(p.next.prices), idlePrice } } : {}),
  };
}
