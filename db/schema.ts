// Database schema (Drizzle, PostgreSQL dialect) shared by PGlite and PostgreSQL.
// Vocabulary follows OCPI 2.2.1 (locations, connectors, sessions) and OCPP 1.6 (charge
// points, statuses). Money is integer centavos; instants are timestamptz.
//
// Every tenant-owned row carries business_id (directly or through its parent) so every query
// can be scoped to the caller's business. Deleting a business removes all of its data.
import { relations, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  char,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { CHARGE_POINT_STATUSES } from "../domain/ocpp-status";
import { DEFAULT_TIME_ZONE, DEFAULT_VAT_RATE_BP, type RateSnapshot } from "../domain/pricing";
import type { RateChanges } from "../domain/rate-schedule";
import { ROLES } from "../domain/permissions";
import type { ReservationStatus } from "../domain/reservation-status";
import { BUSINESS_STATUSES, CONNECTOR_FORMATS, PARKING_TYPES, PAYMENT_ACCOUNT_STATUSES, PAYMENT_PROVIDERS, PAYMENT_STATUSES, POWER_TYPES, SESSION_PAYMENT_STATUSES, SESSION_STATUSES, type InvoiceStatus, type NotificationType, type PaymentOrigin, type PriceDisplayMode } from "../contract/schemas/constants";
import type { OcppProtocol } from "../domain/ocpp-protocol";
export { NOTIFICATION_TYPES, type NotificationType } from "../contract/schemas/constants";
import type { MeterFault } from "../domain/metering";
import type { SessionBands } from "../domain/pricing";
import type { TariffBand } from "../domain/tariff-bands";
import type { AuthorizationPolicy } from "../domain/authorization";
import type { ReceiverTaxCondition } from "../domain/invoice";
import { DEFAULT_QR_MAX_CENTS, DEFAULT_QR_MIN_CENTS, DRIVER_STEPS, type DriverStep } from "../domain/driver-payment";

// ---------------------------------------------------------------------------------------------
// Shared column helpers

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

const tstz = (name: string) => timestamp(name, { withTimezone: true });

/** bytea as a Node Buffer on both drivers (PGlite returns Uint8Array, pg returns Buffer). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

// ---------------------------------------------------------------------------------------------
// Enums

// The value lists are the contract's (contract/schemas/constants.ts): the API, its schemas and
// OCPI read the same ones.
export const businessStatus = pgEnum("business_status", BUSINESS_STATUSES);
/** OCPI ParkingType. */
export const parkingType = pgEnum("parking_type", PARKING_TYPES);
/** OCPI ConnectorFormat. */
export const connectorFormat = pgEnum("connector_format", CONNECTOR_FORMATS);
/** OCPI PowerType (the phases a charger here has). */
export const powerType = pgEnum("power_type", POWER_TYPES);
/** OCPP 1.6 ChargePointStatus, spelled as on the wire. */
export const connectorStatus = pgEnum("connector_status", CHARGE_POINT_STATUSES);
/** ACTIVE: charging or about to; IDLE: charging ended, vehicle still plugged in (idle fee runs). */
export const sessionStatus = pgEnum("session_status", SESSION_STATUSES);
export const sessionPaymentStatus = pgEnum("session_payment_status", SESSION_PAYMENT_STATUSES);
export const paymentProvider = pgEnum("payment_provider", PAYMENT_PROVIDERS);
export const paymentAccountStatus = pgEnum("payment_account_status", PAYMENT_ACCOUNT_STATUSES);
/** One payment attempt at the provider (MercadoPago/Pagos360 states, normalised). */
export const paymentStatus = pgEnum("payment_status", PAYMENT_STATUSES);


/** OCPI-style opening hours. weekday: 1 = Monday … 7 = Sunday; times 'HH:MM' local. */
export interface OpeningHours {
  twentyFourSeven: boolean;
  periods: { weekday: number; begin: string; end: string }[];
}

// ---------------------------------------------------------------------------------------------
// Tenants

export const businessUsers = pgTable(
  "business_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firebaseUid: text("firebase_uid").notNull().unique(),
    email: text("email").notNull(),
    businessName: text("business_name").notNull(),
    /** 11 digits, no dashes (format for display with domain/cuit). */
    cuit: varchar("cuit", { length: 11 }).unique(),
    businessAddress: text("business_address"),
    phoneNumber: text("phone_number"),
    photoUrl: text("photo_url"),
    status: businessStatus("status").notNull().default("PENDING"),
    /** OCPI party id: 3 characters, with country AR; set on the Roaming screen. */
    ocpiPartyId: varchar("ocpi_party_id", { length: 3 }),
    /** Local holidays ('YYYY-MM-DD') every rate of the company prices as Sundays (ADR 0042). */
    localHolidays: jsonb("local_holidays").$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index("business_users_email_idx").on(t.email),
    check("business_users_local_holidays_array", sql`jsonb_typeof(${t.localHolidays}) = 'array'`),
    check("business_users_ocpi_party_id_chars", sql`${t.ocpiPartyId} ~ '^[A-Z0-9]{3}$'`),
    index("business_users_status_idx").on(t.status, t.createdAt),
    check("business_users_cuit_digits", sql`${t.cuit} ~ '^[0-9]{11}$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Teams: the people of a company, their roles, invitations and the audit log.
// business_users.firebase_uid stays the account that registered the company; who may act for it
// is business_members (a trigger makes the registering account its OWNER, migration 0006).

/** domain/permissions ROLES, spelled as stored. */
export const memberRole = pgEnum("member_role", ROLES);

/** A person (Firebase account) in a company, with one role. Exactly one OWNER per company. */
export const businessMembers = pgTable(
  "business_members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    firebaseUid: text("firebase_uid").notNull(),
    /** The account's e-mail when it joined (lowercase). */
    email: text("email").notNull(),
    role: memberRole("role").notNull(),
    /** Last sign-in into this company (login or switching to it). */
    lastSignInAt: tstz("last_sign_in_at"),
    ...timestamps,
  },
  (t) => [
    unique("business_members_business_uid_key").on(t.businessId, t.firebaseUid),
    index("business_members_uid_idx").on(t.firebaseUid),
    // At most one owner per company; the API keeps at least one (a transfer swaps in one statement).
    uniqueIndex("business_members_one_owner_key").on(t.businessId).where(sql`${t.role} = 'OWNER'`),
  ],
);

/**
 * An invitation by e-mail. The link's token is random (256 bits) and only its SHA-256 is kept;
 * it is single use (accepted_at) and expires. Pending = not accepted, not revoked, not expired.
 */
export const businessInvitations = pgTable(
  "business_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: memberRole("role").notNull(),
    /** Hex SHA-256 of the token in the link. */
    tokenHash: char("token_hash", { length: 64 }).notNull().unique(),
    invitedByUid: text("invited_by_uid").notNull(),
    invitedByEmail: text("invited_by_email").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    sentAt: tstz("sent_at").notNull().defaultNow(),
    acceptedAt: tstz("accepted_at"),
    acceptedByUid: text("accepted_by_uid"),
    revokedAt: tstz("revoked_at"),
    ...timestamps,
  },
  (t) => [
    index("business_invitations_business_idx").on(t.businessId, t.createdAt),
    // One open invitation per address and company.
    uniqueIndex("business_invitations_open_key")
      .on(t.businessId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    check("business_invitations_not_owner", sql`${t.role} <> 'OWNER'`),
  ],
);

/** One field's value before and after a change (null: absent). */
export interface AuditChange {
  before: unknown;
  after: unknown;
}

/**
 * Who changed what, when and from where, per company. `changes` holds only the fields
 * that changed (creation: every recorded field after; deletion: before) and never a secret.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    at: tstz("at").notNull().defaultNow(),
    actorUid: text("actor_uid").notNull(),
    actorEmail: text("actor_email").notNull(),
    actorRole: memberRole("actor_role"),
    /** `<resource>.<verb>`, e.g. station.update, charger.command, member.remove. */
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id"),
    /** The resource's name when it happened (a deleted station keeps its name here). */
    resourceLabel: text("resource_label"),
    changes: jsonb("changes").$type<Record<string, AuditChange>>().notNull().default({}),
    ip: text("ip"),
    requestId: text("request_id"),
  },
  (t) => [
    index("audit_log_business_at_idx").on(t.businessId, t.at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("audit_log_business_resource_idx").on(t.businessId, t.resourceType, t.at),
  ],
);

export const businessMembersRelations = relations(businessMembers, ({ one }) => ({
  business: one(businessUsers, { fields: [businessMembers.businessId], references: [businessUsers.id] }),
}));

export type BusinessMember = typeof businessMembers.$inferSelect;
export type NewBusinessMember = typeof businessMembers.$inferInsert;
export type BusinessInvitation = typeof businessInvitations.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;

/**
 * Uploaded pictures, served by the app from the database (nodes are stateless). Content
 * addressed: the same bytes uploaded twice by a business are stored once. business_id null
 * = shared image (e.g. seeded catalog art).
 */
export const images = pgTable(
  "images",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id").references(() => businessUsers.id, { onDelete: "cascade" }),
    /** Hex SHA-256 of bytes. */
    sha256: char("sha256", { length: 64 }).notNull(),
    mime: text("mime").notNull(),
    bytes: bytea("bytes").notNull(),
    size: integer("size").notNull(),
    ...timestamps,
  },
  (t) => [
    // Two partial indexes instead of NULLS NOT DISTINCT so it works on PostgreSQL < 15 too.
    uniqueIndex("images_business_sha256_key").on(t.businessId, t.sha256).where(sql`${t.businessId} is not null`),
    uniqueIndex("images_global_sha256_key").on(t.sha256).where(sql`${t.businessId} is null`),
    // Public URLs are /api/images/<sha256>.<ext>: served by hash alone.
    index("images_sha256_idx").on(t.sha256),
    check("images_size_nonneg", sql`${t.size} >= 0`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Catalogs (global, seeded by db/seed/catalogs.ts)

/** Station amenities. code: OCPI Facility where one exists (ocpi = true), else our own. */
export const services = pgTable("services", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  code: text("code").notNull().unique(),
  label: text("label").notNull(),
  ocpi: boolean("ocpi").notNull().default(true),
  sortOrder: integer("sort_order").notNull().default(0),
  ...timestamps,
});

export const chargerBrands = pgTable("charger_brands", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull().unique(),
  sortOrder: integer("sort_order").notNull().default(0),
  ...timestamps,
});

/** code: OCPI ConnectorType (IEC_62196_T2, CHADEMO…); label in Spanish ("Tipo 2"). */
export const connectorTypes = pgTable("connector_types", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  code: text("code").notNull().unique(),
  label: text("label").notNull(),
  defaultPowerType: powerType("default_power_type").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
  ...timestamps,
});

// ---------------------------------------------------------------------------------------------
// Stations (OCPI Location)

export const stations = pgTable(
  "stations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    city: text("city").notNull(),
    /** ISO 3166-2:AR code, e.g. 'AR-C' (see domain/provinces). */
    province: varchar("province", { length: 4 }).notNull(),
    postalCode: text("postal_code"),
    /** ISO 3166-1 alpha-3, as OCPI. */
    country: char("country", { length: 3 }).notNull().default("ARG"),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    parkingType: parkingType("parking_type"),
    openingHours: jsonb("opening_hours")
      .$type<OpeningHours>()
      .notNull()
      .default({ twentyFourSeven: true, periods: [] }),
    timeZone: text("time_zone").notNull().default(DEFAULT_TIME_ZONE),
    photoUrl: text("photo_url"),
    published: boolean("published").notNull().default(false),
    /** Offered to roaming partners (OCPI Locations) — independent of `published`. */
    roamingPublished: boolean("roaming_published").notNull().default(false),
    /** OPEN accepts any tag; KNOWN_TAGS only the company's RFID tags (domain/authorization). */
    authorizationPolicy: text("authorization_policy").$type<AuthorizationPolicy>().notNull().default("OPEN"),
    /** The site's grid capacity in kW; set, the charging connectors share it (ocpp/load-balancing). */
    gridCapacityKw: numeric("grid_capacity_kw", { precision: 9, scale: 2, mode: "number" }),
    /** Drivers may pay at the connector's QR (prepaid through the company's provider account). */
    qrPaymentEnabled: boolean("qr_payment_enabled").notNull().default(false),
    /** The prepaid amount a driver may choose, in centavos (VAT included). */
    qrMinCents: integer("qr_min_cents").notNull().default(DEFAULT_QR_MIN_CENTS),
    qrMaxCents: integer("qr_max_cents").notNull().default(DEFAULT_QR_MAX_CENTS),
    ...timestamps,
  },
  (t) => [
    check("stations_grid_capacity_positive", sql`${t.gridCapacityKw} is null or ${t.gridCapacityKw} > 0`),
    check("stations_qr_amounts", sql`${t.qrMinCents} > 0 and ${t.qrMaxCents} >= ${t.qrMinCents}`),
    check("stations_authorization_policy_known", sql`${t.authorizationPolicy} in ('OPEN', 'KNOWN_TAGS')`),
    // Lists sort by name case-insensitively (`lower(name)`, then id): the index serves that order.
    index("stations_business_name_idx").on(t.businessId, sql`lower(${t.name})`, t.id),
    index("stations_business_published_idx").on(t.businessId, t.published),
    check("stations_latitude_range", sql`${t.latitude} between -90 and 90`),
    check("stations_longitude_range", sql`${t.longitude} between -180 and 180`),
    check("stations_province_code", sql`${t.province} ~ '^AR-[A-Z]$'`),
  ],
);

export const stationServices = pgTable(
  "station_services",
  {
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.stationId, t.serviceId] }), index("station_services_service_idx").on(t.serviceId)],
);

// ---------------------------------------------------------------------------------------------
// Rates (Tarifas) with penalties

export const rates = pgTable(
  "rates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    currency: char("currency", { length: 3 }).notNull().default("ARS"),
    pricePerKwhCents: integer("price_per_kwh_cents").notNull().default(0),
    pricePerMinuteCents: integer("price_per_minute_cents").notNull().default(0),
    sessionFeeCents: integer("session_fee_cents").notNull().default(0),
    vatIncluded: boolean("vat_included").notNull().default(true),
    /** Basis points: 2100 = 21 %. */
    vatRateBp: integer("vat_rate_bp").notNull().default(DEFAULT_VAT_RATE_BP),
    idleGraceMinutes: integer("idle_grace_minutes").notNull().default(0),
    idlePricePerMinuteCents: integer("idle_price_per_minute_cents").notNull().default(0),
    idleMaxCents: integer("idle_max_cents"),
    /** 'HH:MM' station local time; both or neither; from > to crosses midnight. */
    idleActiveFrom: varchar("idle_active_from", { length: 5 }),
    idleActiveTo: varchar("idle_active_to", { length: 5 }),
    noShowFeeCents: integer("no_show_fee_cents").notNull().default(0),
    /** Time-of-use bands (domain/tariff-bands); empty: one price all day. */
    bands: jsonb("bands").$type<TariffBand[]>().notNull().default([]),
    /** The rate's own holidays 'YYYY-MM-DD', priced as Sundays besides the national ones. */
    localHolidays: jsonb("local_holidays").$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index("rates_business_name_idx").on(t.businessId, sql`lower(${t.name})`, t.id),
    check(
      "rates_amounts_nonneg",
      sql`${t.pricePerKwhCents} >= 0 and ${t.pricePerMinuteCents} >= 0 and ${t.sessionFeeCents} >= 0
        and ${t.idleGraceMinutes} >= 0 and ${t.idlePricePerMinuteCents} >= 0
        and (${t.idleMaxCents} is null or ${t.idleMaxCents} >= 0) and ${t.noShowFeeCents} >= 0`,
    ),
    check("rates_vat_rate", sql`${t.vatRateBp} between 0 and 10000`),
    check("rates_bands_array", sql`jsonb_typeof(${t.bands}) = 'array' and jsonb_typeof(${t.localHolidays}) = 'array'`),
    check(
      "rates_idle_window",
      // "is not null" spelled out: a CHECK that evaluates to NULL passes.
      sql`(${t.idleActiveFrom} is null and ${t.idleActiveTo} is null)
        or (${t.idleActiveFrom} is not null and ${t.idleActiveTo} is not null
          and ${t.idleActiveFrom} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${t.idleActiveTo} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$')`,
    ),
  ],
);

/**
 * A scheduled change of a rate (ADR 0043): the rate's fields that change (validated by the rate's
 * own schema, so a field added to rates is schedulable too) from `effectiveFrom`. Pending while
 * `appliedAt` is null; the sweep writes it into the rate when due.
 */
export const rateSchedules = pgTable(
  "rate_schedules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    rateId: uuid("rate_id")
      .notNull()
      .references(() => rates.id, { onDelete: "cascade" }),
    effectiveFrom: tstz("effective_from").notNull(),
    changes: jsonb("changes").$type<RateChanges>().notNull(),
    /** The e-mail of who scheduled it (the audit log has the full entry). */
    createdBy: text("created_by").notNull(),
    appliedAt: tstz("applied_at"),
    ...timestamps,
  },
  (t) => [
    unique("rate_schedules_rate_instant").on(t.rateId, t.effectiveFrom),
    index("rate_schedules_pending_idx").on(t.effectiveFrom).where(sql`${t.appliedAt} is null`),
    index("rate_schedules_business_idx").on(t.businessId, t.rateId),
  ],
);

// ---------------------------------------------------------------------------------------------
// RFID tags and access groups: who may charge where, and at which rate.

/** An access group: the stations its tags may use (all, or a list) and an optional rate. */
export const accessGroups = pgTable(
  "access_groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** true: every station of the company (today's and future ones); false: access_group_stations. */
    allStations: boolean("all_stations").notNull().default(true),
    /** Overrides the connector's rate for the group's tags; null: the connector's rate. */
    rateId: uuid("rate_id").references(() => rates.id, { onDelete: "set null" }),
    // Who pays for the group's tags, for its monthly invoice (ADR 0050).
    billingCuit: varchar("billing_cuit", { length: 11 }),
    billingName: text("billing_name"),
    billingTaxCondition: text("billing_tax_condition").$type<ReceiverTaxCondition>(),
    /** «Facturar mensualmente»: the monthly close invoices the group's tags' sessions. */
    billingMonthly: boolean("billing_monthly").notNull().default(false),
    /** When monthly invoicing was last switched on: sessions that ended before are not invoiced. */
    billingSince: tstz("billing_since"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("access_groups_business_name_key").on(t.businessId, sql`lower(${t.name})`),
    index("access_groups_rate_idx").on(t.rateId),
    check(
      "access_groups_billing_complete",
      sql`not ${t.billingMonthly} or (${t.billingCuit} is not null and ${t.billingName} is not null and ${t.billingTaxCondition} is not null and ${t.billingSince} is not null)`,
    ),
    check(
      "access_groups_billing_tax_condition_known",
      sql`${t.billingTaxCondition} is null or ${t.billingTaxCondition} in ('RESPONSABLE_INSCRIPTO', 'MONOTRIBUTO', 'EXENTO', 'CONSUMIDOR_FINAL')`,
    ),
  ],
);

export const accessGroupStations = pgTable(
  "access_group_stations",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => accessGroups.id, { onDelete: "cascade" }),
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.stationId] }), index("access_group_stations_station_idx").on(t.stationId)],
);

/** An RFID tag (OCPP 1.6 idTag, 2.0.1 idToken) the company knows. */
export const rfidTags = pgTable(
  "rfid_tags",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    /** As typed; unique per company regardless of case. ≤ 20 (OCPP 1.6 IdToken). */
    idTag: varchar("id_tag", { length: 20 }).notNull(),
    holderName: text("holder_name").notNull(),
    email: text("email"),
    /** Last day the tag is valid (inclusive, Buenos Aires); null: no expiry. */
    expiresOn: date("expires_on", { mode: "string" }),
    blocked: boolean("blocked").notNull().default(false),
    /** A group still holding tags cannot be deleted (409), so no tag silently widens its access. */
    groupId: uuid("group_id").references(() => accessGroups.id, { onDelete: "restrict" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("rfid_tags_business_id_tag_key").on(t.businessId, sql`lower(${t.idTag})`),
    index("rfid_tags_business_holder_idx").on(t.businessId, sql`lower(${t.holderName})`, t.id),
    index("rfid_tags_group_idx").on(t.groupId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Chargers (OCPP charge points) and connectors (OCPI Connector / OCPP connectorId)

export const chargers = pgTable(
  "chargers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    /** Null until the charger is added to a station ("Añadir cargador"). */
    stationId: uuid("station_id").references(() => stations.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    brandId: integer("brand_id").references(() => chargerBrands.id, { onDelete: "set null" }),
    model: text("model"),
    serialNumber: text("serial_number"),
    /** chargeBoxIdentity: the last path segment of /ocpp/:id. Unique system-wide. */
    ocppIdentity: text("ocpp_identity").notNull().unique(),
    /** Basic-auth password hash (infra/crypto); the password is shown once. */
    ocppPasswordHash: text("ocpp_password_hash"),
    /**
     * The password the charger connected with before a rotation it accepted over OCPP (ADR 0031):
     * still accepted until the charger first connects with the new one, then cleared. Null: only
     * the current password opens.
     */
    ocppPreviousPasswordHash: text("ocpp_previous_password_hash"),
    /** The OCPP subprotocol negotiated on the last connection: ocpp1.6 or ocpp2.0.1. */
    ocppProtocol: text("ocpp_protocol").$type<OcppProtocol>().notNull().default("ocpp1.6"),
    enabled: boolean("enabled").notNull().default(true),
    /** Seconds, sent in BootNotification.conf. */
    heartbeatInterval: integer("heartbeat_interval").notNull().default(300),
    // From BootNotification.
    vendor: text("vendor"),
    bootModel: text("boot_model"),
    firmwareVersion: text("firmware_version"),
    /** OCPP 2.0.1 BootReason (PowerUp, FirmwareUpdate, …); null for 1.6, which sends none. */
    lastBootReason: text("last_boot_reason"),
    iccid: text("iccid"),
    imsi: text("imsi"),
    meterType: text("meter_type"),
    meterSerial: text("meter_serial"),
    lastBootAt: tstz("last_boot_at"),
    lastHeartbeatAt: tstz("last_heartbeat_at"),
    // Firmware update: what was last asked of the charger and its latest
    // FirmwareStatusNotification.
    firmwareLocation: text("firmware_location"),
    firmwareRequestedAt: tstz("firmware_requested_at"),
    firmwareStatus: text("firmware_status"),
    firmwareStatusAt: tstz("firmware_status_at"),
    online: boolean("online").notNull().default(false),
    /** Which app node holds the WebSocket, so other nodes can route commands to it. */
    connectedNode: text("connected_node"),
    /** The local authorization list version the charger holds (its last answer), and when we learnt it. */
    localListVersion: integer("local_list_version"),
    localListAt: tstz("local_list_at"),
    /** What the charger's last SetChargingProfile answer said: true accepted, false not supported; null not asked yet. */
    smartCharging: boolean("smart_charging"),
    /** «Mostrar precio en el cargador» (contract PRICE_DISPLAY_MODES): AUTO shows it on OCPP 2.0.1 chargers only. */
    priceDisplay: text("price_display").$type<PriceDisplayMode>().notNull().default("AUTO"),
    /** The charger refused the price messages: not sent again until the operator saves the setting. */
    priceDisplayRefused: boolean("price_display_refused").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index("chargers_business_name_idx").on(t.businessId, sql`lower(${t.name})`, t.id),
    index("chargers_station_idx").on(t.stationId),
    index("chargers_brand_idx").on(t.brandId),
    // The silent-charger sweep reads the online chargers. Not on last_heartbeat_at: signs of life
    // rewrite it every 30–60 s per charger, and an indexed column would make each of those writes
    // a new entry in every index instead of an update in place (HOT; fillfactor 80, migration 0035).
    index("chargers_online_idx").on(t.id).where(sql`${t.online}`),
    check("chargers_heartbeat_interval_positive", sql`${t.heartbeatInterval} > 0`),
    check("chargers_ocpp_identity_chars", sql`${t.ocppIdentity} ~ '^[A-Za-z0-9._:-]{1,48}$'`),
    check("chargers_ocpp_protocol_known", sql`${t.ocppProtocol} in ('ocpp1.6', 'ocpp2.0.1')`),
    check("chargers_price_display_known", sql`${t.priceDisplay} in ('AUTO', 'ON', 'OFF')`),
  ],
);

export const connectors = pgTable(
  "connectors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chargerId: uuid("charger_id")
      .notNull()
      .references(() => chargers.id, { onDelete: "cascade" }),
    /** OCPP connectorId: 1, 2, … (0 is the charge point itself, see status_events). */
    connectorId: integer("connector_id").notNull(),
    connectorTypeId: integer("connector_type_id")
      .notNull()
      .references(() => connectorTypes.id, { onDelete: "restrict" }),
    format: connectorFormat("format").notNull(),
    powerType: powerType("power_type").notNull(),
    maxPowerKw: numeric("max_power_kw", { precision: 7, scale: 2, mode: "number" }).notNull(),
    rateId: uuid("rate_id").references(() => rates.id, { onDelete: "set null" }),
    status: connectorStatus("status").notNull().default("Unavailable"),
    /** OCPP ChargePointErrorCode of the last StatusNotification. */
    errorCode: text("error_code"),
    statusAt: tstz("status_at"),
    /** Load balancing (ADR 0018): the limit last sent while charging (kW), the charger's answer and when; null when none applies. */
    allocatedKw: numeric("allocated_kw", { precision: 9, scale: 2, mode: "number" }),
    allocationStatus: text("allocation_status"),
    allocatedAt: tstz("allocated_at"),
    /** The session (OCPP transactionId) the allocation was sent for: a TxProfile ends with its
     * transaction, so a new session on the connector has none until it is sent its own. */
    allocatedTransactionId: bigint("allocated_transaction_id", { mode: "number" }),
    ...timestamps,
  },
  (t) => [
    unique("connectors_charger_connector_key").on(t.chargerId, t.connectorId),
    index("connectors_rate_idx").on(t.rateId),
    index("connectors_type_idx").on(t.connectorTypeId),
    // The few connectors holding a load-balancing allocation: every start and stop asks whether its
    // station still has one to clear, which without this read every connector of the station.
    index("connectors_allocated_idx").on(t.chargerId).where(sql`${t.allocatedKw} is not null`),
    check("connectors_connector_id_positive", sql`${t.connectorId} >= 1`),
    check("connectors_max_power_positive", sql`${t.maxPowerKw} > 0`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Charging sessions (Actividad; OCPI Session/CDR)

export const chargingSessions = pgTable(
  "charging_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    // History outlives the equipment: deleting a station/charger/connector keeps its sessions.
    stationId: uuid("station_id").references(() => stations.id, { onDelete: "set null" }),
    chargerId: uuid("charger_id").references(() => chargers.id, { onDelete: "set null" }),
    connectorId: uuid("connector_id").references(() => connectors.id, { onDelete: "set null" }),
    /** OCPP connectorId at the time, kept in case the connector row is deleted. */
    connectorNumber: integer("connector_number").notNull(),
    /** OCPP transactionId, system-wide. Stays well inside int32 as OCPP 1.6 chargers expect. */
    transactionId: bigint("transaction_id", { mode: "number" })
      .notNull()
      .unique()
      .generatedByDefaultAsIdentity({ maxValue: 2147483647 }),
    /** OCPP 1.6 idTag (≤ 20) or 2.0.1 idToken (≤ 36). */
    idTag: varchar("id_tag", { length: 36 }).notNull(),
    /** OCPP 2.0.1 IdTokenEnumType (ISO14443, Central, …); null for 1.6. */
    idTokenType: text("id_token_type"),
    /** OCPP 2.0.1 transactionId (the charger's string, unique per charger); null for 1.6. */
    ocppTransactionId: varchar("ocpp_transaction_id", { length: 36 }),
    startedAt: tstz("started_at").notNull(),
    stoppedAt: tstz("stopped_at"),
    chargingEndedAt: tstz("charging_ended_at"),
    unpluggedAt: tstz("unplugged_at"),
    // Meter register readings (Energy.Active.Import.Register); can exceed int32 over a charger's life.
    meterStartWh: bigint("meter_start_wh", { mode: "number" }).notNull(),
    meterStopWh: bigint("meter_stop_wh", { mode: "number" }),
    energyWh: integer("energy_wh").notNull().default(0),
    idleMinutes: integer("idle_minutes").notNull().default(0),
    /** OCPP Reason of StopTransaction. */
    stopReason: text("stop_reason"),
    status: sessionStatus("status").notNull().default("ACTIVE"),
    rateId: uuid("rate_id").references(() => rates.id, { onDelete: "set null" }),
    /** The rate at session start; the session is priced with this, not the current rate. */
    rateSnapshot: jsonb("rate_snapshot").$type<RateSnapshot>(),
    // Cost breakdown (domain/pricing), filled when the session closes.
    energyCents: integer("energy_cents").notNull().default(0),
    timeCents: integer("time_cents").notNull().default(0),
    sessionFeeCents: integer("session_fee_cents").notNull().default(0),
    idleCents: integer("idle_cents").notNull().default(0),
    subtotalCents: integer("subtotal_cents").notNull().default(0),
    vatCents: integer("vat_cents").notNull().default(0),
    totalCents: integer("total_cents").notNull().default(0),
    paymentStatus: sessionPaymentStatus("payment_status").notNull().default("PENDING"),
    /** The meter went backwards or restarted (domain/metering): how the session was billed anyway; null when it only moved forward. */
    meterFault: jsonb("meter_fault").$type<MeterFault>(),
    /** Per time-of-use band, as priced at close (domain/pricing BandLine); null without bands. */
    priceBands: jsonb("price_bands").$type<SessionBands>(),
    ...timestamps,
  },
  (t) => [
    // Activity list: newest first, id as tiebreaker for keyset pagination. NULLS FIRST is what
    // a plain ORDER BY … DESC means, so the planner can walk the index.
    index("sessions_business_started_idx").on(t.businessId, t.startedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("sessions_business_station_started_idx").on(t.businessId, t.stationId, t.startedAt),
    index("sessions_charger_started_idx").on(t.chargerId, t.startedAt),
    index("sessions_connector_started_idx").on(t.connectorId, t.startedAt),
    // Ongoing sessions (OCPP handler lookups, live dashboard): a small partial index.
    index("sessions_open_idx")
      .on(t.businessId, t.connectorId)
      .where(sql`${t.status} in ('ACTIVE', 'IDLE')`),
    index("sessions_business_payment_idx")
      .on(t.businessId, t.startedAt)
      .where(sql`${t.paymentStatus} in ('PENDING', 'FAILED')`),
    // Charged-back sessions: the station ranking subtracts them from the station rollup, which is
    // not keyed by payment status. Few rows, read for a period on every home page's computation.
    // Written as "none of the statuses the type was created with": the migrator runs every pending
    // migration in one transaction, and on a fresh database CHARGED_BACK was added to the type in
    // that same transaction, where it cannot be named yet. A query asking for CHARGED_BACK (or any
    // later status) is still answered from this index.
    index("sessions_business_charged_back_idx")
      .on(t.businessId, t.startedAt)
      .where(sql`${t.paymentStatus} not in ('PENDING', 'PAID', 'FAILED', 'NOT_REQUIRED')`),
    // The sessions the daily rollup does not hold (open, or closed without any end time): the
    // few rows the KPIs and totals read live next to session_daily_totals (db/rollup.ts).
    index("sessions_unrolled_idx")
      .on(t.businessId, t.startedAt)
      .where(sql`${t.status} in ('ACTIVE', 'IDLE') or coalesce(${t.unpluggedAt}, ${t.stoppedAt}) is null`),
    uniqueIndex("sessions_charger_ocpp_tx_key").on(t.chargerId, t.ocppTransactionId),
    check("sessions_energy_nonneg", sql`${t.energyWh} >= 0 and ${t.idleMinutes} >= 0`),
    check("sessions_total_nonneg", sql`${t.totalCents} >= 0`),
  ],
);

export { RESERVATION_STATUSES } from "../domain/reservation-status";
export type { ReservationStatus };

/**
 * A connector reserved for a tag until a time (OCPP ReserveNow). `reservation_number` is the OCPP
 * reservationId (int32, system-wide). An ACTIVE reservation that expires unused is charged its
 * rate's no-show fee as a session of its own (`fee_session_id`, stop reason ReservationNoShow);
 * one the reserving tag starts a session with is USED (`session_id`).
 */
export const reservations = pgTable(
  "reservations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    stationId: uuid("station_id").references(() => stations.id, { onDelete: "set null" }),
    chargerId: uuid("charger_id").references(() => chargers.id, { onDelete: "set null" }),
    connectorId: uuid("connector_id").references(() => connectors.id, { onDelete: "set null" }),
    connectorNumber: integer("connector_number").notNull(),
    reservationNumber: integer("reservation_number").notNull().unique().generatedByDefaultAsIdentity({ maxValue: 2147483647 }),
    idTag: varchar("id_tag", { length: 20 }).notNull(),
    expiresAt: tstz("expires_at").notNull(),
    status: text("status").$type<ReservationStatus>().notNull().default("ACTIVE"),
    /** The charger's answer to ReserveNow (Accepted, Occupied, Faulted, Unavailable, Rejected) or timeout. */
    chargerStatus: text("charger_status"),
    /** When it stopped being ACTIVE (used, expired, cancelled, refused). */
    endedAt: tstz("ended_at"),
    sessionId: uuid("session_id").references(() => chargingSessions.id, { onDelete: "set null" }),
    feeSessionId: uuid("fee_session_id").references(() => chargingSessions.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("reservations_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("reservations_business_station_idx").on(t.businessId, t.stationId, t.createdAt),
    // The expiry sweep and the start lookups read only the few ACTIVE ones.
    index("reservations_active_expires_idx").on(t.expiresAt).where(sql`${t.status} = 'ACTIVE'`),
    uniqueIndex("reservations_one_active_key").on(t.connectorId).where(sql`${t.status} = 'ACTIVE'`),
    check("reservations_status_known", sql`${t.status} in ('ACTIVE', 'USED', 'EXPIRED', 'CANCELLED', 'REFUSED')`),
  ],
);

/**
 * Daily rollup of closed charging sessions (docs/benchmarks.md §2): per business, Buenos Aires
 * local day of the start, status and payment status. Holds exactly the sessions that are closed
 * (status COMPLETED/INVALID) and have an end time (unplug or stop); the rest (open sessions) are
 * read live through sessions_unrolled_idx. Maintained by triggers on charging_sessions
 * (migration 0002_session_rollup_triggers), so every writer — the OCPP store, the API, seeds —
 * keeps it right; `npm run db:rollup` rebuilds it from the sessions and checks it.
 */
export const sessionDailyTotals = pgTable(
  "session_daily_totals",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    status: sessionStatus("status").notNull(),
    paymentStatus: sessionPaymentStatus("payment_status").notNull(),
    sessions: integer("sessions").notNull().default(0),
    energyWh: bigint("energy_wh", { mode: "number" }).notNull().default(0),
    totalCents: bigint("total_cents", { mode: "number" }).notNull().default(0),
    idleCents: bigint("idle_cents", { mode: "number" }).notNull().default(0),
    /** Σ (coalesce(unplugged_at, stopped_at) − started_at), seconds. */
    occupiedSeconds: numeric("occupied_seconds").notNull().default("0"),
    /** An upper bound of any one session's occupied span in this row (only grows; exact after a rebuild). */
    maxSpanSeconds: numeric("max_span_seconds").notNull().default("0"),
  },
  (t) => [
    primaryKey({ name: "session_daily_totals_pk", columns: [t.businessId, t.day, t.status, t.paymentStatus] }),
    index("session_daily_totals_span_idx").on(t.businessId, t.maxSpanSeconds),
  ],
);

/**
 * The same sessions per station (those with one): top stations and the activity totals of one
 * station. No foreign key to stations: a deleted station's sessions lose their station_id and
 * the update trigger takes them out of here.
 */
export const sessionStationDailyTotals = pgTable(
  "session_station_daily_totals",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    stationId: uuid("station_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    status: sessionStatus("status").notNull(),
    sessions: integer("sessions").notNull().default(0),
    energyWh: bigint("energy_wh", { mode: "number" }).notNull().default(0),
    totalCents: bigint("total_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "session_station_daily_totals_pk", columns: [t.businessId, t.stationId, t.day, t.status] }),
    // A period across every station (top stations on Inicio): the key above starts with the station.
    index("session_station_daily_totals_day_idx").on(t.businessId, t.day),
  ],
);

/** The same sessions per local day, hour of the start and status (the "sesiones por hora" chart). */
export const sessionHourlyTotals = pgTable(
  "session_hourly_totals",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    hour: smallint("hour").notNull(),
    status: sessionStatus("status").notNull(),
    sessions: integer("sessions").notNull().default(0),
    energyWh: bigint("energy_wh", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "session_hourly_totals_pk", columns: [t.businessId, t.day, t.hour, t.status] })],
);

/** MeterValues during a session; energy_wh is delivered so far in this session (register − meter start). */
export const meterSamples = pgTable(
  "meter_samples",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => chargingSessions.id, { onDelete: "cascade" }),
    at: tstz("at").notNull(),
    energyWh: integer("energy_wh").notNull(),
    powerW: integer("power_w"),
    /** State of charge %, DC chargers only. */
    soc: smallint("soc"),
    ...timestamps,
  },
  (t) => [index("meter_samples_session_at_idx").on(t.sessionId, t.at), check("meter_samples_soc_range", sql`${t.soc} between 0 and 100`)],
);

/** StatusNotification history (charts, uptime, idle time). connector_id null = the whole charge point (OCPP connectorId 0). */
export const statusEvents = pgTable(
  "status_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    chargerId: uuid("charger_id")
      .notNull()
      .references(() => chargers.id, { onDelete: "cascade" }),
    connectorId: uuid("connector_id").references(() => connectors.id, { onDelete: "cascade" }),
    status: connectorStatus("status").notNull(),
    errorCode: text("error_code"),
    info: text("info"),
    at: tstz("at").notNull(),
    ...timestamps,
  },
  (t) => [
    index("status_events_charger_at_idx").on(t.chargerId, t.at),
    index("status_events_connector_at_idx").on(t.connectorId, t.at),
    index("status_events_business_at_idx").on(t.businessId, t.at),
  ],
);

/**
 * OCPP 2.0.1 TransactionEvent log, one row per (session, seqNo): a repeated event (its answer
 * was lost) is recognised and ignored, and events arriving late or out of order (queued while
 * offline) are replayed in seqNo order to place charging and idle time (ocpp/store201.ts).
 */
export const transactionEvents = pgTable(
  "transaction_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => chargingSessions.id, { onDelete: "cascade" }),
    seqNo: integer("seq_no").notNull(),
    eventType: text("event_type").notNull(),
    triggerReason: text("trigger_reason").notNull(),
    chargingState: text("charging_state"),
    offline: boolean("offline").notNull().default(false),
    /** The event's lowest and highest energy register readings (Wh): meter start and stop, in any order. */
    registerMinWh: doublePrecision("register_min_wh"),
    registerMaxWh: doublePrecision("register_max_wh"),
    at: tstz("at").notNull(),
    ...timestamps,
  },
  (t) => [unique("transaction_events_session_seq_key").on(t.sessionId, t.seqNo), check("transaction_events_seq_nonneg", sql`${t.seqNo} >= 0`)],
);

/**
 * What a charger reports that is not a session or a status: OCPP 2.0.1 NotifyEvent,
 * SecurityEventNotification, NotifyReport, firmware and log upload status (and the 1.6
 * firmware/diagnostics status). Kept for support and shown on the charger screen.
 */
export const chargerEvents = pgTable(
  "charger_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    chargerId: uuid("charger_id")
      .notNull()
      .references(() => chargers.id, { onDelete: "cascade" }),
    /** The OCPP message: NotifyEvent, SecurityEventNotification, … */
    kind: text("kind").notNull(),
    /** One line for the screen, e.g. "StartupOfTheDevice" or "Connector 1: Problem". */
    summary: text("summary").notNull(),
    /** The message's payload (validated by ocpp-rpc's strict mode, capped in size). */
    payload: jsonb("payload").notNull(),
    at: tstz("at").notNull(),
    ...timestamps,
  },
  (t) => [index("charger_events_charger_at_idx").on(t.chargerId, t.at)],
);

/**
 * Each charger's recent OCPP messages, both directions, for troubleshooting: a ring of
 * OCPP_MESSAGES_KEPT slots per charger (slot = seq mod size), so a busy charger overwrites its own
 * oldest message and the table never grows beyond that per charger. Payloads are stored with
 * their secrets redacted and capped in size (ocpp/message-log.ts).
 */
export const ocppMessages = pgTable(
  "ocpp_messages",
  {
    // No foreign keys: checking them cost as much as the rest of a flush (~1,200 rows a second
    // under the 5,000-charger bench), and one deleted charger made a whole batch fail. A charger's
    // rows go with it through the trigger `ocpp_messages_forget_chargers` (migration 0013_ocpp_hot_path), as a
    // cascade would; business_id is the charger's, copied for the scoped reads.
    chargerId: uuid("charger_id").notNull(),
    slot: smallint("slot").notNull(),
    businessId: uuid("business_id").notNull(),
    /** The charger's message counter: orders the ring. */
    seq: bigint("seq", { mode: "number" }).notNull(),
    at: tstz("at").notNull(),
    /** IN: charger → Enchufá; OUT: Enchufá → charger. */
    direction: text("direction").$type<"IN" | "OUT">().notNull(),
    /** OCPP-J message type: 2 CALL, 3 CALLRESULT, 4 CALLERROR. */
    messageType: smallint("message_type").notNull(),
    messageId: text("message_id").notNull(),
    /** The call's action (for a result or error, the action of the call it answers), when known. */
    action: text("action"),
    payload: text("payload").notNull(),
  },
  (t) => [
    // No index on seq: rewriting a slot changes only unindexed columns, so PostgreSQL can update
    // it in place (HOT, with the fillfactor the migration sets); a charger's ≤ 1,000 rows are
    // sorted by seq when read.
    primaryKey({ name: "ocpp_messages_pk", columns: [t.chargerId, t.slot] }),
    check("ocpp_messages_direction_known", sql`${t.direction} in ('IN', 'OUT')`),
  ],
);

/**
 * A diagnostics file asked of a charger (1.6 GetDiagnostics, 2.0.1 GetLog) and, once the charger
 * uploads it to the URL it was given, the file itself (size-capped). The URL carries a token only
 * this request knows; its hash is kept.
 */
export const chargerDiagnostics = pgTable(
  "charger_diagnostics",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    chargerId: uuid("charger_id")
      .notNull()
      .references(() => chargers.id, { onDelete: "cascade" }),
    /** 2.0.1 GetLog requestId (LogStatusNotification names it). */
    requestId: integer("request_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    status: text("status").$type<"REQUESTED" | "REJECTED" | "UPLOADING" | "UPLOADED" | "FAILED">().notNull().default("REQUESTED"),
    /** The charger's latest status report about this upload, as it sent it. */
    chargerStatus: text("charger_status"),
    fileName: text("file_name"),
    contentType: text("content_type"),
    sizeBytes: integer("size_bytes"),
    content: bytea("content"),
    requestedAt: tstz("requested_at").notNull(),
    uploadedAt: tstz("uploaded_at"),
    ...timestamps,
  },
  (t) => [
    index("charger_diagnostics_charger_requested_idx").on(t.chargerId, t.requestedAt.desc()),
    check("charger_diagnostics_status_known", sql`${t.status} in ('REQUESTED', 'REJECTED', 'UPLOADING', 'UPLOADED', 'FAILED')`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Notifications and push

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    type: text("type").$type<NotificationType>().notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** In-app path to open, e.g. '/charger/edit/<id>'. */
    link: text("link"),
    readAt: tstz("read_at"),
    ...timestamps,
  },
  (t) => [
    index("notifications_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Unread badge and "solo no leídas" filter.
    index("notifications_business_unread_idx")
      .on(t.businessId, t.createdAt.desc().nullsFirst())
      .where(sql`${t.readAt} is null`),
  ],
);

/** Web push (FCM) registrations of the business's browsers. */
export const pushRegistrations = pgTable(
  "push_registrations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    token: text("token").notNull().unique(),
    /** The account that registered this browser (its push stops when it leaves the company). */
    firebaseUid: text("firebase_uid"),
    createTime: tstz("create_time").notNull().defaultNow(),
    auth: text("auth"),
    p256dh: text("p256dh"),
    endpoint: text("endpoint"),
    swScope: text("sw_scope"),
    vapidKey: text("vapid_key"),
    ...timestamps,
  },
  (t) => [index("push_registrations_business_idx").on(t.businessId)],
);

// ---------------------------------------------------------------------------------------------
// Roaming: OCPI 2.2.1 partners (eMSPs) of a company, ADR 0020.

export const OCPI_PARTNER_STATUSES = ["PENDING", "REGISTERED", "UNREGISTERED"] as const;
export type OcpiPartnerStatus = (typeof OCPI_PARTNER_STATUSES)[number];

/** An OCPI endpoint of a partner (version details, credentials.asciidoc §registration). */
export interface OcpiEndpointRef {
  identifier: string;
  role: "SENDER" | "RECEIVER";
  url: string;
}

export const ocpiPartners = pgTable(
  "ocpi_partners",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    /** PENDING: token A handed over (or registration under way); REGISTERED; UNREGISTERED by the partner. */
    status: text("status").$type<OcpiPartnerStatus>().notNull().default("PENDING"),
    /**
     * SHA-256 (hex) of the credentials token the partner uses with us: token A until it registers,
     * then the token we issued (C when it registered with us, B when we registered with it).
     * Tokens carry 256 random bits, so an unsalted hash is enough to find the partner by it.
     */
    incomingTokenHash: text("incoming_token_hash").unique(),
    /** 'A' while only the registration token exists (it opens versions and credentials only). */
    incomingTokenKind: text("incoming_token_kind").$type<"A" | "C">().notNull().default("A"),
    /** The token we use with the partner, sealed with the key ring (infra/crypto) bound to this row. */
    outgoingTokenEncrypted: text("outgoing_token_encrypted"),
    versionsUrl: text("versions_url"),
    version: text("version"),
    endpoints: jsonb("endpoints").$type<OcpiEndpointRef[]>().notNull().default([]),
    countryCode: varchar("country_code", { length: 2 }),
    partyId: varchar("party_id", { length: 3 }),
    name: text("name"),
    lastSyncAt: tstz("last_sync_at"),
    failures: integer("failures").notNull().default(0),
    lastError: text("last_error"),
    /**
     * One pusher across nodes (ocpi/push.ts, ADR 0021): the node whose pass holds the partner
     * (a random id per pass) and until when; another node's pass skips the partner meanwhile.
     */
    pushClaim: uuid("push_claim"),
    pushClaimedUntil: tstz("push_claimed_until"),
    ...timestamps,
  },
  (t) => [
    index("ocpi_partners_business_idx").on(t.businessId, t.createdAt, t.id),
    check("ocpi_partners_status_known", sql`${t.status} in ('PENDING', 'REGISTERED', 'UNREGISTERED')`),
    check("ocpi_partners_token_kind", sql`${t.incomingTokenKind} in ('A', 'C')`),
  ],
);

export type OcpiPartner = typeof ocpiPartners.$inferSelect;

/** A partner's token pushed to us (mod_tokens.asciidoc, CPO Receiver interface). */
export const ocpiTokens = pgTable(
  "ocpi_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => ocpiPartners.id, { onDelete: "cascade" }),
    uid: varchar("uid", { length: 36 }).notNull(),
    type: text("type").notNull(),
    valid: boolean("valid").notNull(),
    whitelist: text("whitelist").notNull(),
    /** The whole Token object as the partner sent it (validated with ocpi/schemas). */
    token: jsonb("token").$type<Record<string, unknown>>().notNull(),
    lastUpdated: tstz("last_updated").notNull(),
    ...timestamps,
  },
  (t) => [unique("ocpi_tokens_partner_uid_type_key").on(t.partnerId, t.uid, t.type), index("ocpi_tokens_business_uid_idx").on(t.businessId, t.uid)],
);

/**
 * A session a partner started with an OCPI command (mod_commands.asciidoc §START_SESSION): the
 * token it gave, where, and — once the charger starts it — our session. STOP_SESSION only stops
 * sessions linked here to the same partner.
 */
export const ocpiSessions = pgTable(
  "ocpi_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => ocpiPartners.id, { onDelete: "cascade" }),
    chargerId: uuid("charger_id")
      .notNull()
      .references(() => chargers.id, { onDelete: "cascade" }),
    connectorNumber: integer("connector_number").notNull(),
    /** The OCPI Token's uid: the idTag the charger is asked to start with. */
    tokenUid: varchar("token_uid", { length: 36 }).notNull(),
    /** mod_cdrs §CdrToken of the token (country, party, uid, type, contract id). */
    token: jsonb("token").$type<{ country_code: string; party_id: string; uid: string; type: string; contract_id: string }>().notNull(),
    authorizationReference: varchar("authorization_reference", { length: 36 }),
    /**
     * mod_sessions §AuthMethod: COMMAND (START_SESSION), WHITELIST (the partner's stored token,
     * decided locally), AUTH_REQUEST (the eMSP answered in real time).
     */
    authMethod: text("auth_method").$type<OcpiAuthMethod>().notNull().default("COMMAND"),
    sessionId: uuid("session_id")
      .unique()
      .references(() => chargingSessions.id, { onDelete: "set null" }),
    /** The session's updated_at last PUT to the partner's Sessions receiver (ocpi/push.ts). */
    sessionPushedAt: tstz("session_pushed_at"),
    /** When its CDR was accepted by the partner's CDRs receiver; null until then. */
    cdrPushedAt: tstz("cdr_pushed_at"),
    ...timestamps,
  },
  (t) => [
    index("ocpi_sessions_charger_idx").on(t.chargerId, t.connectorNumber, t.createdAt),
    index("ocpi_sessions_partner_idx").on(t.partnerId),
    check("ocpi_sessions_auth_method_known", sql`${t.authMethod} in ('COMMAND', 'WHITELIST', 'AUTH_REQUEST')`),
  ],
);

export type OcpiAuthMethod = "COMMAND" | "WHITELIST" | "AUTH_REQUEST";

/**
 * A roaming partner's answer about a tag at a charger (ocpi/charger-authorization.ts, ADR 0044),
 * shared by every node until `expiresAt`: the start after an Authorize is not asked of the eMSP
 * again, whichever node it lands on. The tag lower-cased; `grant` null: no partner claims it.
 */
export const ocpiAuthorizations = pgTable(
  "ocpi_authorizations",
  {
    chargerId: uuid("charger_id")
      .notNull()
      .references(() => chargers.id, { onDelete: "cascade" }),
    idTag: text("id_tag").notNull(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    grant: jsonb("grant").$type<Record<string, unknown>>(),
    expiresAt: tstz("expires_at").notNull(),
    createdAt: tstz("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "ocpi_authorizations_pk", columns: [t.chargerId, t.idTag] }), index("ocpi_authorizations_expires_idx").on(t.expiresAt)],
);

/**
 * A charger that left a station in the last 30 days: an EVSE with status REMOVED in the Location
 * partners pull (ADR 0044). Written only by the trigger on chargers (migration 0027), with the
 * connectors the charger had when it left.
 */
export const ocpiRemovedEvses = pgTable(
  "ocpi_removed_evses",
  {
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    chargerId: uuid("charger_id").notNull(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    connectors: jsonb("connectors")
      .$type<{ connectorId: number; standard: string; format: string; powerType: string; maxPowerKw: number | string; rateId: string | null }[]>()
      .notNull(),
    removedAt: tstz("removed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "ocpi_removed_evses_pk", columns: [t.stationId, t.chargerId] })],
);

/**
 * What a partner's Locations receiver last got of a station (mod_locations.asciidoc §Receiver
 * interface, ocpi/locations-push.ts): the Location object as pushed, so a pass compares the
 * station with it and sends only what changed — a PATCH of an EVSE's status, a PUT of the
 * location when the station itself changed. No foreign key on the station: a deleted station's
 * row is how the partner learns its EVSEs are REMOVED.
 */
export const ocpiLocationPushes = pgTable(
  "ocpi_location_pushes",
  {
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => ocpiPartners.id, { onDelete: "cascade" }),
    stationId: uuid("station_id").notNull(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    /** The Location object the partner holds (null: nothing pushed yet). */
    location: jsonb("location").$type<Record<string, unknown>>(),
    /** Last push of any kind: a station is pushed at most every few seconds (flapping chargers). */
    pushedAt: tstz("pushed_at"),
    /** The station's changes up to here were compared with `location` (minus a margin for clocks). */
    syncedAt: tstz("synced_at"),
    /** A change waits: held back by the interval, or its push failed. */
    pending: boolean("pending").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.stationId] })],
);

/**
 * The Tariffs each partner holds (ocpi/tariffs-push.ts): a pass PUTs the current Tariffs that
 * differ from these copies and DELETEs the ones held that are gone.
 */
export const ocpiTariffPushes = pgTable(
  "ocpi_tariff_pushes",
  {
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => ocpiPartners.id, { onDelete: "cascade" }),
    /** The Tariff's id: a rate's, or a scheduled change's for a later version. */
    tariffId: varchar("tariff_id", { length: 36 }).notNull(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    /** The Tariff object as the partner accepted it. */
    tariff: jsonb("tariff").$type<Record<string, unknown>>().notNull(),
    pushedAt: tstz("pushed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.tariffId] })],
);

// ---------------------------------------------------------------------------------------------
// Electronic invoices: the company's fiscal settings for ARCA (ADR 0047)

export const fiscalSettings = pgTable(
  "fiscal_settings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    taxCondition: text("tax_condition", { enum: ["RESPONSABLE_INSCRIPTO", "MONOTRIBUTO", "EXENTO"] }).notNull(),
    pointOfSale: integer("point_of_sale").notNull(),
    environment: text("environment", { enum: ["HOMOLOGACION", "PRODUCCION"] }).notNull().default("HOMOLOGACION"),
    /** The ARCA certificate (PEM) and its private key, sealed with the key ring (infra/crypto); never returned by the API. */
    certificateEncrypted: text("certificate_encrypted"),
    keyEncrypted: text("key_encrypted"),
    /** What the screen shows of the certificate: the CUIT it was issued to, its expiry and fingerprint. */
    certificateCuit: varchar("certificate_cuit", { length: 11 }),
    certificateExpiresAt: timestamp("certificate_expires_at", { withTimezone: true }),
    certificateFingerprint: text("certificate_fingerprint"),
    /** When the 30-day expiry notification was sent for the current certificate (once per certificate). */
    expiryWarnedAt: timestamp("expiry_warned_at", { withTimezone: true }),
    lastTestAt: timestamp("last_test_at", { withTimezone: true }),
    lastTestOk: boolean("last_test_ok"),
    lastTestMessage: text("last_test_message"),
    ...timestamps,
  },
  (t) => [
    unique("fiscal_settings_business_key").on(t.businessId),
    check("fiscal_settings_tax_condition", sql`${t.taxCondition} in ('RESPONSABLE_INSCRIPTO', 'MONOTRIBUTO', 'EXENTO')`),
    check("fiscal_settings_environment", sql`${t.environment} in ('HOMOLOGACION', 'PRODUCCION')`),
    check("fiscal_settings_point_of_sale", sql`${t.pointOfSale} between 1 and 99999`),
    check("fiscal_settings_certificate_pair", sql`(${t.certificateEncrypted} is null) = (${t.keyEncrypted} is null)`),
  ],
);
export type FiscalSettingsRow = typeof fiscalSettings.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Payments

export const paymentAccounts = pgTable(
  "payment_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    provider: paymentProvider("provider").notNull(),
    /** Sealed with the key ring (infra/crypto); never returned by the API. */
    credentialsEncrypted: text("credentials_encrypted").notNull(),
    /** Last 4 characters of the access token, to tell accounts apart on screen. */
    credentialsLast4: varchar("credentials_last4", { length: 4 }),
    accountLabel: text("account_label"),
    status: paymentAccountStatus("status").notNull().default("CONNECTED"),
    lastError: text("last_error"),
    ...timestamps,
  },
  (t) => [unique("payment_accounts_business_provider_key").on(t.businessId, t.provider)],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").references(() => chargingSessions.id, { onDelete: "set null" }),
    provider: paymentProvider("provider").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: char("currency", { length: 3 }).notNull().default("ARS"),
    status: paymentStatus("status").notNull().default("PENDING"),
    /** The provider's payment id; unique per provider so webhooks are idempotent. */
    externalId: text("external_id"),
    // A driver's prepayment at a connector's QR (origin QR); SESSION rows are the
    // amounts to collect that pricing records after a session (ocpp/store.ts finalizeSession).
    origin: text("origin").$type<PaymentOrigin>().notNull().default("SESSION"),
    /** QR: where the driver is walking through the flow (domain/driver-payment). */
    step: text("step").$type<DriverStep>(),
    stationId: uuid("station_id").references(() => stations.id, { onDelete: "set null" }),
    chargerId: uuid("charger_id").references(() => chargers.id, { onDelete: "set null" }),
    connectorNumber: integer("connector_number"),
    /** The OCPP idTag the remote start carries (≤ 20 for 1.6); binds the session to this payment. */
    idTag: varchar("id_tag", { length: 20 }).unique(),
    /** The "Pagar" form's one-time key: a double click or a resubmission gives the same payment. */
    requestKey: varchar("request_key", { length: 64 }).unique(),
    /** SHA-256 (hex) of the secret in the driver's link: it lets them follow and stop the charge. */
    accessTokenHash: varchar("access_token_hash", { length: 64 }),
    driverEmail: text("driver_email"),
    /** The provider's checkout: a Mercado Pago preference id or a Pagos360 payment request id, and its URL. */
    checkoutId: text("checkout_id"),
    checkoutUrl: text("checkout_url"),
    /** What the session cost, capped at the prepaid amount; the rest goes back to the driver. */
    chargedCents: integer("charged_cents"),
    refundedCents: integer("refunded_cents").notNull().default(0),
    /** The provider's fee (its commission and taxes on it), stored when reconciliation reads the payment; null until it reports one. */
    feeCents: integer("fee_cents"),
    startRequestedAt: tstz("start_requested_at"),
    stopRequestedAt: tstz("stop_requested_at"),
    finishedAt: tstz("finished_at"),
    receiptSentAt: tstz("receipt_sent_at"),
    /** Why the charge did not start, or why a refund is still owed (Spanish, shown to the driver). */
    failureReason: text("failure_reason"),
    /**
     * A second approved provider payment on the same checkout (the driver paid twice): its own row,
     * origin QR, refunded in full, pointing at the payment it duplicates.
     */
    parentPaymentId: uuid("parent_payment_id").references((): AnyPgColumn => payments.id, { onDelete: "set null" }),
    /** The provider's refund we are waiting on (Mercado Pago's refund id): read back until approved or rejected. */
    providerRefundId: text("provider_refund_id"),
    /** A driver who wants a Factura A gives their CUIT (11 digits, check digit verified) and company name on the payment page. */
    buyerCuit: varchar("buyer_cuit", { length: 11 }),
    buyerName: text("buyer_name"),
    ...timestamps,
  },
  (t) => [
    check("payments_origin_known", sql`${t.origin} in ('SESSION', 'QR')`),
    check("payments_step_known", sql`${t.step} is null or ${t.step} in (${sql.raw(DRIVER_STEPS.map((s) => `'${s}'`).join(", "))})`),
    check("payments_refund_range", sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`),
    // The driver payments that still need the server (start timeouts, price caps, refunds): a small partial index.
    index("payments_qr_open_idx")
      .on(t.step, t.updatedAt)
      .where(sql`${t.step} in ('PAYING', 'STARTING', 'CHARGING', 'SETTLING', 'START_FAILED')`),
    index("payments_charger_step_idx").on(t.chargerId, t.step),
    // Refunds the operator owes by hand (Pagos360): the Pagos screen lists them per company.
    index("payments_refund_pending_idx")
      .on(t.businessId, t.createdAt)
      .where(sql`${t.step} = 'REFUND_PENDING'`),
    unique("payments_provider_external_key").on(t.provider, t.externalId),
    index("payments_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("payments_session_idx").on(t.sessionId),
    check("payments_amount_nonneg", sql`${t.amountCents} >= 0`),
    check("payments_fee_nonneg", sql`${t.feeCents} is null or ${t.feeCents} >= 0`),
  ],
);

/**
 * Drivers a company blocked from paying at its QR pages, by the e-mail they gave (lower case):
 * after a chargeback or a dispute, one action of the operator's; the QR checkout refuses it.
 */
export const blockedDrivers = pgTable(
  "blocked_drivers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    /** The payment the operator blocked the driver from (their chargeback or dispute). */
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [unique("blocked_drivers_business_email_key").on(t.businessId, t.email)],
);

/**
 * The reconciliation differences already notified to a company (domain/reconciliation
 * differenceKey): the daily run tells of a difference once, not every day it is still there.
 */
export const paymentReconciliationReports = pgTable(
  "payment_reconciliation_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    differenceKey: text("difference_key").notNull(),
    ...timestamps,
  },
  (t) => [unique("payment_reconciliation_reports_key").on(t.businessId, t.differenceKey)],
);

// ---------------------------------------------------------------------------------------------
// Infrastructure shared by every node

/**
 * Rate-limit counters when several nodes share one PostgreSQL: hits per key (`login:ip:1.2.3.4`)
 * and fixed window; the limiter weighs the current and the previous window. Rows past
 * `expires_at` are swept.
 */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    key: text("key").notNull(),
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    hits: integer("hits").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limit_hits_expires_idx").on(t.expiresAt)],
);

/**
 * A company registration accepted for review that created no company: its CUIT is another
 * company's (ADR 0029). One per account, until the account registers a company of its own; the
 * account is answered as any registrant pending review, and support finds here who asked.
 */
export const registrationRequests = pgTable(
  "registration_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firebaseUid: text("firebase_uid").notNull().unique(),
    email: text("email").notNull(),
    businessName: text("business_name").notNull(),
    cuit: varchar("cuit", { length: 11 }).notNull(),
    businessAddress: text("business_address"),
    phoneNumber: text("phone_number"),
    ...timestamps,
  },
  (t) => [index("registration_requests_cuit_idx").on(t.cuit), check("registration_requests_cuit_digits", sql`${t.cuit} ~ '^[0-9]{11}$'`)],
);

/**
 * The dashboard's sign-ins (ADR 0027): the cookie carries a random id, this table its SHA-256.
 * A cookie whose row is gone (signed out here or everywhere, expired) no longer signs anyone in.
 */
export const webSessions = pgTable(
  "web_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    uid: text("uid").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("web_sessions_uid_idx").on(t.uid), index("web_sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Idempotent creates: the first answer to a POST carrying an `Idempotency-Key` (the form's
 * one-time token) is kept for a day, so a form submitted twice creates one record and the
 * second submission gets the same answer.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    key: varchar("key", { length: 128 }).notNull(),
    method: varchar("method", { length: 10 }).notNull(),
    path: text("path").notNull(),
    /** SHA-256 (hex) of the first request's body: the same key with another body is refused. */
    fingerprint: varchar("fingerprint", { length: 64 }),
    /** null while the first request is still running. */
    status: smallint("status"),
    body: text("body"),
    contentType: text("content_type"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Relations (for db.query.* with `with:`); no effect on the SQL schema.

export const businessUsersRelations = relations(businessUsers, ({ many }) => ({
  stations: many(stations),
  chargers: many(chargers),
  rates: many(rates),
  sessions: many(chargingSessions),
  notifications: many(notifications),
  pushRegistrations: many(pushRegistrations),
  paymentAccounts: many(paymentAccounts),
  payments: many(payments),
  images: many(images),
}));

export const imagesRelations = relations(images, ({ one }) => ({
  business: one(businessUsers, { fields: [images.businessId], references: [businessUsers.id] }),
}));

export const stationsRelations = relations(stations, ({ one, many }) => ({
  business: one(businessUsers, { fields: [stations.businessId], references: [businessUsers.id] }),
  chargers: many(chargers),
  services: many(stationServices),
  sessions: many(chargingSessions),
}));

export const servicesRelations = relations(services, ({ many }) => ({
  stations: many(stationServices),
}));

export const stationServicesRelations = relations(stationServices, ({ one }) => ({
  station: one(stations, { fields: [stationServices.stationId], references: [stations.id] }),
  service: one(services, { fields: [stationServices.serviceId], references: [services.id] }),
}));

export const chargerBrandsRelations = relations(chargerBrands, ({ many }) => ({
  chargers: many(chargers),
}));

export const connectorTypesRelations = relations(connectorTypes, ({ many }) => ({
  connectors: many(connectors),
}));

export const ratesRelations = relations(rates, ({ one, many }) => ({
  business: one(businessUsers, { fields: [rates.businessId], references: [businessUsers.id] }),
  connectors: many(connectors),
}));

export const chargersRelations = relations(chargers, ({ one, many }) => ({
  business: one(businessUsers, { fields: [chargers.businessId], references: [businessUsers.id] }),
  station: one(stations, { fields: [chargers.stationId], references: [stations.id] }),
  brand: one(chargerBrands, { fields: [chargers.brandId], references: [chargerBrands.id] }),
  connectors: many(connectors),
  sessions: many(chargingSessions),
  statusEvents: many(statusEvents),
}));

export const connectorsRelations = relations(connectors, ({ one, many }) => ({
  charger: one(chargers, { fields: [connectors.chargerId], references: [chargers.id] }),
  connectorType: one(connectorTypes, { fields: [connectors.connectorTypeId], references: [connectorTypes.id] }),
  rate: one(rates, { fields: [connectors.rateId], references: [rates.id] }),
  sessions: many(chargingSessions),
  statusEvents: many(statusEvents),
}));

export const chargingSessionsRelations = relations(chargingSessions, ({ one, many }) => ({
  business: one(businessUsers, { fields: [chargingSessions.businessId], references: [businessUsers.id] }),
  station: one(stations, { fields: [chargingSessions.stationId], references: [stations.id] }),
  charger: one(chargers, { fields: [chargingSessions.chargerId], references: [chargers.id] }),
  connector: one(connectors, { fields: [chargingSessions.connectorId], references: [connectors.id] }),
  rate: one(rates, { fields: [chargingSessions.rateId], references: [rates.id] }),
  meterSamples: many(meterSamples),
  payments: many(payments),
}));

export const meterSamplesRelations = relations(meterSamples, ({ one }) => ({
  session: one(chargingSessions, { fields: [meterSamples.sessionId], references: [chargingSessions.id] }),
}));

export const statusEventsRelations = relations(statusEvents, ({ one }) => ({
  charger: one(chargers, { fields: [statusEvents.chargerId], references: [chargers.id] }),
  connector: one(connectors, { fields: [statusEvents.connectorId], references: [connectors.id] }),
}));

export const notificationsRelations = relations(notifications, ({ one }) => ({
  business: one(businessUsers, { fields: [notifications.businessId], references: [businessUsers.id] }),
}));

export const pushRegistrationsRelations = relations(pushRegistrations, ({ one }) => ({
  business: one(businessUsers, { fields: [pushRegistrations.businessId], references: [businessUsers.id] }),
}));

export const paymentAccountsRelations = relations(paymentAccounts, ({ one }) => ({
  business: one(businessUsers, { fields: [paymentAccounts.businessId], references: [businessUsers.id] }),
}));

export const paymentsRelations = relations(payments, ({ one }) => ({
  business: one(businessUsers, { fields: [payments.businessId], references: [businessUsers.id] }),
  session: one(chargingSessions, { fields: [payments.sessionId], references: [chargingSessions.id] }),
}));

// ---------------------------------------------------------------------------------------------
// Row types

export type BusinessUser = typeof businessUsers.$inferSelect;
export type NewBusinessUser = typeof businessUsers.$inferInsert;
export type Image = typeof images.$inferSelect;
export type NewImage = typeof images.$inferInsert;
export type Service = typeof services.$inferSelect;
export type ChargerBrand = typeof chargerBrands.$inferSelect;
export type ConnectorType = typeof connectorTypes.$inferSelect;
export type Station = typeof stations.$inferSelect;
export type NewStation = typeof stations.$inferInsert;
export type StationService = typeof stationServices.$inferSelect;
export type Rate = typeof rates.$inferSelect;
export type NewRate = typeof rates.$inferInsert;
export type RateSchedule = typeof rateSchedules.$inferSelect;
export type AccessGroup = typeof accessGroups.$inferSelect;
export type RfidTag = typeof rfidTags.$inferSelect;
export type Charger = typeof chargers.$inferSelect;
export type NewCharger = typeof chargers.$inferInsert;
export type Connector = typeof connectors.$inferSelect;
export type NewConnector = typeof connectors.$inferInsert;
export type ChargingSession = typeof chargingSessions.$inferSelect;
export type NewChargingSession = typeof chargingSessions.$inferInsert;
export type MeterSample = typeof meterSamples.$inferSelect;
export type NewMeterSample = typeof meterSamples.$inferInsert;
export type StatusEvent = typeof statusEvents.$inferSelect;
export type NewStatusEvent = typeof statusEvents.$inferInsert;
export type Notification = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;
export type PushRegistration = typeof pushRegistrations.$inferSelect;
export type NewPushRegistration = typeof pushRegistrations.$inferInsert;
export type PaymentAccount = typeof paymentAccounts.$inferSelect;
export type NewPaymentAccount = typeof paymentAccounts.$inferInsert;
export type Payment = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;
export type TransactionEvent = typeof transactionEvents.$inferSelect;
export type ChargerEvent = typeof chargerEvents.$inferSelect;
export type Reservation = typeof reservations.$inferSelect;
export type RegistrationRequest = typeof registrationRequests.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Electronic invoices (ARCA, WSFEv1): one voucher per settled QR payment, its credit notes, and
// the per-series lease that keeps numbers sequential across processes and nodes (ADR 0048).


export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    /** ARCA's voucher code (1, 3, 6, 8, 11, 13); null until the first attempt reads the company's tax condition. */
    type: smallint("type"),
    pointOfSale: integer("point_of_sale"),
    /** Given by ARCA's sequence on authorisation; null while pending or rejected. */
    number: integer("number"),
    status: text("status").$type<InvoiceStatus>().notNull().default("PENDING"),
    cae: varchar("cae", { length: 14 }),
    caeDueDate: date("cae_due_date", { mode: "string" }),
    totalCents: integer("total_cents").notNull(),
    netCents: integer("net_cents").notNull(),
    vatCents: integer("vat_cents").notNull(),
    exemptCents: integer("exempt_cents").notNull().default(0),
    /** Null on a monthly invoice whose sessions were priced at several rates (invoice_sessions has each one's). */
    vatRateBp: integer("vat_rate_bp"),
    /** 80 CUIT, 96 DNI, 99 consumidor final. */
    receiverDocType: smallint("receiver_doc_type").notNull().default(99),
    receiverDocNumber: varchar("receiver_doc_number", { length: 11 }).notNull().default("0"),
    receiverName: text("receiver_name"),
    /** CondicionIVAReceptorId: 5 consumidor final, 1 RI, 6 monotributo, 4 exento. */
    receiverVatCondition: smallint("receiver_vat_condition").notNull().default(5),
    /** The QR payment it invoices (the credit notes of that invoice carry it too). */
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    /** A monthly invoice: the access group it invoices and the month (its first day); its sessions are in invoice_sessions. */
    accessGroupId: uuid("access_group_id").references(() => accessGroups.id, { onDelete: "set null" }),
    billingMonth: date("billing_month", { mode: "string" }),
    /** A credit note: the invoice it corrects. */
    creditNoteOf: uuid("credit_note_of").references((): AnyPgColumn => invoices.id, { onDelete: "restrict" }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tstz("next_attempt_at"),
    /** Why the last attempt did not authorise it (Spanish, ARCA's own words for a rejection). */
    lastError: text("last_error"),
    issueDate: date("issue_date", { mode: "string" }).notNull(),
    serviceFrom: date("service_from", { mode: "string" }).notNull(),
    serviceTo: date("service_to", { mode: "string" }).notNull(),
    authorizedAt: tstz("authorized_at"),
    ...timestamps,
  },
  (t) => [
    check("invoices_status_known", sql`${t.status} in ('PENDING', 'AUTHORIZED', 'REJECTED')`),
    check("invoices_amounts_add_up", sql`${t.totalCents} = ${t.netCents} + ${t.vatCents} + ${t.exemptCents} and ${t.totalCents} > 0 and ${t.netCents} >= 0 and ${t.vatCents} >= 0 and ${t.exemptCents} >= 0`),
    // A number is used once per company, point of sale and type (nulls — not yet numbered — are distinct).
    unique("invoices_number_key").on(t.businessId, t.pointOfSale, t.type, t.number),
    // One invoice per payment; its credit notes point at it instead.
    uniqueIndex("invoices_payment_key")
      .on(t.paymentId)
      .where(sql`${t.creditNoteOf} is null`),
    index("invoices_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("invoices_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    index("invoices_credit_note_of_idx").on(t.creditNoteOf),
    // One monthly invoice per group and month, whichever node closes the month first.
    uniqueIndex("invoices_group_month_key")
      .on(t.accessGroupId, t.billingMonth)
      .where(sql`${t.creditNoteOf} is null and ${t.billingMonth} is not null`),
  ],
);
export type Invoice = typeof invoices.$inferSelect;

/** The sessions a monthly invoice covers, each with what it was priced (each session is invoiced once). */
export const invoiceSessions = pgTable(
  "invoice_sessions",
  {
    sessionId: uuid("session_id")
      .primaryKey()
      .references(() => chargingSessions.id, { onDelete: "cascade" }),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** The session's stored total (VAT included), as it was priced. */
    totalCents: integer("total_cents").notNull(),
    /** The VAT rate of the session's rate snapshot. */
    vatRateBp: integer("vat_rate_bp").notNull(),
  },
  (t) => [index("invoice_sessions_invoice_idx").on(t.invoiceId), check("invoice_sessions_total_positive", sql`${t.totalCents} > 0`)],
);

/**
 * One row per company, point of sale and voucher type: whoever holds its lease is the only one
 * asking ARCA for a number of that series; the number asked and for which invoice stay here until
 * the answer is stored, so an answer lost to a crash is recognised by the next holder.
 */
export const invoiceSeries = pgTable(
  "invoice_series",
  {
    businessId: uuid("business_id")
      .notNull()
      .references(() => businessUsers.id, { onDelete: "cascade" }),
    pointOfSale: integer("point_of_sale").notNull(),
    type: smallint("type").notNull(),
    holder: uuid("holder"),
    leaseUntil: tstz("lease_until"),
    pendingInvoiceId: uuid("pending_invoice_id"),
    pendingNumber: integer("pending_number"),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.businessId, t.pointOfSale, t.type] })],
);

/**
 * WSAA access tickets, shared by restarts and nodes (ADR 0047): per WSAA, CUIT, certificate and
 * service, the sealed token and sign, and who may log in (a claim) or until when nobody may
 * (WSAA refused a second ticket while its last is valid).
 */
export const arcaAccessTickets = pgTable(
  "arca_access_tickets",
  {
    key: text("key").primaryKey(),
    /** `{ token, sign }` sealed with the key ring, bound to the key (AAD). */
    ticketSealed: text("ticket_sealed"),
    expiresAt: tstz("expires_at"),
    /** When the last login was claimed: WSAA's ticket from it lasts 12 h. */
    loginStartedAt: tstz("login_started_at"),
    loginUntil: tstz("login_until"),
    waitUntil: tstz("wait_until"),
    ...timestamps,
  },
  (t) => [check("arca_access_tickets_sealed_with_expiry", sql`(${t.ticketSealed} is null) = (${t.expiresAt} is null)`)],
);
