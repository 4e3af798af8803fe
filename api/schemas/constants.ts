// Lists, labels and patterns of the Business API's queries and schemas, without zod: pages
// that only need a sort list or a label import them from here, so their browser bundle does not
// pull in zod (JS budget, docs/benchmarks.md). The zod schemas re-export them.

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const MAX_RANGE_DAYS = 366;
export const RANGE_MESSAGES = {
  order: "La fecha 'hasta' debe ser posterior a 'desde'.",
  span: `El período no puede superar los ${MAX_RANGE_DAYS} días.`,
} as const;

export const STATION_SORTS = ["name", "city", "province", "createdAt", "updatedAt"] as const;

export const CHARGER_SORTS = ["name", "ocppIdentity", "station", "lastHeartbeatAt", "createdAt"] as const;

export const RATE_SORTS = ["name", "pricePerKwhCents", "createdAt"] as const;
export const TAG_SORTS = ["holderName", "idTag", "expiresOn", "createdAt"] as const;
export const ACCESS_GROUP_SORTS = ["name", "createdAt"] as const;

export const SESSION_STATUSES = ["ACTIVE", "IDLE", "COMPLETED", "INVALID"] as const;

/** A session still open this long after it started is one the charger probably never stopped (issue 25). */
export const STUCK_AFTER_HOURS = 12;
export const SESSION_STATUS_LABELS: Record<(typeof SESSION_STATUSES)[number], string> = {
  ACTIVE: "En curso",
  IDLE: "Finalizada, vehículo conectado",
  COMPLETED: "Completada",
  INVALID: "Inválida",
};
export const SESSION_PAYMENT_STATUSES = ["PENDING", "PAID", "FAILED", "NOT_REQUIRED"] as const;
export const SESSION_PAYMENT_STATUS_LABELS: Record<(typeof SESSION_PAYMENT_STATUSES)[number], string> = {
  PENDING: "Pendiente",
  PAID: "Pagada",
  FAILED: "Pago rechazado",
  NOT_REQUIRED: "Sin cargo",
};
export const ACTIVITY_SORTS = ["startedAt", "energyWh", "totalCents", "idleMinutes"] as const;

export const PAYMENT_PROVIDERS = ["MERCADOPAGO", "PAGOS360"] as const;
export const PAYMENT_STATUSES = ["PENDING", "APPROVED", "REJECTED", "REFUNDED", "CANCELLED"] as const;
export const PAYMENT_STATUS_LABELS: Record<(typeof PAYMENT_STATUSES)[number], string> = {
  PENDING: "Pendiente",
  APPROVED: "Aprobado",
  REJECTED: "Rechazado",
  REFUNDED: "Devuelto",
  CANCELLED: "Cancelado",
};
export const PAYMENT_SORTS = ["createdAt", "amountCents"] as const;

export const OCPP_IDENTITY_RE = /^[A-Za-z0-9._-]{3,48}$/;
export const OCPP_IDENTITY_MESSAGE = "Usá de 3 a 48 letras, números, puntos, guiones o guiones bajos (sin espacios).";
export const MAX_CONNECTORS = 10;
export const CONNECTOR_FORMATS = ["SOCKET", "CABLE"] as const;
export const POWER_TYPES = ["AC_1_PHASE", "AC_3_PHASE", "DC"] as const;
export const CONNECTOR_FORMAT_LABELS: Record<(typeof CONNECTOR_FORMATS)[number], string> = { SOCKET: "Toma", CABLE: "Cable" };
export const POWER_TYPE_LABELS: Record<(typeof POWER_TYPES)[number], string> = {
  AC_1_PHASE: "AC monofásica",
  AC_3_PHASE: "AC trifásica",
  DC: "DC",
};

export const BUSINESS_STATUSES = ["PENDING", "ACTIVE", "REJECTED", "SUSPENDED"] as const;
export type BusinessStatus = (typeof BUSINESS_STATUSES)[number];
export const BUSINESS_STATUS_LABELS: Record<BusinessStatus, string> = {
  PENDING: "Verificación pendiente",
  ACTIVE: "Activa",
  REJECTED: "Rechazada",
  SUSPENDED: "Suspendida",
};

// Stations (api/schemas/station.ts re-exports these).
export const PARKING_TYPES = ["ALONG_MOTORWAY", "PARKING_GARAGE", "PARKING_LOT", "ON_DRIVEWAY", "ON_STREET", "UNDERGROUND_GARAGE"] as const;

export const PARKING_TYPE_LABELS: Record<(typeof PARKING_TYPES)[number], string> = {
  ALONG_MOTORWAY: "Sobre ruta o autopista",
  PARKING_GARAGE: "Estacionamiento cubierto",
  PARKING_LOT: "Playa de estacionamiento",
  ON_DRIVEWAY: "Entrada particular",
  ON_STREET: "En la calle",
  UNDERGROUND_GARAGE: "Estacionamiento subterráneo",
};

export const WEEKDAY_LABELS = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"] as const;

/** Argentine time zones (IANA) a station may declare. */
export const ARGENTINA_TIME_ZONES = [
  "America/Argentina/Buenos_Aires", // DEFAULT_TIME_ZONE (domain/pricing), literal to keep this module import-free
  "America/Argentina/Cordoba",
  "America/Argentina/Salta",
  "America/Argentina/Jujuy",
  "America/Argentina/Tucuman",
  "America/Argentina/Catamarca",
  "America/Argentina/La_Rioja",
  "America/Argentina/San_Juan",
  "America/Argentina/Mendoza",
  "America/Argentina/San_Luis",
  "America/Argentina/Rio_Gallegos",
  "America/Argentina/Ushuaia",
] as const;

export const LATITUDE_MESSAGE = "La latitud debe estar entre -90 y 90.";
export const LONGITUDE_MESSAGE = "La longitud debe estar entre -180 y 180.";

