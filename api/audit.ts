// The audit log: who (account, role), what (action, resource, the fields that changed,
// before → after), when and from which address, per company. Never a secret: credentials, OCPP
// passwords and their hashes, tokens are not part of any snapshot, and every key that looks like
// one is dropped again before writing.
//
// One place per resource: each resource has a `snapshot` (the fields the log records) here, and
// each write endpoint names its resource and verb in the access table (api/access.ts: `audit`).
// The access guard then reads the snapshot before the handler runs and after it succeeded, and
// writes the difference (`auditRequest`). Handlers whose change is not "this resource of the
// caller's company" (joining a company, registering one, an ownership transfer's second member)
// call `recordAudit` themselves and are marked `audit: "handler"`.
import { and, asc, eq, getTableColumns, isNull, type Table } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  accessGroups,
  accessGroupStations,
  auditLog,
  rfidTags,
  businessInvitations,
  businessMembers,
  businessUsers,
  chargerBrands,
  chargers,
  chargingSessions,
  connectors,
  connectorTypes,
  invoices,
  ocpiPartners,
  fiscalSettings,
  paymentAccounts,
  payments,
  rates,
  rateSchedules,
  reservations,
  services as serviceTable,
  stations,
  stationServices,
  type AuditChange,
} from "../db/schema";
import { auditFieldLabel, type AuditResource } from "../domain/audit";
import { DEFAULT_TIME_ZONE } from "../domain/pricing";
import { refundOwed } from "../domain/driver-payment";
import { formatArs } from "../domain/money";
import { formatInvoiceNumber, INVOICE_TYPE_LABELS, type InvoiceType } from "../domain/invoice";
import type { ApiServices, Ctx } from "./env";
import type { AuditSpec } from "#contract/endpoints";
import { CONNECTOR_FORMAT_LABELS, POWER_TYPE_LABELS, PRICE_DISPLAY_LABELS, RECEIVER_TAX_CONDITION_LABELS, type PaymentProviderCode } from "#contract/schemas/constants";

export type { AuditResource };


type Snapshot = Record<string, unknown>;

/** Any key that looks like a secret is never written, wherever it comes from. */
const SECRET_KEY = /pass(word)?|secret|token|credential|api_?key|hash|authorization|cookie/i;

export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSecrets) as T;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!SECRET_KEY.test(k)) out[k] = withoutSecrets(v);
    return out as T;
  }
  return value;
}

interface ResourceAudit {
  snapshot(db: Db, businessId: string, id: string): Promise<Snapshot | null>;
  label(s: Snapshot): string | null;
}

const pick = <T extends object>(row: T, keys: (keyof T)[]): Snapshot => Object.fromEntries(keys.map((k) => [k, row[k] ?? null]));

// ---- Which stored fields each entry records ------------------------------------------------
//
// Every column of an audited table is either recorded (under its own name or the one given in
// `recorded`) or left out on purpose, with the reason. Where a snapshot reads its row whole
// (stations, rates, tags, the company profile), it records every column not left out, so a
// column added later is audited by default; the others are held to the same list by a test.

type ColumnName<T extends Table> = Extract<keyof T["_"]["columns"], string>;

/** Left out of every snapshot: the entry itself says which company, which resource and when. */
const ENTRY_FIELDS = {
  id: "the entry's resource id",
  businessId: "the entry's company",
  createdAt: "the entry's own date",
  updatedAt: "the entry's own date",
} as const;

const REPORTED_BY_CHARGER = "reported by the charger or the central system, not a change someone made";

export interface AuditedTable<T extends Table = Table> {
  /** Whose entries record this table's rows. */
  resource: AuditResource;
  table: T;
  /** Columns recorded under another name (a foreign key as the name it points to). */
  recorded: Partial<Record<ColumnName<T>, string>>;
  /** Columns recorded by no snapshot, and why. */
  notRecorded: Partial<Record<ColumnName<T>, string>>;
}

const audited = <T extends Table>(resource: AuditResource, table: T, spec: Omit<AuditedTable<T>, "table" | "resource">): AuditedTable<T> => ({ resource, table, ...spec });

/** The columns of a table a whole-row snapshot records: all but the ones left out. */
function recordedColumns<T extends Table>(spec: AuditedTable<T>): ColumnName<T>[] {
  return (Object.keys(getTableColumns(spec.table)) as ColumnName<T>[]).filter((k) => !(k in spec.notRecorded) && !(k in spec.recorded));
}

const STATION_COLUMNS = audited("station", stations, { recorded: {}, notRecorded: { ...ENTRY_FIELDS } });
const RATE_COLUMNS = audited("rate", rates, { recorded: {}, notRecorded: { ...ENTRY_FIELDS } });
const TAG_COLUMNS = audited("tag", rfidTags, { recorded: { groupId: "group" }, notRecorded: { ...ENTRY_FIELDS } });
const PROFILE_COLUMNS = audited("profile", businessUsers, {
  recorded: {},
  notRecorded: { id: "the entry's company", firebaseUid: "the owner's sign-in account id, an internal reference", createdAt: ENTRY_FIELDS.createdAt, updatedAt: ENTRY_FIELDS.updatedAt },
});

const FISCAL_COLUMNS = audited("fiscal_settings", fiscalSettings, {
  recorded: {},
  notRecorded: {
    ...ENTRY_FIELDS,
    certificateEncrypted: "a secret; a new certificate shows as its CUIT, expiry and fingerprint",
    keyEncrypted: "a secret; it changes with its certificate",
    expiryWarnedAt: "when the expiry notification went out, not a change someone made",
    lastTestAt: "trying the connection is not a change of the settings",
    lastTestOk: "trying the connection is not a change of the settings",
    lastTestMessage: "trying the connection is not a change of the settings",
  },
});

/** For the audit's coverage test: every audited table and what its entries record. */
export const AUDITED_TABLES: Record<string, AuditedTable> = {
  stations: STATION_COLUMNS,
  rates: RATE_COLUMNS,
  rateSchedules: audited("rate", rateSchedules, {
    recorded: { effectiveFrom: "scheduled", changes: "scheduled" },
    notRecorded: {
      ...ENTRY_FIELDS,
      rateId: "the entry's resource is the rate",
      createdBy: "the entry's actor",
      appliedAt: "the sweep writes the change into the rate: the rate's own fields record it",
    },
  }),
  rfidTags: TAG_COLUMNS,
  businessUsers: PROFILE_COLUMNS,
  chargers: audited("charger", chargers, {
    recorded: { stationId: "station", brandId: "brand" },
    notRecorded: {
      ...ENTRY_FIELDS,
      ocppPasswordHash: "a secret; a new password is its own entry (charger.password)",
      ocppPreviousPasswordHash: "a secret, kept by the central system until the charger uses the new one",
      ocppProtocol: "negotiated by the charger when it connects",
      vendor: REPORTED_BY_CHARGER,
      bootModel: REPORTED_BY_CHARGER,
      firmwareVersion: REPORTED_BY_CHARGER,
      lastBootReason: REPORTED_BY_CHARGER,
      iccid: REPORTED_BY_CHARGER,
      imsi: REPORTED_BY_CHARGER,
      meterType: REPORTED_BY_CHARGER,
      meterSerial: REPORTED_BY_CHARGER,
      lastBootAt: REPORTED_BY_CHARGER,
      lastHeartbeatAt: REPORTED_BY_CHARGER,
      firmwareLocation: "a firmware update is its own entry (charger.firmware)",
      firmwareRequestedAt: "a firmware update is its own entry (charger.firmware)",
      firmwareStatus: REPORTED_BY_CHARGER,
      firmwareStatusAt: REPORTED_BY_CHARGER,
      online: REPORTED_BY_CHARGER,
      connectedNode: "which server node holds the charger's connection",
      localListVersion: "sending the local list is its own entry (charger.local_list)",
      localListAt: "sending the local list is its own entry (charger.local_list)",
      smartCharging: REPORTED_BY_CHARGER,
      priceDisplayRefused: REPORTED_BY_CHARGER,
    },
  }),
  connectors: audited("charger", connectors, {
    recorded: { connectorId: "connectors", connectorTypeId: "connectors", format: "connectors", powerType: "connectors", maxPowerKw: "connectors", rateId: "connectors" },
    notRecorded: {
      id: "a connector is named by its number",
      chargerId: "recorded within its charger's entry",
      status: REPORTED_BY_CHARGER,
      errorCode: REPORTED_BY_CHARGER,
      statusAt: REPORTED_BY_CHARGER,
      allocatedKw: "the load balancer's current share, not a change someone made",
      allocationStatus: "the load balancer's current share, not a change someone made",
      allocatedAt: "the load balancer's current share, not a change someone made",
      allocatedTransactionId: "the load balancer's current share, not a change someone made",
      createdAt: ENTRY_FIELDS.createdAt,
      updatedAt: ENTRY_FIELDS.updatedAt,
    },
  }),
  accessGroups: audited("access_group", accessGroups, {
    recorded: { rateId: "rate" },
    notRecorded: { ...ENTRY_FIELDS, billingSince: "follows from switching monthly invoicing on, which billingMonthly records" },
  }),
  paymentAccounts: audited("payment_account", paymentAccounts, {
    recorded: { credentialsLast4: "last4" },
    notRecorded: { ...ENTRY_FIELDS, credentialsEncrypted: "a secret", lastError: "the provider's last answer, not a change someone made" },
  }),
  businessMembers: audited("member", businessMembers, {
    recorded: {},
    notRecorded: { ...ENTRY_FIELDS, firebaseUid: "the member's sign-in account id, an internal reference", lastSignInAt: "signing in is not a change" },
  }),
  businessInvitations: audited("invitation", businessInvitations, {
    recorded: { acceptedAt: "status", revokedAt: "status" },
    notRecorded: {
      ...ENTRY_FIELDS,
      tokenHash: "a secret",
      invitedByUid: "the entry's actor",
      invitedByEmail: "the entry's actor",
      sentAt: "a resend is its own entry (invitation.resend)",
      acceptedByUid: "joining is its own entry (member.join)",
    },
  }),
  fiscalSettings: FISCAL_COLUMNS,
  ocpiPartners: audited("roaming_partner", ocpiPartners, {
    recorded: {},
    notRecorded: {
      ...ENTRY_FIELDS,
      incomingTokenHash: "a secret",
      incomingTokenKind: "which of the partner's tokens is in use, set by the credentials exchange",
      outgoingTokenEncrypted: "a secret",
      version: "negotiated with the partner",
      endpoints: "negotiated with the partner",
      lastSyncAt: "the synchronisation's progress, not a change someone made",
      failures: "the synchronisation's progress, not a change someone made",
      lastError: "the synchronisation's progress, not a change someone made",
      pushClaim: "which node pushes to the partner",
      pushClaimedUntil: "which node pushes to the partner",
    },
  }),
};

const RESOURCES: Record<AuditResource, ResourceAudit> = {
  station: {
    async snapshot(db, businessId, id) {
      const [row] = await db.select().from(stations).where(and(eq(stations.id, id), eq(stations.businessId, businessId))).limit(1);
      if (!row) return null;
      const codes = await db
        .select({ code: serviceTable.code })
        .from(stationServices)
        .innerJoin(serviceTable, eq(serviceTable.id, stationServices.serviceId))
        .where(eq(stationServices.stationId, id))
        .orderBy(asc(serviceTable.code));
      return {
        ...pick(row, recordedColumns(STATION_COLUMNS)),
        services: codes.map((c) => c.code),
      };
    },
    label: (s) => (s.name as string) ?? null,
  },
  charger: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ charger: chargers, station: stations.name, brand: chargerBrands.name })
        .from(chargers)
        .leftJoin(stations, eq(stations.id, chargers.stationId))
        .leftJoin(chargerBrands, eq(chargerBrands.id, chargers.brandId))
        .where(and(eq(chargers.id, id), eq(chargers.businessId, businessId)))
        .limit(1);
      if (!row) return null;
      const list = await db
        .select({ connectorId: connectors.connectorId, standard: connectorTypes.label, format: connectors.format, powerType: connectors.powerType, maxPowerKw: connectors.maxPowerKw, rate: rates.name })
        .from(connectors)
        .innerJoin(connectorTypes, eq(connectorTypes.id, connectors.connectorTypeId))
        .leftJoin(rates, eq(rates.id, connectors.rateId))
        .where(eq(connectors.chargerId, id))
        .orderBy(asc(connectors.connectorId));
      const c = row.charger;
      return {
        name: c.name,
        station: row.station ?? null,
        brand: row.brand ?? null,
        model: c.model ?? null,
        serialNumber: c.serialNumber ?? null,
        ocppIdentity: c.ocppIdentity,
        enabled: c.enabled,
        heartbeatInterval: c.heartbeatInterval,
        priceDisplay: PRICE_DISPLAY_LABELS[c.priceDisplay],
        // As the charger's form names them (Toma, AC trifásica, 7,4 kW).
        connectors: list.map(
          (k) =>
            `${k.connectorId}: ${k.standard} · ${CONNECTOR_FORMAT_LABELS[k.format as keyof typeof CONNECTOR_FORMAT_LABELS] ?? k.format} · ${POWER_TYPE_LABELS[k.powerType as keyof typeof POWER_TYPE_LABELS] ?? k.powerType} · ${Number(k.maxPowerKw).toLocaleString("es-AR")} kW · ${k.rate ?? "sin tarifa"}`,
        ),
      };
    },
    label: (s) => (s.name as string) ?? null,
  },
  rate: {
    async snapshot(db, businessId, id) {
      const [row] = await db.select().from(rates).where(and(eq(rates.id, id), eq(rates.businessId, businessId))).limit(1);
      if (!row) return null;
      // Its pending scheduled changes are part of the rate: scheduling or cancelling one shows here.
      const pending = await db
        .select()
        .from(rateSchedules)
        .where(and(eq(rateSchedules.rateId, id), eq(rateSchedules.businessId, businessId), isNull(rateSchedules.appliedAt)))
        .orderBy(asc(rateSchedules.effectiveFrom));
      return { ...pick(row, recordedColumns(RATE_COLUMNS)), scheduled: pending.map(scheduleLine) };
    },
    label: (s) => (s.name as string) ?? null,
  },
  tag: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ tag: rfidTags, group: accessGroups.name })
        .from(rfidTags)
        .leftJoin(accessGroups, eq(accessGroups.id, rfidTags.groupId))
        .where(and(eq(rfidTags.id, id), eq(rfidTags.businessId, businessId)))
        .limit(1);
      return row ? { ...pick(row.tag, recordedColumns(TAG_COLUMNS)), group: row.group ?? null } : null;
    },
    label: (s) => (s.idTag ? `${s.idTag as string} · ${s.holderName as string}` : null),
  },
  access_group: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ group: accessGroups, rate: rates.name })
        .from(accessGroups)
        .leftJoin(rates, eq(rates.id, accessGroups.rateId))
        .where(and(eq(accessGroups.id, id), eq(accessGroups.businessId, businessId)))
        .limit(1);
      if (!row) return null;
      const list = await db
        .select({ name: stations.name })
        .from(accessGroupStations)
        .innerJoin(stations, eq(stations.id, accessGroupStations.stationId))
        .where(eq(accessGroupStations.groupId, id))
        .orderBy(asc(stations.name));
      const g = row.group;
      return {
        name: g.name,
        allStations: g.allStations,
        stations: list.map((x) => x.name),
        rate: row.rate ?? null,
        billingCuit: g.billingCuit,
        billingName: g.billingName,
        billingTaxCondition: g.billingTaxCondition ? RECEIVER_TAX_CONDITION_LABELS[g.billingTaxCondition] : null,
        billingMonthly: g.billingMonthly,
      };
    },
    label: (s) => (s.name as string) ?? null,
  },
  payment_account: {
    async snapshot(db, businessId, provider) {
      const [row] = await db
        .select({ provider: paymentAccounts.provider, accountLabel: paymentAccounts.accountLabel, last4: paymentAccounts.credentialsLast4, status: paymentAccounts.status })
        .from(paymentAccounts)
        .where(and(eq(paymentAccounts.businessId, businessId), eq(paymentAccounts.provider, provider as PaymentProviderCode)))
        .limit(1);
      return row ? { ...row } : null;
    },
    label: (s) => ({ MERCADOPAGO: "Mercado Pago", PAGOS360: "Pagos360" })[s.provider as string] ?? null,
  },
  // The company's ARCA settings: what it chose and which certificate it uploaded (named by its
  // CUIT, expiry and fingerprint), never the certificate or the key themselves.
  fiscal_settings: {
    async snapshot(db, businessId) {
      const [row] = await db.select().from(fiscalSettings).where(eq(fiscalSettings.businessId, businessId)).limit(1);
      if (!row) return null;
      return { ...pick(row, recordedColumns(FISCAL_COLUMNS)), certificateExpiresAt: row.certificateExpiresAt?.toISOString() ?? null };
    },
    label: () => "Facturación electrónica",
  },
  // A driver's QR payment: only a refund recorded by hand is audited (Pagos360, ADR 0017).
  payment: {
    async snapshot(db, businessId, id) {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
      const [row] = await db
        .select({ p: payments, station: stations.name })
        .from(payments)
        .leftJoin(stations, and(eq(stations.id, payments.stationId), eq(stations.businessId, businessId)))
        .where(and(eq(payments.id, id), eq(payments.businessId, businessId)))
        .limit(1);
      if (!row) return null;
      const p = row.p;
      return {
        provider: p.provider,
        externalId: p.externalId ?? null,
        station: row.station ?? null,
        amountCents: p.amountCents,
        chargedCents: p.chargedCents ?? null,
        refundedCents: p.refundedCents,
        refundOwedCents: p.step === "REFUND_PENDING" ? refundOwed(p) : 0,
        status: p.status,
        step: p.step ?? null,
      };
    },
    label: (s) =>
      [({ MERCADOPAGO: "Mercado Pago", PAGOS360: "Pagos360" } as Record<string, string>)[s.provider as string], typeof s.amountCents === "number" ? formatArs(s.amountCents) : null, s.station as string | null]
        .filter(Boolean)
        .join(" · ") || null,
  },
  // An electronic voucher: only the operator's retry is audited (the rest is ARCA's answer).
  invoice: {
    async snapshot(db, businessId, id) {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
      const [row] = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.id, id), eq(invoices.businessId, businessId)))
        .limit(1);
      if (!row) return null;
      return { type: row.type, pointOfSale: row.pointOfSale, number: row.number, status: row.status, totalCents: row.totalCents, cae: row.cae, lastError: row.lastError };
    },
    label: (s) =>
      [typeof s.type === "number" ? INVOICE_TYPE_LABELS[s.type as InvoiceType] : "Comprobante", typeof s.pointOfSale === "number" && typeof s.number === "number" ? formatInvoiceNumber(s.pointOfSale, s.number) : null, typeof s.totalCents === "number" ? formatArs(s.totalCents) : null]
        .filter(Boolean)
        .join(" · ") || null,
  },
  profile: {
    async snapshot(db, businessId) {
      const [row] = await db.select().from(businessUsers).where(eq(businessUsers.id, businessId)).limit(1);
      return row ? pick(row, recordedColumns(PROFILE_COLUMNS)) : null;
    },
    label: (s) => (s.businessName as string) ?? null,
  },
  member: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ email: businessMembers.email, role: businessMembers.role })
        .from(businessMembers)
        .where(and(eq(businessMembers.id, id), eq(businessMembers.businessId, businessId)))
        .limit(1);
      return row ? { ...row } : null;
    },
    label: (s) => (s.email as string) ?? null,
  },
  invitation: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select()
        .from(businessInvitations)
        .where(and(eq(businessInvitations.id, id), eq(businessInvitations.businessId, businessId)))
        .limit(1);
      if (!row) return null;
      const status = row.acceptedAt ? "Aceptada" : row.revokedAt ? "Revocada" : "Pendiente";
      return { email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString(), status };
    },
    label: (s) => (s.email as string) ?? null,
  },
  roaming_partner: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ name: ocpiPartners.name, countryCode: ocpiPartners.countryCode, partyId: ocpiPartners.partyId, status: ocpiPartners.status, versionsUrl: ocpiPartners.versionsUrl })
        .from(ocpiPartners)
        .where(and(eq(ocpiPartners.id, id), eq(ocpiPartners.businessId, businessId)))
        .limit(1);
      return row ? { ...row } : null;
    },
    label: (s) => (s.partyId ? `${s.countryCode as string}*${s.partyId as string}${s.name ? ` · ${s.name as string}` : ""}` : "Invitación pendiente"),
  },
  session: {
    // Only closes are audited (details mode): the snapshot names the session in the log.
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ startedAt: chargingSessions.startedAt, status: chargingSessions.status, connectorNumber: chargingSessions.connectorNumber, charger: chargers.name })
        .from(chargingSessions)
        .leftJoin(chargers, eq(chargers.id, chargingSessions.chargerId))
        .where(and(eq(chargingSessions.id, id), eq(chargingSessions.businessId, businessId)))
        .limit(1);
      return row ? { startedAt: row.startedAt.toISOString(), status: row.status, charger: row.charger, connectorNumber: row.connectorNumber } : null;
    },
    label: (s) => {
      const started = typeof s.startedAt === "string" ? new Date(s.startedAt) : null;
      const when = started ? new Intl.DateTimeFormat("es-AR", { timeZone: DEFAULT_TIME_ZONE, dateStyle: "short", timeStyle: "short" }).format(started) : "";
      return [s.charger ? `${s.charger as string} · conector ${s.connectorNumber as number}` : null, when].filter(Boolean).join(", ") || null;
    },
  },
  // A reservation: the tag, where and until when, and its state (details mode).
  reservation: {
    async snapshot(db, businessId, id) {
      const [row] = await db
        .select({ r: reservations, charger: chargers.name })
        .from(reservations)
        .leftJoin(chargers, eq(chargers.id, reservations.chargerId))
        .where(and(eq(reservations.id, id), eq(reservations.businessId, businessId)))
        .limit(1);
      return row ? { idTag: row.r.idTag, charger: row.r.chargerId ? row.charger : null, connectorNumber: row.r.connectorNumber, expiresAt: row.r.expiresAt.toISOString(), status: row.r.status } : null;
    },
    label: (s) => [s.idTag as string, s.charger ? `${s.charger as string} · conector ${s.connectorNumber as number}` : null].filter(Boolean).join(" · ") || null,
  },
};

const scheduleInstant = new Intl.DateTimeFormat("es-AR", { timeZone: DEFAULT_TIME_ZONE, dateStyle: "short", timeStyle: "short", hourCycle: "h23" });
const MONEY_FIELD = /Cents$/;

/** A scheduled change as the log reads it: «Desde 29/11/26, 00:00: Precio por kWh $ 420,00». */
function scheduleLine(s: { effectiveFrom: Date; changes: Record<string, unknown> }): string {
  const parts = Object.entries(s.changes).map(([k, v]) => `${auditFieldLabel(k)} ${typeof v === "number" && MONEY_FIELD.test(k) ? formatArs(v) : JSON.stringify(v)}`);
  return `Desde ${scheduleInstant.format(s.effectiveFrom)}: ${parts.join("; ")}`;
}

/** The fields whose value differs (compared as JSON); a creation lists every field, a deletion too. */
export function diffSnapshots(before: Snapshot | null, after: Snapshot | null): Record<string, AuditChange> {
  const out: Record<string, AuditChange> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const b = before ? (before[key] ?? null) : null;
    const a = after ? (after[key] ?? null) : null;
    if (JSON.stringify(b) !== JSON.stringify(a)) out[key] = { before: b, after: a };
  }
  return withoutSecrets(out);
}

/** The caller's address: the browser's (in-process from the dashboard) or the HTTP client's. */
export function clientIpOf(c: Ctx): string | null {
  const ip = (c.env as { clientIp?: unknown } | undefined)?.clientIp;
  return typeof ip === "string" && ip ? ip.replace(/^::ffff:/, "") : null;
}

export interface AuditRecord {
  /** Default: the company of the request. */
  businessId?: string;
  action: string;
  resourceType: AuditResource;
  resourceId?: string | null;
  resourceLabel?: string | null;
  changes?: Record<string, AuditChange>;
  /** Default: the caller's role in the request's company. */
  actorRole?: string | null;
}

/** Writes one entry for the caller (handlers with their own audit call this). */
export async function recordAudit(services: Pick<ApiServices, "db">, c: Ctx, entry: AuditRecord): Promise<void> {
  if (!(entry.businessId ?? c.get("business")?.id)) return;
  await insertAudit(services, c, entry);
}

/** Writes one entry and answers its id. */
async function insertAudit(services: Pick<ApiServices, "db">, c: Ctx, entry: AuditRecord): Promise<string> {
  const businessId = entry.businessId ?? c.get("business")?.id;
  if (!businessId) throw new Error("auditoría: un registro sin empresa");
  const claims = c.get("claims");
  const [row] = await services.db
    .insert(auditLog)
    .values({
      businessId,
      actorUid: claims.uid,
      actorEmail: (claims.email ?? c.get("member")?.email ?? "").toLowerCase(),
      actorRole: (entry.actorRole === undefined ? (c.get("member")?.role ?? null) : entry.actorRole) as never,
      action: entry.action,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId ?? null,
      resourceLabel: entry.resourceLabel ? auditValue(entry.resourceLabel) : null,
      changes: auditValue(withoutSecrets(entry.changes ?? {})),
      ip: clientIpOf(c),
      requestId: c.get("requestId") ?? null,
    })
    .returning({ id: auditLog.id });
  c.set("audited", true);
  return row.id;
}

/** A recorded text's longest length; a value nested deeper than AUDIT_MAX_DEPTH is summarised. */
const AUDIT_MAX_TEXT = 2000;
const AUDIT_MAX_DEPTH = 8;

/**
 * A value as the log can always store it: no NUL or other control character (PostgreSQL's text
 * and jsonb refuse a NUL, and a refused insert would lose the entry), texts cut at
 * AUDIT_MAX_TEXT, nesting bounded. Dates become ISO strings, as in JSON.
 */
export function auditValue<T>(value: T, depth = 0): T {
  if (typeof value === "string") {
    // eslint-disable-next-line no-control-regex
    const clean = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "");
    return (clean.length > AUDIT_MAX_TEXT ? `${clean.slice(0, AUDIT_MAX_TEXT)}…` : clean) as T;
  }
  if (value instanceof Date) return (Number.isNaN(value.getTime()) ? null : value.toISOString()) as T;
  if (value && typeof value === "object") {
    if (depth >= AUDIT_MAX_DEPTH) return "…" as T;
    if (Array.isArray(value)) return value.map((v) => auditValue(v, depth + 1)) as T;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [auditValue(k), auditValue(v, depth + 1)])) as T;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return null as T;
  return value;
}

function paramFrom(routePath: string, actualPath: string, name = "id"): string | null {
  const names: string[] = [];
  const pattern = routePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\?:(\w+)/g, (_, n: string) => {
    names.push(n);
    return "([^/]+)";
  });
  const m = new RegExp(`^${pattern}/?$`).exec(actualPath);
  const i = names.indexOf(name);
  return m && i >= 0 ? decodeURIComponent(m[i + 1]).toLowerCase() : null;
}

async function bodyJson(c: Ctx): Promise<Record<string, unknown> | null> {
  try {
    // Hono keeps the text, so the handler reads the same body again.
    const text = await c.req.text();
    const value = text.trim() ? (JSON.parse(text) as unknown) : null;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Writes whose handler waits for someone else before writing cannot hold a transaction open for
 * that wait: a charger accepting its new OCPP password, a roaming partner answering the
 * credentials handshake (which calls back into this server). On PGlite the wait would hold the
 * only connection — every other request and charger message, and the partner's call back, would
 * wait for it. Their entry follows the write, as commands' answers do.
 */
const WAITS_ON_OTHERS = new Set(["charger.password", "roaming_partner.create"]);

/** Verbs whose request may change nothing (a form saved as it was, a repricing's preview): no entry then. */
const SKIPPED_WHEN_UNCHANGED = new Set(["update", "reprice"]);

/** Whether the access guard runs this audited write and its entry in one transaction. */
export function auditedAtomically(spec: AuditSpec): boolean {
  return !spec.details && !WAITS_ON_OTHERS.has(`${spec.resource}.${spec.action}`);
}

/**
 * Around a write endpoint with an AuditSpec: snapshot before, run it, snapshot after a 2xx
 * (not an idempotent replay), write one entry per resource whose recorded fields changed (a
 * creation, deletion or command always). The access guard runs all of it in one transaction
 * (`auditedAtomically`), so an entry that cannot be written (logged, then thrown) undoes the
 * write; outside one, the failure is logged. Commands (`details`) are recorded by `auditCommand`.
 */
export async function auditRequest(services: ApiServices, c: Ctx, spec: AuditSpec, routePath: string, next: () => Promise<void>): Promise<void> {
  const business = c.get("business");
  if (!business) return next();
  if (spec.details) return auditCommand(services, c, spec, spec.details, routePath, next);
  const resource = RESOURCES[spec.resource];
  const how = spec.id ?? "param";
  let ids: string[] = [];
  if (how === "param") ids = [paramFrom(routePath, c.req.path)].filter((x): x is string => !!x && UUID.test(x));
  else if (how === "company") ids = [business.id];
  else if (typeof how === "object" && "fixed" in how) ids = [how.fixed];
  else if (typeof how === "object" && "bodyList" in how) {
    const list = (await bodyJson(c))?.[how.bodyList];
    ids = Array.isArray(list) ? [...new Set(list.filter((x): x is string => typeof x === "string" && UUID.test(x)).map((x) => x.toLowerCase()))].slice(0, 500) : [];
  }
  const before = new Map<string, Snapshot | null>();
  for (const id of ids) before.set(id, await resource.snapshot(services.db, business.id, id));

  await next();

  const res = c.res;
  // Not done, a replay of a done one, or the handler wrote its own entries (an ownership transfer).
  if (res.status < 200 || res.status >= 300 || res.headers.get("Idempotent-Replayed") || c.get("audited")) return;
  if (how === "response") {
    const answer = await answerOf(res);
    if (typeof answer?.id === "string") ids = [answer.id];
  }

  const action = `${spec.resource}.${spec.action}`;
  for (const id of ids) {
    const after = await resource.snapshot(services.db, business.id, id);
    const changes = diffSnapshots(before.get(id) ?? null, after);
    if (SKIPPED_WHEN_UNCHANGED.has(spec.action) && Object.keys(changes).length === 0) continue; // saved unchanged, or a preview
    const seen = after ?? before.get(id) ?? null;
    const entry: AuditRecord = { action, resourceType: spec.resource, resourceId: id, resourceLabel: seen ? resource.label(seen) : null, changes };
    try {
      await recordAudit(services, c, entry);
    } catch (err) {
      const atomic = auditedAtomically(spec);
      services.logger.error({ err: err instanceof Error ? err.message : String(err), audit: { ...entry, businessId: business.id } }, atomic ? "auditoría: no se pudo registrar un cambio; se deshace" : "auditoría: no se pudo registrar un cambio");
      if (atomic) throw err;
    }
  }
}

/** What an entry of this resource would record of it now (for the audit's coverage test). */
export function auditSnapshot(db: Db, businessId: string, resource: AuditResource, id: string): Promise<Snapshot | null> {
  return RESOURCES[resource].snapshot(db, businessId, id);
}

async function answerOf(res: Response): Promise<Record<string, unknown> | null> {
  try {
    const value = (await res.clone().json()) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A command to a charger (and a session close) cannot share a database transaction with the
 * charger's answer, so its entry is written BEFORE the handler acts: once when the request is
 * let through, then with what was asked — the body as the handler's schema validated it
 * (readJson's hook; unknown fields are dropped, never stored raw) — before the command goes out.
 * If either write fails, the handler stops there and the command is not sent. After a 2xx the
 * entry gets the answer's fields; a request refused (4xx) or failed before acting leaves no entry.
 */
async function auditCommand(services: ApiServices, c: Ctx, spec: AuditSpec, details: NonNullable<AuditSpec["details"]>, routePath: string, next: () => Promise<void>): Promise<void> {
  const business = c.get("business")!;
  const resource = RESOURCES[spec.resource];
  const paramId = spec.id === "response" ? null : paramFrom(routePath, c.req.path);
  const id = paramId && UUID.test(paramId) ? paramId : null;
  const current = id ? await resource.snapshot(services.db, business.id, id) : null;
  let changes: Record<string, AuditChange> = {};
  const entry: AuditRecord = { action: `${spec.resource}.${spec.action}`, resourceType: spec.resource, resourceId: id, resourceLabel: current ? resource.label(current) : null, changes };
  const where = (entryId: string) => and(eq(auditLog.id, entryId), eq(auditLog.businessId, business.id));
  const entryId = await insertAudit(services, c, entry);

  c.set("onValidInput", async (input) => {
    const asked = input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    changes = Object.fromEntries(Object.entries(asked).map(([k, v]) => [k, { before: null, after: v }]));
    await services.db.update(auditLog).set({ changes: auditValue(withoutSecrets(changes)) }).where(where(entryId));
  });
  let done = false;
  try {
    await next();
    done = c.res.status >= 200 && c.res.status < 300 && !c.res.headers.get("Idempotent-Replayed");
  } finally {
    c.set("onValidInput", undefined);
    if (!done) await services.db.delete(auditLog).where(where(entryId)).catch((err: unknown) => services.logger.error({ err: err instanceof Error ? err.message : String(err), auditId: entryId }, "auditoría: no se pudo borrar un registro sin efecto"));
  }
  if (!done) return;

  const answer = await answerOf(c.res);
  let resourceId = id;
  let label = entry.resourceLabel ?? null;
  if (spec.id === "response" && typeof answer?.id === "string" && UUID.test(answer.id)) resourceId = answer.id.toLowerCase();
  for (const k of details.response ?? []) if (answer && answer[k] !== undefined) changes[k] = { before: null, after: answer[k] };
  if (resourceId) {
    const now = await resource.snapshot(services.db, business.id, resourceId);
    if (now) label = resource.label(now);
  }
  try {
    await services.db.update(auditLog).set({ resourceId, resourceLabel: label, changes: auditValue(withoutSecrets(changes)) }).where(where(entryId));
  } catch (err) {
    // The command was sent and its entry (what was asked) is written; only the answer is missing.
    services.logger.error({ err: err instanceof Error ? err.message : String(err), auditId: entryId, answer: auditValue(withoutSecrets(changes)) }, "auditoría: no se pudo registrar la respuesta de un comando");
  }
}

/** For the snapshots' tests: the resources the log knows. */
export const AUDITED_RESOURCES = Object.keys(RESOURCES) as AuditResource[];
