// Response shapes of the Business API (JSON, camelCase). Types only: import them anywhere
// (`import type { StationDto } from "./dto"`). Instants are ISO-8601 strings,
// money integer centavos, energy Wh unless the name says kWh.
import type { ChargePointStatus } from "../domain/ocpp-status";
import type { StatusBucket } from "../domain/ocpp-status-summary";
import type { TariffBand } from "../domain/tariff-bands";
import type { BandedPrice, RateRow, RateSnapshot, SessionBands, SessionPrice } from "../domain/pricing";
import type { RateChanges, RateValues } from "../domain/rate-schedule";
import type { ProvinceCode } from "../domain/provinces";
import type { BusinessStatus } from "./schemas/business";
import type { ArcaEnvironmentCode, ConnectorFormat, InvoiceStatus, ReceiverTaxCondition, NotificationType, ParkingType, PaymentAccountStatus, PaymentOrigin, PaymentProviderCode, PaymentStatus, PowerType, PriceDisplayMode, SessionPaymentStatus, SessionStatus, TaxConditionCode } from "./schemas/constants";
import type { Role } from "../domain/permissions";
import type { DriverStep } from "../domain/driver-payment";
import type { DifferenceKind } from "../domain/reconciliation";
import type { ReservationStatus } from "../domain/reservation-status";
import type { OcppProtocol } from "../domain/ocpp-protocol";

export type { BusinessStatus, ChargePointStatus, StatusBucket, RateSnapshot, SessionPrice, ProvinceCode, Role };

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

// ---- Account / profile ------------------------------------------------------------------------

/** One of the account's companies (the header's switcher). */
export interface CompanyChoiceDto {
  businessId: string;
  businessName: string;
  status: BusinessStatus;
  role: Role;
}

/**
 * GET /Account/Business, POST /Account/SignIn: the company the request acts for (the
 * X-Enchufa-Business header, else the one signed into last) and every company of the account.
 */
export interface AccountBusinessDto {
  exists: boolean;
  email?: string;
  status?: BusinessStatus;
  businessName?: string;
  cuit?: string;
  businessId?: string;
  role?: Role;
  companies: CompanyChoiceDto[];
}

/** GET /Business/BusinessUser. `cuit` is 11 digits (format with domain/cuit). */
export interface BusinessUserDto {
  businessAddress: string;
  businessName: string;
  cuit: string;
  phoneNumber: string;
  photoUrl: string | null;
  status: BusinessStatus;
  email: string;
}

// ---- Catalogs ----------------------------------------------------------------------------------

export interface ServiceDto {
  id: number;
  code: string;
  label: string;
}
export interface ChargerBrandDto {
  id: number;
  name: string;
}
export interface ConnectorTypeDto {
  id: number;
  /** OCPI ConnectorType, e.g. IEC_62196_T2. */
  code: string;
  label: string;
  defaultPowerType: PowerType;
}

// ---- Stations ----------------------------------------------------------------------------------

export type { ParkingType };

/** weekday 1 = lunes … 7 = domingo; begin/end 'HH:MM' local. */
export interface OpeningHoursDto {
  twentyFourSeven: boolean;
  periods: { weekday: number; begin: string; end: string }[];
}

/** A station as a choice in a form or filter (GET /Business/ChargingStation/Options). */
export interface StationOptionDto {
  id: string;
  name: string;
  city: string | null;
}

/** A charger as a choice in a form or filter (GET /Business/Charger/Options). */
export interface ChargerOptionDto {
  id: string;
  name: string;
  stationId: string | null;
  stationName: string | null;
}

export interface StationDto {
  id: string;
  name: string;
  address: string;
  city: string;
  province: ProvinceCode;
  provinceName: string;
  postalCode: string | null;
  /** ISO 3166-1 alpha-3 ('ARG'). */
  country: string;
  latitude: number;
  longitude: number;
  parkingType: ParkingType | null;
  /** Service codes from GET /Business/Service. */
  services: string[];
  openingHours: OpeningHoursDto;
  timeZone: string;
  photoUrl: string | null;
  published: boolean;
  /** OPEN (any tag) or KNOWN_TAGS (only the company's RFID tags). */
  authorizationPolicy: "OPEN" | "KNOWN_TAGS";
  /** The grid capacity its charging connectors share (kW); null: no limit. */
  gridCapacityKw: number | null;
  /** Drivers may prepay at the connectors' QR, between these amounts (centavos). */
  qrPaymentEnabled: boolean;
  qrMinCents: number;
  qrMaxCents: number;
  chargerCount: number;
  connectorCount: number;
  /** Connectors per bucket (domain/ocpp-status), every bucket present. */
  statusSummary: Record<StatusBucket, number>;
  createdAt: string;
  updatedAt: string;
}

// ---- Chargers ----------------------------------------------------------------------------------

export type { ConnectorFormat, PowerType, PriceDisplayMode };

export interface ConnectorDto {
  id: string;
  /** OCPP connectorId (1, 2, …). */
  connectorId: number;
  /** OCPI ConnectorType code and its Spanish label. */
  standard: string;
  standardLabel: string;
  format: ConnectorFormat;
  powerType: PowerType;
  maxPowerKw: number;
  rateId: string | null;
  rateName: string | null;
  status: ChargePointStatus;
  statusLabel: string;
  bucket: StatusBucket;
  errorCode: string | null;
  statusAt: string | null;
}

export interface ChargerDto {
  id: string;
  stationId: string | null;
  stationName: string | null;
  name: string;
  brandId: number | null;
  brandName: string | null;
  model: string | null;
  serialNumber: string | null;
  ocppIdentity: string;
  /** ws(s)://<public host>/ocpp/<ocppIdentity>, when the API knows its public origin. */
  ocppUrl: string | null;
  /** The subprotocol of the charger's last connection (ocpp1.6 until it first connects). */
  ocppProtocol: OcppProtocol;
  /** The same as a version: what the charger screen shows. */
  ocppVersion: OcppVersion;
  hasPassword: boolean;
  /**
   * The charger accepted a new password over OCPP but has not connected with it yet: the one
   * before it still opens until it does (ADR 0031).
   */
  passwordPending: boolean;
  enabled: boolean;
  heartbeatInterval: number;
  /** «Mostrar precio en el cargador»: AUTO, ON or OFF. */
  priceDisplay: PriceDisplayMode;
  /** Whether the price is shown on this charger now: the mode read with the protocol it speaks. */
  showsPrice: boolean;
  /** The charger refused the price messages (not supported): they are not sent again until the setting is saved. */
  priceDisplayRefused: boolean;
  vendor: string | null;
  bootModel: string | null;
  firmwareVersion: string | null;
  lastBootAt: string | null;
  lastHeartbeatAt: string | null;
  online: boolean;
  /** The local authorization list version the charger holds (its last answer; null: never asked), and when we learnt it. */
  localListVersion: number | null;
  localListAt: string | null;
  connectors: ConnectorDto[];
  statusSummary: Record<StatusBucket, number>;
  createdAt: string;
  updatedAt: string;
}

export type OcppVersion = "1.6" | "2.0.1";

/** GET /Business/Charger/:id/Event: what the charger reported about itself, newest first. */
export interface ChargerEventDto {
  id: number;
  /** The OCPP message: NotifyEvent, SecurityEventNotification, NotifyReport, … */
  kind: string;
  /** The kind in Spanish (domain/charger-events.ts). */
  kindLabel: string;
  /** One line: the event, status (in Spanish when known) or report part. */
  summary: string;
  at: string;
}

/** The latest device-model report (NotifyReport parts sharing its requestId). */
export interface ReportSummaryDto {
  requestId: number;
  /** Parts received so far. */
  parts: number;
  /** Variables listed in those parts. */
  variables: number;
  /** The last part (tbc false) arrived. */
  complete: boolean;
  firstAt: string;
  lastAt: string;
}

export interface ChargerEventPage extends Page<ChargerEventDto> {
  lastReport: ReportSummaryDto | null;
}

/** POST /Business/Charger and POST /Business/Charger/:id/RotatePassword: the password, once. */
export interface ChargerWithPasswordDto extends ChargerDto {
  ocppPassword: string;
  /**
   * RotatePassword: "charger" when the connected charger accepted it over OCPP (applied then),
   * "manual" when the charger was not connected and the operator must load it.
   */
  passwordDelivery?: "charger" | "manual";
}

// ---- Rates -------------------------------------------------------------------------------------

/** A rate as the API returns it: the priced columns (domain/pricing RateRow) plus usage. */
/** The company's local holidays (GET/PUT /Business/Holidays), and the national ones of the coming year beside them. */
export interface CompanyHolidaysDto {
  /** 'YYYY-MM-DD', in order: priced as "domingos y feriados" by every rate of the company. */
  dates: string[];
  /** The national holidays of the next twelve months ('YYYY-MM-DD'), already priced as Sundays. */
  national: string[];
}

export interface RateDto extends RateRow {
  bands: TariffBand[];
  localHolidays: string[];
  /** Connectors using this rate. */
  connectorCount: number;
  createdAt: string;
  updatedAt: string;
}

/** POST /Business/Fees/Preview */
export interface RatePreviewDto {
  /** With the energy, minutes and amount per time-of-use band (empty without bands). */
  price: BandedPrice;
  billableIdleMinutes: number;
  noShow: { feeCents: number; vatCents: number; totalCents: number };
}

/** A pending scheduled change of a rate: what changes, from when, and the rate as it will be then. */
export interface RateScheduleDto {
  id: string;
  rateId: string;
  /** ISO instant the change takes effect. */
  effectiveFrom: string;
  /** The fields the change sets (only those). */
  changes: RateChanges;
  /** The rate's values from `effectiveFrom` on (earlier pending changes included). */
  values: RateValues;
  /** E-mail of who scheduled it. */
  createdBy: string;
  createdAt: string;
}

/** GET /Business/Fees/{id}/Schedule: the prices in force now and the pending changes, soonest first. */
export interface RateScheduleListDto {
  current: RateValues;
  items: RateScheduleDto[];
}

/** POST /Business/Fees/Reprice: old → new per rate; `scheduleId` null in a preview or when nothing changes. */
export interface RateRepriceDto {
  preview: boolean;
  effectiveFrom: string;
  items: { rateId: string; name: string; before: RateValues; after: RateValues; changes: RateChanges; scheduleId: string | null }[];
}

// ---- Activity (charging sessions) --------------------------------------------------------------

export type { SessionPaymentStatus, SessionStatus };

export interface SessionDto {
  id: string;
  transactionId: number;
  stationId: string | null;
  stationName: string | null;
  chargerId: string | null;
  chargerName: string | null;
  connectorId: string | null;
  connectorNumber: number;
  connectorLabel: string | null;
  idTag: string;
  startedAt: string;
  stoppedAt: string | null;
  status: SessionStatus;
  energyWh: number;
  energyKwh: number;
  /** Start to stop (or now while open), whole minutes. */
  durationMinutes: number;
  idleMinutes: number;
  totalCents: number;
  currency: string;
  paymentStatus: SessionPaymentStatus;
  stopReason: string | null;
  stopReasonLabel: string | null;
}

export interface SessionPage extends Page<SessionDto> {
  /** Pass as `cursor` for the next page (keyset; default sort only). Null on the last page. */
  nextCursor: string | null;
  /** Pass as `before` for the previous page (keyset; default sort only). Null on the first page and on offset pages. */
  prevCursor: string | null;
  /** Every matching session, not just this page: energy of the sessions that started (not INVALID), revenue of the COMPLETED ones (the dashboard's definitions). */
  totals: { energyWh: number; totalCents: number };
}

export interface MeterPointDto {
  at: string;
  energyWh: number;
  powerW: number | null;
  soc: number | null;
}

export interface SessionDetailDto extends SessionDto {
  meterStartWh: number;
  meterStopWh: number | null;
  /** The meter went backwards or restarted: how the session was billed anyway (Spanish, for the operator); null when it only moved forward. */
  meterFaultNotice: string | null;
  chargingEndedAt: string | null;
  unpluggedAt: string | null;
  rateId: string | null;
  rateSnapshot: RateSnapshot | null;
  cost: SessionPrice;
  /** True while the session is open: `cost` is priced from its rate snapshot up to now. */
  costIsEstimate: boolean;
  /**
   * Energy, minutes and amount per time-of-use band, adding up to `cost`'s energy and time;
   * null when the rate has no bands. `estimated`: a band edge fell between meter readings.
   */
  bands: SessionBands | null;
  meterSeries: MeterPointDto[];
  payments: PaymentDto[];
}

// ---- Dashboard / graphics ----------------------------------------------------------------------

export interface DashboardDto {
  from: string;
  to: string;
  energyKwh: number;
  sessions: number;
  /** Share (0–100) of sessions in the period that started and were not invalid; null without sessions. */
  startSuccessRate: number | null;
  /** Revenue and idle penalties: only for the roles that may see payments (absent for Técnico). */
  revenueCents?: number;
  idleRevenueCents?: number;
  /** Occupied connector time over available connector time in the period, 0–100. */
  utilizationPct: number | null;
  /** Connector time not Faulted/Unavailable over tracked time in the period, 0–100. */
  availabilityPct: number | null;
  chargersTotal: number;
  chargersOnline: number;
  chargersOffline: number;
  connectorsTotal: number;
  connectorStatus: Record<ChargePointStatus, number>;
  statusSummary: Record<StatusBucket, number>;
  activeSessions: number;
}

export type GraphicSeries = "energyRevenueByDay" | "sessionsByHour" | "topStations";

export interface GraphicDto {
  series: GraphicSeries;
  from: string;
  to: string;
  timeZone: string;
  /** Amounts only for the roles that may see payments; for the others topStations is ranked by energy. */
  points:
    | { date: string; energyKwh: number; revenueCents?: number; idleRevenueCents?: number; sessions: number }[]
    | { hour: number; sessions: number; energyKwh: number }[]
    | { stationId: string; stationName: string; sessions: number; energyKwh: number; revenueCents?: number }[];
}

// ---- Notifications -----------------------------------------------------------------------------

export interface NotificationDto {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  link: string | null;
  readAt: string | null;
  createdAt: string;
}

export interface NotificationPage extends Page<NotificationDto> {
  unread: number;
}

export interface PushRegistrationDto {
  id: string;
  token: string;
  createTime: string;
}

// ---- Payments ----------------------------------------------------------------------------------

export type { PaymentAccountStatus, PaymentProviderCode, PaymentStatus };

/** GET|PUT /MercadoPago/BusinessUser, /Pagos360/BusinessUser. Credentials are never returned. */
export interface PaymentAccountDto {
  provider: PaymentProviderCode;
  connected: boolean;
  /** DISCONNECTED: no credentials stored. */
  status: PaymentAccountStatus | "DISCONNECTED";
  /** Last 4 characters of the access token / API key. */
  last4: string | null;
  accountLabel: string | null;
  /** 'TEST' or 'PRODUCTION' for Mercado Pago credentials; null otherwise. */
  environment: "TEST" | "PRODUCTION" | null;
  lastError: string | null;
  connectedAt: string | null;
  updatedAt: string | null;
}

export interface PaymentDto {
  id: string;
  sessionId: string | null;
  transactionId: number | null;
  stationName: string | null;
  provider: PaymentProviderCode;
  amountCents: number;
  currency: string;
  status: PaymentStatus;
  externalId: string | null;
  /** SESSION (an amount a priced session owes) or QR (a driver's prepayment at a connector). */
  origin: PaymentOrigin;
  /** QR: where the driver's charge is (domain/driver-payment DRIVER_STEPS); null for SESSION. */
  step: DriverStep | null;
  /** QR: what the session cost, capped at the prepaid amount (null until it is priced). */
  chargedCents: number | null;
  /** What went back to the driver (a QR's unused balance or the whole payment). */
  refundedCents: number;
  /** QR, step REFUND_PENDING: what the company still owes the driver and refunds by hand (Pagos360); 0 otherwise. */
  refundOwedCents: number;
  /** The provider's fee (its commission and the taxes on it), once reconciliation has read it; null until the provider reports one. */
  feeCents: number | null;
  /** What the company keeps: the approved amount less its refunds and the provider's fee when known (0 while pending or if rejected). */
  netCents: number;
  /** A second approved payment on the same checkout (the driver paid twice): the payment it duplicates, and that one's provider id; null otherwise. */
  parentPaymentId: string | null;
  parentExternalId: string | null;
  /** In dispute or charged back: what the company may lose (the amount less what already went back); 0 otherwise. */
  atRiskCents: number;
  /** The company blocked this payment's driver (by e-mail) from paying at its QR pages. */
  driverBlocked: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One payment that does not match the provider's record (domain/reconciliation). */
export interface ReconciliationDifferenceDto {
  kind: DifferenceKind;
  provider: PaymentProviderCode;
  /** Our payment (for UNKNOWN_TO_US, the one whose reference the provider's payment carries). */
  paymentId: string;
  /** The provider's payment id; null when it has none for ours. */
  externalId: string | null;
  /** Our value and the provider's: centavos for amounts and refunds, our status names for states, the currency code. */
  ours: string | null;
  theirs: string | null;
  /** What differs, in Spanish. */
  description: string;
}

/** GET /Business/Payments/Reconciliation and POST …/Run. */
export interface ReconciliationDto {
  differences: ReconciliationDifferenceDto[];
  /** Our payments compared with a provider's record. */
  checked: number;
  /** The provider's side of the period: gross of what moved money, its fees, refunds, and net = gross − refunded − fee. */
  totals: { grossCents: number; feeCents: number; refundedCents: number; netCents: number };
  /** Providers whose payments were not compared (not connected, not answering), with why. */
  unchecked: { provider: PaymentProviderCode; reason: string }[];
  /** The period read: [from, to). */
  from: string;
  to: string;
  /** POST …/Run: the differences notified now (those not notified before). */
  reported?: number;
}

export interface PaymentPage extends Page<PaymentDto> {
  /** refundPendingCount / refundOwedCents: QR payments in REFUND_PENDING and what the company owes their drivers (Pagos360, refunded by hand). */
  /** feeCents / netCents: the providers' fees known for the payments that moved money, and what the company keeps of them (the rows' netCents added up). */
  totals: { count: number; amountCents: number; approvedCents: number; pendingCents: number; refundedCents: number; refundPendingCount: number; refundOwedCents: number; feeCents: number; netCents: number };
}

// ---- Invoices (ARCA) ----------------------------------------------------------------

/** GET /Business/Invoice/{id}: one electronic voucher. */
export interface InvoiceDto {
  id: string;
  /** ARCA's voucher code: 1/6/11 Factura A/B/C, 3/8/13 their credit notes; null until the company's tax condition decides it. */
  type: number | null;
  typeLabel: string | null;
  pointOfSale: number | null;
  /** Given by ARCA on authorisation. */
  number: number | null;
  /** "0003-00000042" once numbered. */
  formattedNumber: string | null;
  cae: string | null;
  caeDueDate: string | null;
  status: InvoiceStatus;
  totalCents: number;
  netCents: number;
  vatCents: number;
  exemptCents: number;
  receiver: { docType: number; docNumber: string; name: string | null };
  /** The QR payment it invoices, or the sessions of a monthly invoice. */
  paymentId: string | null;
  sessionIds: string[] | null;
  /** A monthly invoice: the access group it invoices (null name once the group was deleted) and its month ("2026-10-01"). */
  accessGroup: { id: string | null; name: string | null } | null;
  billingMonth: string | null;
  /** A credit note: the invoice it corrects. */
  creditNoteOf: string | null;
  issueDate: string;
  serviceFrom: string;
  serviceTo: string;
  attempts: number;
  nextAttemptAt: string | null;
  /** Why it is not authorised yet, or ARCA's rejection, in Spanish. */
  lastError: string | null;
  createdAt: string;
}

/** One session a monthly invoice covers, as it was charged. */
export interface InvoiceSessionDto {
  id: string;
  transactionId: number;
  idTag: string;
  stationName: string | null;
  startedAt: string;
  stoppedAt: string | null;
  energyWh: number;
  /** What the session was charged (VAT included) and the VAT rate it was priced at. */
  totalCents: number;
  vatRateBp: number;
}

/** GET /Business/Invoice/{id}: the voucher and, for a monthly invoice, the sessions it covers. */
export interface InvoiceDetailDto extends InvoiceDto {
  sessions: InvoiceSessionDto[];
}

/** GET /Business/Invoice: a page of vouchers and how many of the company's wait for ARCA. */
export interface InvoicePage extends Page<InvoiceDto> {
  pendingCount: number;
}

// ---- Team ---------------------------------------------------------------------------

/** GET /Business/Member */
export interface MemberDto {
  id: string;
  email: string;
  role: Role;
  lastSignInAt: string | null;
  joinedAt: string;
  /** This member is the caller. */
  you: boolean;
}

/** GET /Business/Invitation (open ones), POST, …/Resend */
export interface InvitationDto {
  id: string;
  email: string;
  role: Role;
  invitedByEmail: string;
  sentAt: string;
  expiresAt: string;
  expired: boolean;
}

/** POST /Invitation/Lookup (public): what a link offers. */
export interface InvitationPreviewDto {
  businessName: string;
  email: string;
  role: Role;
  expiresAt: string;
  state: "PENDING" | "EXPIRED" | "ACCEPTED" | "REVOKED";
}

/** POST /Business/Member: joined with an invitation. */
export interface JoinedDto {
  businessId: string;
  businessName: string;
  memberId: string;
  role: Role;
  /** False when the account already was a member (the invitation is used up anyway). */
  created: boolean;
}

/** GET /Business/Audit */
export interface AuditEntryDto {
  id: string;
  at: string;
  actorEmail: string;
  actorRole: Role | null;
  action: string;
  resourceType: string;
  resourceId: string | null;
  resourceLabel: string | null;
  changes: Record<string, { before: unknown; after: unknown }>;
  ip: string | null;
}

export interface AuditPage extends Page<AuditEntryDto> {
  /** Every e-mail with an entry in the log (the screen's person filter), sorted. */
  actors: string[];
}

// ---- RFID tags and access groups ----------------------------------------------------

export interface TagDto {
  id: string;
  idTag: string;
  holderName: string;
  email: string | null;
  /** Last valid day, YYYY-MM-DD (inclusive); null: no expiry. */
  expiresOn: string | null;
  blocked: boolean;
  groupId: string | null;
  groupName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AccessGroupDto {
  id: string;
  name: string;
  allStations: boolean;
  /** The stations its tags may use when not allStations, by name. */
  stations: { id: string; name: string }[];
  rateId: string | null;
  rateName: string | null;
  tagCount: number;
  /** Who pays for the group's tags (all null: nobody), and whether it gets one invoice a month for their sessions. */
  billingCuit: string | null;
  billingName: string | null;
  billingTaxCondition: ReceiverTaxCondition | null;
  billingMonthly: boolean;
  createdAt: string;
  updatedAt: string;
}

/** POST /Business/Tag/Import: what the file did (nothing at all when any row is wrong: 422). */
export interface TagImportDto {
  created: number;
  updated: number;
}

// ---------------------------------------------------------------------------------------------
// A charger's maintenance: its OCPP messages, firmware and diagnostics

/** GET /Business/Charger/:id/Message: one OCPP frame, secrets redacted. */
export interface OcppMessageDto {
  seq: number;
  at: string;
  /** IN: charger → Enchufá; OUT: Enchufá → charger. */
  direction: "IN" | "OUT";
  directionLabel: string;
  /** OCPP-J: 2 CALL, 3 CALLRESULT, 4 CALLERROR (0: a frame that was not JSON). */
  messageType: number;
  messageTypeLabel: string;
  messageId: string;
  /** The call's action; for a result or error, the call it answers (when known). */
  action: string | null;
  payload: string;
}

export interface FirmwareStateDto {
  id: string;
  name: string;
  online: boolean;
  /** As the charger reported it at boot. */
  firmwareVersion: string | null;
  /** The last update asked of it: where from, and when. */
  location: string | null;
  requestedAt: string | null;
  /** Its latest FirmwareStatusNotification, and the same in Spanish. */
  status: string | null;
  statusLabel: string;
  statusAt: string | null;
}

/** GET /Business/Charger/:id/Firmware */
export interface ChargerFirmwareDto {
  charger: FirmwareStateDto;
  /** The chargers of the same brand and model (the charger among them), when it has a model. */
  model: { brandName: string | null; model: string; chargers: FirmwareStateDto[] } | null;
}

/** POST /Business/Charger/:id/Firmware */
export interface FirmwareUpdateDto {
  outcome: "accepted" | "partial" | "rejected";
  message: string;
  results: { chargerId: string; name: string; outcome: "accepted" | "rejected" | "timeout" | "offline" | "error"; message: string }[];
}

export interface DiagnosticsDto {
  id: string;
  status: "REQUESTED" | "REJECTED" | "UPLOADING" | "UPLOADED" | "FAILED";
  statusLabel: string;
  /** The charger's latest report about it (Uploading, UploadFailed…), as sent. */
  chargerStatus: string | null;
  fileName: string | null;
  sizeBytes: number | null;
  requestedAt: string;
  uploadedAt: string | null;
}

/** POST /Business/Charger/:id/Diagnostics: the charger's answer and the request kept. */
export interface DiagnosticsRequestedDto {
  kind: "GetDiagnostics";
  outcome: "accepted" | "rejected" | "timeout" | "offline" | "error";
  status?: string;
  fileName?: string;
  message: string;
  diagnostics: DiagnosticsDto | null;
}

// ---- Reservations (ADR 0018) -------------------------------------------------------------------

export type { ReservationStatus };

export interface ReservationDto {
  id: string;
  /** The OCPP reservationId the charger knows it by. */
  reservationId: number;
  status: ReservationStatus;
  /** The charger's answer to ReserveNow (Accepted, Occupied, Faulted, Unavailable, Rejected, timeout…) or its removal. */
  chargerStatus: string | null;
  stationId: string | null;
  stationName: string | null;
  chargerId: string | null;
  chargerName: string | null;
  connectorId: string | null;
  connectorNumber: number;
  idTag: string;
  expiresAt: string;
  createdAt: string;
  /** When it stopped being active. */
  endedAt: string | null;
  /** The session that used it. */
  sessionId: string | null;
  /** The no-show fee's session (Actividad) and its total, when it expired unused with a fee (the total only for the roles that may see payments). */
  feeSessionId: string | null;
  feeTotalCents?: number | null;
}

/** POST and DELETE /Business/Reservation: the reservation and what the charger said, in Spanish. */
export interface ReservationResultDto extends ReservationDto {
  message: string;
}

/** POST /Business/Charger/{id}/LocalList and …/LocalList/Version: what the charger answered. */
export interface LocalListResultDto {
  outcome: "accepted" | "rejected" | "timeout" | "offline" | "error";
  /** The charger's status (Accepted, Failed, NotSupported, VersionMismatch) or timeout/offline. */
  status: string;
  /** The version the charger holds now, as far as we know. */
  version: number | null;
  /** Tags in the list sent. */
  entries?: number;
  message: string;
}

/** GET /Business/ChargingStation/{id}/Allocation: how the grid capacity is shared right now (ADR 0018). */
export interface StationAllocationDto {
  gridCapacityKw: number | null;
  /** Σ of the limits given plus the maxima of connectors that take none. */
  allocatedKw: number;
  connectors: {
    connectorId: string;
    chargerId: string;
    chargerName: string;
    connectorNumber: number;
    maxPowerKw: number;
    /** The limit last sent; null when the charger takes none (counted at its maximum). */
    allocatedKw: number | null;
    /** The charger's answer to the last SetChargingProfile (Accepted, Rejected, NotSupported, timeout…). */
    status: string | null;
    at: string | null;
  }[];
}

// ---- Roaming -----------------------------------------------------------------------

/** The operator's OCPI identity and the versions URL partners are given. */
export interface RoamingSettingsDto {
  countryCode: "AR";
  /** Null until set on the Roaming screen; partners cannot be added before. */
  partyId: string | null;
  versionsUrl: string;
}

export interface RoamingPartnerDto {
  id: string;
  /** PENDING: token A handed over, not registered yet; REGISTERED; UNREGISTERED: the partner left. */
  status: "PENDING" | "REGISTERED" | "UNREGISTERED";
  name: string | null;
  countryCode: string | null;
  partyId: string | null;
  versionsUrl: string | null;
  version: string | null;
  /** The partner's modules (identifier and role), e.g. "cdrs RECEIVER". */
  modules: string[];
  lastSyncAt: string | null;
  failures: number;
  lastError: string | null;
  createdAt: string;
}

/** POST /Business/Roaming/Partner: our versions URL and, for an invitation, the token A (shown once). */
export interface RoamingPartnerCreatedDto {
  /** The partner's id (as `partner.id`). */
  id: string;
  partner: RoamingPartnerDto;
  versionsUrl: string;
  /** Token A for the partner to register with; null when we registered with the partner. */
  token: string | null;
}

export interface RoamingStationDto {
  id: string;
  name: string;
  city: string;
  roamingPublished: boolean;
}

// The driver's pages at a connector's QR (public: no account).

/** A connector as the driver sees it. */
export type ConnectorState = "AVAILABLE" | "BUSY" | "OUT_OF_SERVICE" | "OFFLINE";

/** What the QR page shows: nothing of the operator beyond what a driver needs. */
export interface ChargePointInfo {
  stationName: string;
  address: string;
  city: string;
  chargerName: string;
  connectorNumber: number;
  connectorType: string;
  maxPowerKw: number;
  state: ConnectorState;
  stateLabel: string;
  rate: Pick<RateSnapshot, "pricePerKwhCents" | "pricePerMinuteCents" | "sessionFeeCents" | "idleGraceMinutes" | "idlePricePerMinuteCents" | "idleMaxCents" | "vatIncluded" | "vatRateBp"> | null;
  providers: PaymentProviderCode[];
  minCents: number;
  maxCents: number;
  presets: number[];
  /**
   * With time-of-use bands: the price in force now (its band's name for drivers, or null) and the
   * next change of it — today, tomorrow or later in the week; null when the rate has one price all day.
   */
  bandNow: {
    name: string | null;
    pricePerKwhCents: number;
    pricePerMinuteCents: number;
    next: { at: string; day: "TODAY" | "TOMORROW" | "LATER"; name: string | null; pricePerKwhCents: number; pricePerMinuteCents: number } | null;
  } | null;
  /** The rate's next scheduled change when it is within 24 h: from when (today or tomorrow, Argentine time) and the prices then. */
  upcoming: { effectiveFrom: string; day: "TODAY" | "TOMORROW"; pricePerKwhCents: number; pricePerMinuteCents: number; sessionFeeCents: number } | null;
  /** Why charging cannot start now (Spanish), or null when the driver may pay. */
  unavailable: string | null;
}

export interface PaymentView {
  id: string;
  provider: PaymentProviderCode;
  step: DriverStep;
  status: PaymentStatus;
  amountCents: number;
  chargedCents: number | null;
  refundedCents: number;
  checkoutUrl: string | null;
  failureReason: string | null;
  stationName: string;
  chargerName: string;
  connectorNumber: number;
  createdAt: string;
  session: {
    startedAt: string;
    stoppedAt: string | null;
    energyWh: number;
    minutes: number;
    costCents: number | null;
    status: string;
    price: SessionPrice | null;
  } | null;
  canStop: boolean;
  stopRequested: boolean;
  receipt: Receipt | null;
}

export interface Receipt {
  companyName: string;
  cuit: string | null;
  stationName: string;
  address: string;
  chargerName: string;
  connectorNumber: number;
  startedAt: string;
  endedAt: string | null;
  energyWh: number;
  chargingMinutes: number;
  idleMinutes: number;
  breakdown: { energyCents: number; timeCents: number; sessionFeeCents: number; idleCents: number; vatCents: number; totalCents: number };
  /**
   * Energy, minutes and amount (energy + time, as charged) per time-of-use band; the amounts add
   * up to the breakdown's energy and time. Empty when the rate has no bands.
   */
  bands: { label: string; energyWh: number; minutes: number; amountCents: number }[];
  /** A band edge fell between meter readings: the energy per band is interpolated. */
  bandsEstimated: boolean;
  prepaidCents: number;
  chargedCents: number;
  refundedCents: number;
  /** Still owed to the driver, to be refunded by the operator by hand (Pagos360: REFUND_PENDING); 0 otherwise. */
  pendingRefundCents: number;
  provider: PaymentProviderCode;
  providerPaymentId: string | null;
  /** The fiscal voucher once ARCA authorised it: "Factura B N° 0003-00000042 · CAE 76123456789012"; null before (or without invoicing). */
  invoice: string | null;
  /** The payment has a fiscal voucher that ARCA has not authorised yet (queued, ARCA down, or rejected until the operator retries). */
  invoicePending: boolean;
}

/** What the company's fiscal settings show (GET/PUT /Business/Fiscal); the certificate and key never leave the server. */
export interface FiscalSettingsDto {
  configured: boolean;
  /** The company's own CUIT (its profile's), the one the certificate must be for. */
  companyCuit: string | null;
  taxCondition: TaxConditionCode | null;
  pointOfSale: number | null;
  environment: ArcaEnvironmentCode;
  certificate: {
    cuit: string | null;
    expiresAt: string | null;
    fingerprint: string | null;
    /** Expires within 30 days (or has expired). */
    expiresSoon: boolean;
    expired: boolean;
  } | null;
  lastTest: { at: string; ok: boolean; message: string } | null;
  updatedAt: string | null;
}

/** POST /Business/Fiscal/Test: each step of "Probar conexión", in order, until the first that fails. */
export interface FiscalTestDto {
  ok: boolean;
  message: string;
  steps: { step: "certificate" | "login" | "health" | "pointOfSale"; ok: boolean; message: string }[];
}
