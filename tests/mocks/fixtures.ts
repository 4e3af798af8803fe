// Response bodies the msw handlers answer with, typed by the API's own DTOs (contract/dto.ts),
// so a contract change breaks the loader tests that rely on them at compile time.
import type {
  AccountBusinessDto,
  BusinessUserDto,
  ChargerBrandDto,
  ChargerDto,
  ChargerEventPage,
  ChargerFirmwareDto,
  DiagnosticsDto,
  ConnectorTypeDto,
  DashboardDto,
  GraphicDto,
  NotificationPage,
  OcppMessageDto,
  Page,
  PaymentAccountDto,
  PaymentDto,
  PaymentPage,
  ReconciliationDto,
  RateDto,
  ServiceDto,
  SessionDetailDto,
  SessionDto,
  SessionPage,
  StationDto,
} from "#contract/dto";

const T0 = "2025-03-01T12:00:00.000Z";
export const IDS = {
  business: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  station: "6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f",
  charger: "7a2b3c4d-5e6f-4a7b-9c8d-1e2f3a4b5c6d",
  connector: "8b3c4d5e-6f7a-4b8c-8d9e-2f3a4b5c6d7e",
  rate: "9c4d5e6f-7a8b-4c9d-8e0f-3a4b5c6d7e8f",
  session: "0d5e6f7a-8b9c-4d0e-8f1a-4b5c6d7e8f9a",
  notification: "1e6f7a8b-9c0d-4e1f-8a2b-5c6d7e8f9a0b",
  payment: "2f7a8b9c-0d1e-4f2a-8b3c-6d7e8f9a0b1c",
  refundPayment: "3a8b9c0d-1e2f-4a3b-9c4d-7e8f9a0b1c2d",
} as const;

const businessUser: BusinessUserDto = {
  businessAddress: "Av. Corrientes 1234, CABA",
  businessName: "Cargas del Sur S.A.",
  cuit: "30712345671",
  phoneNumber: "+54 11 4567-8900",
  photoUrl: `/api/images/${"a".repeat(64)}.jpg`,
  status: "ACTIVE",
  email: "ops@cargasdelsur.com.ar",
};

const accountBusiness: AccountBusinessDto = {
  exists: true,
  email: businessUser.email,
  status: "ACTIVE",
  businessName: businessUser.businessName,
  cuit: businessUser.cuit,
  businessId: IDS.business,
  role: "OWNER",
  companies: [{ businessId: IDS.business, businessName: businessUser.businessName, status: "ACTIVE", role: "OWNER" }],
};

const station: StationDto = {
  id: IDS.station,
  name: "Estación Palermo",
  address: "Av. Santa Fe 3253",
  city: "Buenos Aires",
  province: "AR-C",
  provinceName: "Ciudad Autónoma de Buenos Aires",
  postalCode: "C1425BGH",
  country: "ARG",
  latitude: -34.5875,
  longitude: -58.4097,
  parkingType: "PARKING_LOT",
  services: ["WIFI", "CAFE"],
  openingHours: { twentyFourSeven: true, periods: [] },
  timeZone: "America/Argentina/Buenos_Aires",
  photoUrl: null,
  published: true,
  authorizationPolicy: "OPEN",
  gridCapacityKw: null,
  qrPaymentEnabled: false,
  qrMinCents: 100_000,
  qrMaxCents: 5_000_000,
  chargerCount: 1,
  connectorCount: 2,
  statusSummary: { available: 1, charging: 1, faulted: 0, offline: 0 },
  createdAt: T0,
  updatedAt: T0,
};

const rate: RateDto = {
  id: IDS.rate,
  name: "AC Estándar",
  currency: "ARS",
  pricePerKwhCents: 35_000,
  pricePerMinuteCents: 0,
  sessionFeeCents: 0,
  vatIncluded: true,
  vatRateBp: 2100,
  idleGraceMinutes: 30,
  idlePricePerMinuteCents: 5_000,
  idleMaxCents: 500_000,
  idleActiveFrom: null,
  idleActiveTo: null,
  noShowFeeCents: 150_000,
  bands: [],
  localHolidays: [],
  connectorCount: 1,
  createdAt: T0,
  updatedAt: T0,
};

const charger: ChargerDto = {
  id: IDS.charger,
  stationId: IDS.station,
  stationName: station.name,
  name: "Wallbox Norte",
  brandId: 5,
  brandName: "Wallbox",
  model: "Commander 2",
  serialNumber: "WB-000123",
  ocppIdentity: "AR-BUE-0001",
  ocppUrl: "wss://enchufa.example/ocpp/AR-BUE-0001",
  ocppProtocol: "ocpp1.6",
  ocppVersion: "1.6",
  hasPassword: true,
  passwordPending: false,
  enabled: true,
  heartbeatInterval: 300,
  priceDisplay: "AUTO",
  showsPrice: false,
  priceDisplayRefused: false,
  vendor: "Wall Box Chargers",
  bootModel: "CMX2",
  firmwareVersion: "6.2.1",
  lastBootAt: T0,
  lastHeartbeatAt: T0,
  online: true,
  localListVersion: null,
  localListAt: null,
  connectors: [
    {
      id: IDS.connector,
      connectorId: 1,
      standard: "IEC_62196_T2",
      standardLabel: "Tipo 2",
      format: "SOCKET",
      powerType: "AC_3_PHASE",
      maxPowerKw: 22,
      rateId: IDS.rate,
      rateName: rate.name,
      status: "Charging",
      statusLabel: "Cargando",
      bucket: "charging",
      errorCode: null,
      statusAt: T0,
    },
  ],
  statusSummary: { available: 0, charging: 1, faulted: 0, offline: 0 },
  createdAt: T0,
  updatedAt: T0,
};

const sessionRow: SessionDto = {
  id: IDS.session,
  transactionId: 1001,
  stationId: IDS.station,
  stationName: station.name,
  chargerId: IDS.charger,
  chargerName: charger.name,
  connectorId: IDS.connector,
  connectorNumber: 1,
  connectorLabel: "Tipo 2",
  idTag: "04A2B3C4",
  startedAt: "2025-03-01T15:00:00.000Z",
  stoppedAt: "2025-03-01T16:10:00.000Z",
  status: "COMPLETED",
  energyWh: 18_250,
  energyKwh: 18.25,
  durationMinutes: 70,
  idleMinutes: 10,
  totalCents: 638_750,
  currency: "ARS",
  paymentStatus: "PAID",
  stopReason: "EVDisconnected",
  stopReasonLabel: "Vehículo desconectado",
};

const session: SessionDetailDto = {
  ...sessionRow,
  meterStartWh: 1_200_000,
  meterStopWh: 1_218_250,
  meterFaultNotice: null,
  chargingEndedAt: "2025-03-01T16:00:00.000Z",
  unpluggedAt: "2025-03-01T16:10:00.000Z",
  rateId: IDS.rate,
  rateSnapshot: {
    rateId: IDS.rate,
    name: rate.name,
    currency: "ARS",
    pricePerKwhCents: 35_000,
    pricePerMinuteCents: 0,
    sessionFeeCents: 0,
    vatIncluded: true,
    vatRateBp: 2100,
    idleGraceMinutes: 30,
    idlePricePerMinuteCents: 5_000,
    idleMaxCents: 500_000,
    idleActiveFrom: null,
    idleActiveTo: null,
    noShowFeeCents: 150_000,
    bands: [],
    localHolidays: [],
  },
  cost: { energyCents: 638_750, timeCents: 0, sessionFeeCents: 0, idleCents: 0, subtotalCents: 638_750, vatCents: 110_856, totalCents: 638_750 },
  costIsEstimate: false,
  bands: null,
  meterSeries: [
    { at: "2025-03-01T15:00:00.000Z", energyWh: 0, powerW: 11_000, soc: null },
    { at: "2025-03-01T16:00:00.000Z", energyWh: 18_250, powerW: 0, soc: null },
  ],
  payments: [],
};

const page = <T>(items: T[]): Page<T> => ({ items, total: items.length, page: 1, pageSize: 20 });

const activity: SessionPage = { ...page([sessionRow]), nextCursor: null, prevCursor: null, totals: { energyWh: 18_250, totalCents: 638_750 } };

const dashboard: DashboardDto = {
  from: "2025-02-01T03:00:00.000Z",
  to: "2025-03-03T03:00:00.000Z",
  energyKwh: 1234.5,
  sessions: 210,
  startSuccessRate: 97.6,
  revenueCents: 45_678_900,
  idleRevenueCents: 1_234_500,
  utilizationPct: 18.4,
  availabilityPct: 99.1,
  chargersTotal: 12,
  chargersOnline: 11,
  chargersOffline: 1,
  connectorsTotal: 20,
  connectorStatus: { Available: 14, Preparing: 0, Charging: 3, SuspendedEVSE: 0, SuspendedEV: 1, Finishing: 0, Reserved: 0, Unavailable: 1, Faulted: 1 },
  statusSummary: { available: 14, charging: 4, faulted: 1, offline: 1 },
  activeSessions: 4,
};

const graphic: GraphicDto = {
  series: "energyRevenueByDay",
  from: dashboard.from,
  to: dashboard.to,
  timeZone: "America/Argentina/Buenos_Aires",
  points: [
    { date: "2025-03-01", energyKwh: 42.1, revenueCents: 1_520_000, idleRevenueCents: 25_000, sessions: 7 },
    { date: "2025-03-02", energyKwh: 38.7, revenueCents: 1_390_000, idleRevenueCents: 0, sessions: 6 },
  ],
};

const notifications: NotificationPage = {
  ...page([{ id: IDS.notification, type: "CHARGER_FAULTED", title: "Cargador en falla", body: "Wallbox Norte informó una falla.", link: `/charger/edit/${IDS.charger}`, readAt: null, createdAt: T0 }]),
  unread: 1,
};

const paymentAccount = (provider: PaymentAccountDto["provider"]): PaymentAccountDto => ({
  provider,
  connected: true,
  status: "CONNECTED",
  last4: "4821",
  accountLabel: provider === "MERCADOPAGO" ? "Mercado Pago" : "Pagos360",
  environment: provider === "MERCADOPAGO" ? "PRODUCTION" : null,
  lastError: null,
  connectedAt: T0,
  updatedAt: T0,
});

const paymentsPage: PaymentPage = {
  ...page([
    { id: IDS.payment, sessionId: IDS.session, transactionId: 1001, stationName: station.name, provider: "MERCADOPAGO", amountCents: 638_750, currency: "ARS", status: "APPROVED", externalId: "mp-123", origin: "SESSION", step: null, chargedCents: null, refundedCents: 0, refundOwedCents: 0, feeCents: null, netCents: 638_750, parentPaymentId: null, parentExternalId: null, atRiskCents: 0, driverBlocked: false, createdAt: T0, updatedAt: T0 },
  ]),
  totals: { count: 1, amountCents: 638_750, approvedCents: 638_750, pendingCents: 0, refundedCents: 0, refundPendingCount: 0, refundOwedCents: 0, feeCents: 0, netCents: 638_750 },
};

/** A driver's Pagos360 prepayment whose unused balance the company owes by hand (REFUND_PENDING). */
const refundPendingPayment: PaymentDto = {
  id: IDS.refundPayment,
  sessionId: IDS.session,
  transactionId: 1002,
  stationName: station.name,
  provider: "PAGOS360",
  amountCents: 500_000,
  currency: "ARS",
  status: "APPROVED",
  externalId: "1000456",
  origin: "QR",
  step: "REFUND_PENDING",
  chargedCents: 120_000,
  refundedCents: 0,
  refundOwedCents: 380_000,
  feeCents: null,
  netCents: 500_000,
  parentPaymentId: null,
  parentExternalId: null,
  atRiskCents: 0,
  driverBlocked: false,
  createdAt: T0,
  updatedAt: T0,
};
const refundPendingPage: PaymentPage = {
  ...page([refundPendingPayment]),
  totals: { count: 1, amountCents: 500_000, approvedCents: 500_000, pendingCents: 0, refundedCents: 0, refundPendingCount: 1, refundOwedCents: 380_000, feeCents: 0, netCents: 500_000 },
};

/** GET /Business/Payments/Reconciliation: one payment whose amount differs at Mercado Pago. */
const reconciliation: ReconciliationDto = {
  differences: [
    {
      kind: "AMOUNT",
      provider: "MERCADOPAGO",
      paymentId: refundPendingPayment.id,
      externalId: "5001",
      ours: "500000",
      theirs: "490000",
      description: "Mostramos $ 5.000,00; Mercado Pago registra $ 4.900,00.",
    },
  ],
  checked: 3,
  totals: { grossCents: 1_000_000, feeCents: 48_300, refundedCents: 0, netCents: 951_700 },
  unchecked: [],
  from: "2025-02-22T03:00:00.000Z",
  to: "2025-03-01T03:00:00.000Z",
};

const services: ServiceDto[] = [
  { id: 1, code: "WIFI", label: "Wi-Fi" },
  { id: 2, code: "RESTROOMS", label: "Baños" },
  { id: 3, code: "CAFE", label: "Cafetería" },
];
const chargerBrands: ChargerBrandDto[] = [
  { id: 1, name: "ABB" },
  { id: 5, name: "Wallbox" },
];
const connectorTypes: ConnectorTypeDto[] = [
  { id: 1, code: "IEC_62196_T2", label: "Tipo 2", defaultPowerType: "AC_3_PHASE" },
  { id: 2, code: "IEC_62196_T2_COMBO", label: "CCS2 (Combo 2)", defaultPowerType: "DC" },
];

/** GET /Business/Charger/:id/Firmware: an update asked of the whole model, one charger installed. */
const chargerFirmware: ChargerFirmwareDto = {
  charger: {
    id: IDS.charger,
    name: "Wallbox Norte",
    online: true,
    firmwareVersion: "5.17.2",
    location: "https://fw.wallbox.example/commander2-5.18.0.bin",
    requestedAt: "2025-06-15T17:00:00.000Z",
    status: "Installed",
    statusLabel: "Instalado",
    statusAt: "2025-06-15T17:20:00.000Z",
  },
  model: {
    brandName: "Wallbox",
    model: "Commander 2",
    chargers: [
      {
        id: IDS.charger,
        name: "Wallbox Norte",
        online: true,
        firmwareVersion: "5.17.2",
        location: "https://fw.wallbox.example/commander2-5.18.0.bin",
        requestedAt: "2025-06-15T17:00:00.000Z",
        status: "Installed",
        statusLabel: "Instalado",
        statusAt: "2025-06-15T17:20:00.000Z",
      },
      {
        id: "0b6e0c8a-1c1d-4c5e-9a43-3a0f0f0f0f0f",
        name: "Wallbox Sur",
        online: false,
        firmwareVersion: "5.17.2",
        location: null,
        requestedAt: null,
        status: null,
        statusLabel: "Sin informar",
        statusAt: null,
      },
    ],
  },
};

/** GET /Business/Charger/:id/Message: a heartbeat and its answer, newest first. */
const ocppMessages: Page<OcppMessageDto> = {
  items: [
    { seq: 2, at: "2025-06-15T17:00:01.000Z", direction: "OUT", directionLabel: "Enviado", messageType: 3, messageTypeLabel: "Respuesta", messageId: "hb-1", action: "Heartbeat", payload: '{"currentTime":"2025-06-15T17:00:01.000Z"}' },
    { seq: 1, at: "2025-06-15T17:00:00.000Z", direction: "IN", directionLabel: "Recibido", messageType: 2, messageTypeLabel: "Llamada", messageId: "hb-1", action: "Heartbeat", payload: "{}" },
  ],
  total: 2,
  page: 1,
  pageSize: 50,
};

/** GET /Business/Charger/:id/Diagnostics: one file received, one refused. */
const chargerDiagnostics: Page<DiagnosticsDto> = {
  items: [
    { id: "d1a90000-0000-4000-8000-000000000001", status: "UPLOADED", statusLabel: "Recibido", chargerStatus: "Uploaded", fileName: "diag.zip", sizeBytes: 20480, requestedAt: "2025-06-15T16:00:00.000Z", uploadedAt: "2025-06-15T16:02:00.000Z" },
    { id: "d1a90000-0000-4000-8000-000000000002", status: "REJECTED", statusLabel: "Rechazado", chargerStatus: null, fileName: null, sizeBytes: null, requestedAt: "2025-06-14T16:00:00.000Z", uploadedAt: null },
  ],
  total: 2,
  page: 1,
  pageSize: 5,
};

const chargerEvents: ChargerEventPage = {
  ...page([
    { id: 3, kind: "NotifyReport", kindLabel: "Informe", summary: "Informe 41, parte 1: 2 variables", at: "2025-06-15T17:42:00.000Z" },
    { id: 2, kind: "FirmwareStatusNotification", kindLabel: "Firmware", summary: "Firmware instalado (Installed)", at: "2025-06-15T17:30:00.000Z" },
    { id: 1, kind: "SecurityEventNotification", kindLabel: "Seguridad", summary: "StartupOfTheDevice: cold boot", at: "2025-06-14T09:05:00.000Z" },
  ]),
  lastReport: { requestId: 41, parts: 2, variables: 120, complete: true, firstAt: "2025-06-15T17:41:58.000Z", lastAt: "2025-06-15T17:42:00.000Z" },
};

export const fixtures = {
  businessUser,
  accountBusiness,
  station,
  stations: page([station]),
  charger,
  chargers: page([charger]),
  chargerEvents,
  chargerFirmware,
  chargerDiagnostics,
  ocppMessages,
  rate,
  rates: page([rate]),
  sessionRow,
  session,
  activity,
  dashboard,
  graphic,
  notifications,
  paymentAccount,
  payments: paymentsPage,
  refundPendingPayment,
  refundPendingPage,
  reconciliation,
  services,
  chargerBrands,
  connectorTypes,
};
