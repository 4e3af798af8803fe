// The audit log's vocabulary, in Spanish: what each resource, action and field is
// called and how a recorded value reads. Pure: the API's CSV export and the dashboard's screen
// share it.
import { formatCuit } from "./cuit";
import { ROLE_LABELS, isRole } from "./permissions";
import { RESERVATION_STATUS_LABELS } from "./reservation-status";

export const AUDIT_RESOURCES = ["station", "charger", "rate", "tag", "access_group", "payment_account", "payment", "profile", "member", "invitation", "session", "reservation", "roaming_partner", "invoice", "fiscal_settings"] as const;
export type AuditResource = (typeof AUDIT_RESOURCES)[number];

export const AUDIT_RESOURCE_LABELS: Record<AuditResource, string> = {
  station: "Estación",
  charger: "Cargador",
  rate: "Tarifa",
  tag: "Tarjeta RFID",
  access_group: "Grupo de acceso",
  payment_account: "Cuenta de pago",
  payment: "Pago",
  profile: "Perfil de la empresa",
  member: "Miembro",
  invitation: "Invitación",
  session: "Carga",
  reservation: "Reserva",
  roaming_partner: "Socio de roaming",
  invoice: "Comprobante",
  fiscal_settings: "Facturación electrónica",
};

/** `<resource>.<verb>` → what happened, as a phrase ("Creó la estación"). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "station.create": "Creó la estación",
  "station.update": "Modificó la estación",
  "station.delete": "Eliminó la estación",
  "charger.create": "Creó el cargador",
  "charger.update": "Modificó el cargador",
  "charger.delete": "Eliminó el cargador",
  "charger.assign": "Añadió el cargador a una estación",
  "charger.password": "Generó una nueva contraseña OCPP del cargador",
  "charger.command": "Envió un comando al cargador",
  "charger.firmware": "Pidió actualizar el firmware",
  "charger.diagnostics": "Pidió un diagnóstico al cargador",
  "rate.create": "Creó la tarifa",
  "rate.update": "Modificó la tarifa",
  "rate.delete": "Eliminó la tarifa",
  "rate.schedule": "Programó un cambio de la tarifa",
  "rate.unschedule": "Canceló un cambio programado de la tarifa",
  "rate.reprice": "Programó una actualización de precios de la tarifa",
  "rate.schedule_apply": "Aplicó el cambio programado de la tarifa",
  "tag.create": "Creó la tarjeta",
  "tag.update": "Modificó la tarjeta",
  "tag.delete": "Eliminó la tarjeta",
  "tag.import": "Importó tarjetas desde un archivo",
  "access_group.create": "Creó el grupo de acceso",
  "access_group.update": "Modificó el grupo de acceso",
  "access_group.delete": "Eliminó el grupo de acceso",
  "payment_account.connect": "Conectó la cuenta de pago",
  "payment_account.disconnect": "Desconectó la cuenta de pago",
  "payment.refund": "Registró la devolución del pago",
  "payment.reconcile": "Concilió los pagos con los proveedores",
  "payment.block_driver": "Bloqueó al conductor del pago",
  "payment.unblock_driver": "Desbloqueó al conductor del pago",
  "invoice.retry": "Reintentó el comprobante",
  "profile.create": "Registró la empresa",
  "profile.update": "Modificó el perfil de la empresa",
  "profile.photo": "Cambió la foto de la empresa",
  "profile.holidays": "Cambió los feriados locales de la empresa",
  "member.join": "Se unió al equipo",
  "member.update": "Cambió el rol del miembro",
  "member.remove": "Quitó al miembro",
  "member.transfer": "Transfirió la propiedad de la empresa",
  "invitation.create": "Invitó a",
  "invitation.resend": "Reenvió la invitación de",
  "invitation.revoke": "Revocó la invitación de",
  "session.close": "Cerró la carga que el cargador no cerró",
  "reservation.create": "Reservó un conector",
  "reservation.cancel": "Canceló la reserva",
  "charger.local_list": "Envió la lista local de tarjetas al cargador",
  "charger.local_list_version": "Consultó la versión de la lista local del cargador",
  "station.roaming": "Cambió la publicación en roaming de la estación",
  "roaming_partner.create": "Agregó el socio de roaming",
  "roaming_partner.delete": "Dio de baja al socio de roaming",
  "fiscal_settings.update": "Modificó la configuración de facturación electrónica",
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

/**
 * What an entry names after its phrase («…»), or null: a member who joined is the entry's own
 * person, so naming them again would read as if the e-mail were the company.
 */
export function auditSubject(entry: { action: string; resourceLabel: string | null; actorEmail: string }): string | null {
  if (!entry.resourceLabel) return null;
  if (entry.action === "member.join" && entry.resourceLabel.toLowerCase() === entry.actorEmail.toLowerCase()) return null;
  return entry.resourceLabel;
}

/** Field names in Spanish; unknown fields show as recorded. */
export const AUDIT_FIELD_LABELS: Record<string, string> = {
  name: "Nombre",
  taxCondition: "Condición frente al IVA",
  pointOfSale: "Punto de venta",
  environment: "Entorno de ARCA",
  certificateCuit: "CUIT del certificado",
  certificateExpiresAt: "Vencimiento del certificado",
  certificateFingerprint: "Huella del certificado",
  address: "Dirección",
  city: "Ciudad",
  province: "Provincia",
  postalCode: "Código postal",
  latitude: "Latitud",
  longitude: "Longitud",
  parkingType: "Estacionamiento",
  services: "Servicios",
  openingHours: "Horarios",
  timeZone: "Zona horaria",
  photoUrl: "Foto",
  published: "Publicada",
  roamingPublished: "Publicada en roaming",
  ocpiPartyId: "Party id OCPI",
  partyId: "Party id",
  countryCode: "País",
  versionsUrl: "Dirección de versiones OCPI",
  station: "Estación",
  brand: "Marca",
  model: "Modelo",
  serialNumber: "Número de serie",
  ocppIdentity: "Identidad OCPP",
  enabled: "Habilitado",
  heartbeatInterval: "Intervalo de latido (s)",
  priceDisplay: "Mostrar precio en el cargador",
  connectors: "Conectores",
  currency: "Moneda",
  pricePerKwhCents: "Precio por kWh",
  pricePerMinuteCents: "Precio por minuto",
  sessionFeeCents: "Cargo por sesión",
  vatIncluded: "IVA incluido",
  vatRateBp: "Alícuota de IVA",
  idleGraceMinutes: "Tolerancia de inactividad (min)",
  idlePricePerMinuteCents: "Penalidad por minuto inactivo",
  idleMaxCents: "Tope de la penalidad",
  idleActiveFrom: "Penalidad desde",
  idleActiveTo: "Penalidad hasta",
  noShowFeeCents: "Cargo por no presentarse",
  bands: "Franjas horarias",
  localHolidays: "Feriados locales",
  scheduled: "Cambios programados",
  provider: "Proveedor",
  accountLabel: "Cuenta",
  last4: "Credencial (últimos 4)",
  status: "Estado",
  businessName: "Razón social",
  cuit: "CUIT",
  businessAddress: "Domicilio",
  phoneNumber: "Teléfono",
  email: "Correo",
  role: "Rol",
  expiresAt: "Vence",
  command: "Comando",
  type: "Tipo",
  connectorId: "Conector",
  idTag: "Identificación (idTag)",
  holderName: "Titular",
  expiresOn: "Vence el",
  blocked: "Bloqueada",
  group: "Grupo",
  allStations: "Todas las estaciones",
  billingCuit: "CUIT a facturar",
  billingName: "Razón social a facturar",
  billingTaxCondition: "Condición frente al IVA del cliente",
  billingMonthly: "Facturar mensualmente",
  stations: "Estaciones",
  rate: "Tarifa",
  authorizationPolicy: "Autorización",
  created: "Creadas",
  updated: "Actualizadas",
  requestedMessage: "Mensaje pedido",
  location: "Dirección del firmware",
  retrieveAt: "Descargar desde",
  allOfModel: "Todos los del modelo",
  from: "Desde",
  to: "Hasta",
  outcome: "Resultado",
  message: "Respuesta",
  reason: "Motivo",
  totalCents: "Total",
  energyWh: "Energía (Wh)",
  remoteStop: "Pedido de detener al cargador",
  closedBy: "Cerrada por",
  chargerStatus: "Respuesta del cargador",
  gridCapacityKw: "Capacidad de la red (kW)",
  country: "País",
  qrPaymentEnabled: "Cobrar con QR",
  qrMinCents: "Pago mínimo",
  qrMaxCents: "Pago máximo",
  amountCents: "Monto",
  chargedCents: "Cobrado",
  refundedCents: "Devuelto",
  refundOwedCents: "A devolver",
  externalId: "Operación del proveedor",
  step: "Etapa",
  version: "Versión",
};

export function auditFieldLabel(field: string): string {
  return AUDIT_FIELD_LABELS[field] ?? field;
}

const money = new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" });
const instant = new Intl.DateTimeFormat("es-AR", { timeZone: "America/Argentina/Buenos_Aires", dateStyle: "short", timeStyle: "short" });
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A date and time as a form sends it (Buenos Aires wall time, no zone): `2026-11-28T08:49`. */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?$/;
const wallClock = new Intl.DateTimeFormat("es-AR", { timeZone: "UTC", dateStyle: "short", timeStyle: "short" });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Stored codes that read better by name (company and account statuses, providers). */
const VALUE_LABELS: Record<string, string> = {
  ACTIVE: "Activa",
  PENDING: "Pendiente",
  REJECTED: "Rechazada",
  SUSPENDED: "Suspendida",
  CONNECTED: "Conectada",
  ERROR: "Con error",
  MERCADOPAGO: "Mercado Pago",
  PAGOS360: "Pagos360",
};

/** A QR payment's steps (field `step`). */
const STEP_LABELS: Record<string, string> = {
  PAYING: "Esperando el pago",
  STARTING: "Iniciando la carga",
  CHARGING: "Cargando",
  SETTLING: "Devolviendo el saldo",
  FINISHED: "Terminada",
  START_FAILED: "No inició",
  REFUNDED: "Devuelto",
  FAILED: "Pago no completado",
  REFUND_PENDING: "Devolución pendiente",
};
/** A payment's statuses (field `status` of the resource `payment`). */
const PAYMENT_STATUS_VALUES: Record<string, string> = { APPROVED: "Aprobado", REFUNDED: "Devuelto", PENDING: "Pendiente", REJECTED: "Rechazado", CANCELLED: "Cancelado" };
/** A charger's answer to a command (OCPP status words), as the screens say it. */
const CHARGER_ANSWER_VALUES: Record<string, string> = {
  Accepted: "Aceptado",
  Rejected: "Rechazado",
  Occupied: "Ocupado",
  Faulted: "Con falla",
  Unavailable: "No disponible",
  NotSupported: "No soportado",
  UnknownMessageId: "No soportado",
  Failed: "Falló",
  VersionMismatch: "Versión distinta",
};
/** Each resource's own status words, where they differ from the shared ones. */
const STATUS_BY_RESOURCE: Partial<Record<AuditResource, Record<string, string>>> = { reservation: RESERVATION_STATUS_LABELS, payment: PAYMENT_STATUS_VALUES };

/** A recorded value as text: money in pesos, yes/no, roles and statuses by name, dates in Buenos Aires, lists joined, "—" for none. */
export function formatAuditValue(field: string, value: unknown, resource?: AuditResource): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Sí" : "No";
  if (typeof value === "string" && ISO_INSTANT.test(value)) return instant.format(new Date(value)).replace(",", "");
  const local = typeof value === "string" ? LOCAL_DATE_TIME.exec(value) : null;
  if (local) return wallClock.format(new Date(Date.UTC(+local[1], +local[2] - 1, +local[3], +local[4], +local[5]))).replace(",", "");
  if (field === "status" && typeof value === "string" && resource && STATUS_BY_RESOURCE[resource]?.[value]) return STATUS_BY_RESOURCE[resource][value];
  if ((field === "chargerStatus" || field === "status") && typeof value === "string" && CHARGER_ANSWER_VALUES[value]) return CHARGER_ANSWER_VALUES[value];
  if (field === "cuit" && typeof value === "string") return formatCuit(value);
  if (field === "step" && typeof value === "string" && STEP_LABELS[value]) return STEP_LABELS[value];
  if ((field === "status" || field === "provider") && typeof value === "string" && VALUE_LABELS[value]) return VALUE_LABELS[value];
  if (field === "status" && typeof value === "string" && PAYMENT_STATUS_VALUES[value]) return PAYMENT_STATUS_VALUES[value];
  if (typeof value === "number" && /Cents$/.test(field)) return money.format(value / 100);
  if (field === "vatRateBp" && typeof value === "number") return `${(value / 100).toLocaleString("es-AR")} %`;
  if (field === "role" && isRole(value)) return ROLE_LABELS[value];
  if (typeof value === "number") return value.toLocaleString("es-AR");
  if (Array.isArray(value)) return value.length ? value.map((v) => (typeof v === "object" ? compact(v) : String(v))).join("; ") : "—";
  if (typeof value === "object") return compact(value);
  return String(value);
}

function compact(value: unknown): string {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined && v !== "")
      .map(([k, v]) => `${auditFieldLabel(k)}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
      .join(", ");
  }
  return JSON.stringify(value);
}

const isNone = (v: unknown) => v === null || v === undefined || v === "";

/**
 * "Campo: antes → después" lines of an entry's changes, as the screens say them. Internal ids
 * (a connector's or station's UUID) are left out: the entry's subject already names the thing;
 * an image reads as added, changed or removed, not as its address.
 */
export function describeChanges(changes: Record<string, { before: unknown; after: unknown }>, resource?: AuditResource): string[] {
  return Object.entries(changes).flatMap(([field, { before, after }]) => {
    const label = auditFieldLabel(field);
    if ([before, after].some((v) => typeof v === "string" && UUID.test(v))) return [];
    if (field === "photoUrl") return [`${label}: ${isNone(before) ? "agregada" : isNone(after) ? "quitada" : "cambiada"}`];
    const value = (v: unknown) => formatAuditValue(field, v, resource);
    if (isNone(before)) return [`${label}: ${value(after)}`];
    if (isNone(after)) return [`${label}: ${value(before)} → —`];
    return [`${label}: ${value(before)} → ${value(after)}`];
  });
}
