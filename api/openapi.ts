// GET /api/openapi.json — the Business API contract (OpenAPI 3.1), assembled from the same
// zod schemas the handlers validate with. Response bodies are described by contract/dto.ts.
import { z } from "zod";
import { deleteProfilePictureSchema, registerBusinessSchema, updateBusinessUserSchema } from "#contract/schemas/business";
import { assignChargersSchema, chargerInputSchema } from "#contract/schemas/charger";
import { commandSchema } from "../ocpp/commands";
import { pushRegistrationSchema } from "#contract/schemas/notification";
import { mercadoPagoConnectSchema, pagos360ConnectSchema, paymentRefundSchema } from "#contract/schemas/payment";
import {
  activityExportQuery,
  activityQuery,
  closeSessionBody,
  chargerEventQuery,
  chargerListQuery,
  chargerOptionsQuery,
  graphicQuery,
  notificationListQuery,
  paymentListQuery,
  periodQuery,
  rateListQuery,
  accessGroupListQuery,
  tagListQuery,
  stationListQuery,
  stationOptionsQuery,
} from "#contract/schemas/queries";
import { rateInputSchema, ratePreviewSchema } from "#contract/schemas/rate";
import { diagnosticsQuery, diagnosticsRequestSchema, firmwareUpdateSchema, ocppMessageQuery } from "#contract/schemas/maintenance";
import { accessGroupInputSchema, tagInputSchema } from "#contract/schemas/tag";
import { reservationInputSchema, reservationListQuery } from "#contract/schemas/reservation";
import { stationInputSchema } from "#contract/schemas/station";
import { driverCheckoutSchema, driverTokenSchema } from "#contract/schemas/driver";
import { roamingPartnerInputSchema, roamingPartnerListQuery, roamingSettingsSchema, roamingStationListQuery, roamingStationSchema } from "#contract/schemas/roaming";
import { auditExportQuery, auditQuery, invitationInputSchema, invitationTokenSchema, memberPatchSchema } from "#contract/schemas/team";
import { ENDPOINT_RULES } from "./access";
import { PERMISSIONS, type Permission } from "../domain/permissions";

type Json = Record<string, unknown>;

interface Op {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  tag: string;
  summary: string;
  /** Response description (contract/dto.ts name) and status. */
  ok: { status: number; type?: string; description?: string; content?: string };
  body?: z.ZodType;
  multipart?: boolean;
  /** A text/csv request body (the tag import). */
  csv?: boolean;
  query?: z.ZodType;
  public?: boolean;
  errors?: number[];
}

function schemaOf(s: z.ZodType): Json {
  const json = z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete json.$schema;
  return json;
}

function queryParams(s: z.ZodType): Json[] {
  const json = schemaOf(s) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema,
  }));
}

const ERROR_TEXT: Record<number, string> = {
  400: "Solicitud inválida",
  401: "Sesión inválida o vencida",
  403: "E-mail sin verificar, empresa no registrada o no aprobada, no miembro de la empresa pedida, o el rol no lo permite",
  410: "La invitación ya se usó, venció o fue revocada",
  502: "No se pudo enviar el correo",
  404: "No existe (o es de otra empresa)",
  409: "Conflicto (duplicado o en uso)",
  413: "Demasiado grande",
  415: "Tipo de contenido no soportado",
  422: "Datos inválidos: `errors` tiene los mensajes por campo",
};

const id = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };

export const OPERATIONS: Op[] = [
  // Account and profile
  { method: "get", path: "/Account/Business", tag: "Cuenta", summary: "Estado de la empresa de la cuenta", ok: { status: 200, type: "AccountBusinessDto" } },
  { method: "post", path: "/Account/Business", tag: "Cuenta", summary: "Registrar la empresa de la cuenta (un CUIT ya registrado recibe la misma respuesta, sin empresa; se avisa a su dueño)", body: registerBusinessSchema, ok: { status: 201, type: "BusinessUserDto" }, errors: [409, 422, 429] },
  { method: "post", path: "/Account/SignIn", tag: "Cuenta", summary: "Registrar el ingreso a la empresa de la solicitud (último ingreso del miembro)", ok: { status: 200, type: "AccountBusinessDto" } },
  { method: "get", path: "/Business/BusinessUser", tag: "Perfil", summary: "Perfil de la empresa", ok: { status: 200, type: "BusinessUserDto" } },
  { method: "patch", path: "/Business/BusinessUser/Update", tag: "Perfil", summary: "Actualizar el perfil", body: updateBusinessUserSchema, ok: { status: 200, type: "BusinessUserDto" }, errors: [409, 422, 429] },
  { method: "patch", path: "/Business/Images/ProfilePicture", tag: "Perfil", summary: "Subir la foto de perfil (campo Image; JPEG/PNG/GIF ≤ 800 KB, ≤ 8000 px por lado y 40 Mpx)", multipart: true, ok: { status: 200, description: "{ photoUrl }" }, errors: [413, 415, 422] },
  { method: "delete", path: "/Business/Images/ProfilePicture", tag: "Perfil", summary: "Quitar la foto de perfil", body: deleteProfilePictureSchema, ok: { status: 200, description: "{ photoUrl }" }, errors: [404, 422] },
  { method: "post", path: "/Business/Images", tag: "Imágenes", summary: "Subir una imagen (p. ej. foto de estación; mismas reglas que la foto de perfil; cuenta para la cuota de la empresa y se borra si nada la usa en 24 h)", multipart: true, ok: { status: 201, description: "{ url }" }, errors: [413, 415, 422] },
  { method: "get", path: "/images/{file}", tag: "Imágenes", summary: "Imagen por hash de contenido (pública, inmutable)", public: true, ok: { status: 200, description: "Los bytes de la imagen", content: "image/*" }, errors: [404] },
  // Catalogs
  { method: "get", path: "/Business/Service", tag: "Catálogos", summary: "Servicios de estación", ok: { status: 200, type: "ServiceDto[]" } },
  { method: "get", path: "/Business/ChargerBrand", tag: "Catálogos", summary: "Marcas de cargadores", ok: { status: 200, type: "ChargerBrandDto[]" } },
  { method: "get", path: "/Driver/ConnectorType", tag: "Catálogos", summary: "Tipos de conector (OCPI)", ok: { status: 200, type: "ConnectorTypeDto[]" } },
  // Stations
  { method: "get", path: "/Business/ChargingStation", tag: "Estaciones", summary: "Listar estaciones", query: stationListQuery, ok: { status: 200, type: "Page<StationDto>" }, errors: [422] },
  { method: "post", path: "/Business/ChargingStation", tag: "Estaciones", summary: "Crear estación", body: stationInputSchema, ok: { status: 201, type: "StationDto" }, errors: [422] },
  { method: "get", path: "/Business/ChargingStation/Options", tag: "Estaciones", summary: "Estaciones como opciones (id, nombre, ciudad), por nombre", query: stationOptionsQuery, ok: { status: 200, type: "Page<StationOptionDto>" }, errors: [422] },
  { method: "get", path: "/Business/ChargingStation/{id}", tag: "Estaciones", summary: "Ver estación", ok: { status: 200, type: "StationDto" }, errors: [404] },
  { method: "get", path: "/Business/ChargingStation/{id}/Allocation", tag: "Estaciones", summary: "Reparto de la capacidad de la red (gridCapacityKw) entre los conectores que están cargando: el límite enviado a cada uno (SetChargingProfile TxProfile) y la respuesta del cargador", ok: { status: 200, type: "StationAllocationDto" }, errors: [404] },
  { method: "put", path: "/Business/ChargingStation/{id}", tag: "Estaciones", summary: "Editar estación", body: stationInputSchema, ok: { status: 200, type: "StationDto" }, errors: [404, 422] },
  { method: "delete", path: "/Business/ChargingStation/{id}", tag: "Estaciones", summary: "Eliminar estación (sin cargadores)", ok: { status: 204 }, errors: [404, 409] },
  // Chargers
  { method: "get", path: "/Business/Charger", tag: "Cargadores", summary: "Listar cargadores con sus conectores", query: chargerListQuery, ok: { status: 200, type: "Page<ChargerDto>" }, errors: [422] },
  { method: "post", path: "/Business/Charger", tag: "Cargadores", summary: "Crear cargador (devuelve la contraseña OCPP una sola vez)", body: chargerInputSchema, ok: { status: 201, type: "ChargerWithPasswordDto" }, errors: [409, 422] },
  { method: "post", path: "/Business/Charger/Assign", tag: "Cargadores", summary: "Añadir cargadores a una estación", body: assignChargersSchema, ok: { status: 200, description: "{ stationId, items: ChargerDto[] }" }, errors: [422] },
  { method: "get", path: "/Business/Charger/Options", tag: "Cargadores", summary: "Cargadores como opciones (id, nombre, estación), por nombre", query: chargerOptionsQuery, ok: { status: 200, type: "Page<ChargerOptionDto>" }, errors: [422] },
  { method: "get", path: "/Business/Charger/{id}", tag: "Cargadores", summary: "Ver cargador", ok: { status: 200, type: "ChargerDto" }, errors: [404] },
  { method: "get", path: "/Business/Charger/{id}/Event", tag: "Cargadores", summary: "Eventos que informó el cargador (seguridad, avisos, firmware, registros, diagnóstico, partes de informes), más nuevos primero, y el último informe", query: chargerEventQuery, ok: { status: 200, type: "ChargerEventPage" }, errors: [404, 422] },
  { method: "put", path: "/Business/Charger/{id}", tag: "Cargadores", summary: "Editar cargador y conectores", body: chargerInputSchema, ok: { status: 200, type: "ChargerDto" }, errors: [404, 409, 422] },
  { method: "delete", path: "/Business/Charger/{id}", tag: "Cargadores", summary: "Eliminar cargador", ok: { status: 204 }, errors: [404, 409] },
  { method: "post", path: "/Business/Charger/{id}/RotatePassword", tag: "Cargadores", summary: "Generar una nueva contraseña OCPP (se muestra una vez); a un cargador conectado se le envía y se aplica solo si la acepta", ok: { status: 200, type: "ChargerWithPasswordDto" }, errors: [404, 409] },
  { method: "post", path: "/Business/Charger/{id}/Command", tag: "Cargadores", summary: "Enviar un comando OCPP al cargador, en su protocolo (Reset, RemoteStart/StopTransaction, UnlockConnector, ChangeAvailability, TriggerMessage; GetBaseReport en 2.0.1; GetConfiguration / ChangeConfiguration de los intervalos de señal de vida y de mediciones, GetVariables / SetVariables en 2.0.1). Un HeartbeatInterval que el cargador acepta pasa a ser su intervalo.", body: commandSchema, ok: { status: 200, type: "CommandResult" }, errors: [404, 422] },
  // A charger's maintenance (issue 25)
  { method: "get", path: "/Business/Charger/{id}/Message", tag: "Cargadores", summary: "Los mensajes OCPP recientes del cargador (ambos sentidos, los últimos 1.000, más nuevos primero; sin secretos)", query: ocppMessageQuery, ok: { status: 200, type: "Page<OcppMessageDto>" }, errors: [404, 422] },
  { method: "get", path: "/Business/Charger/{id}/Message/Export.csv", tag: "Cargadores", summary: "Exportar los mensajes OCPP recientes (CSV UTF-8 con BOM, separador ;)", ok: { status: 200, description: "CSV", content: "text/csv" }, errors: [404] },
  { method: "get", path: "/Business/Charger/{id}/Firmware", tag: "Cargadores", summary: "Firmware del cargador y de los cargadores de su modelo: versión, última actualización pedida y su avance (FirmwareStatusNotification)", ok: { status: 200, type: "ChargerFirmwareDto" }, errors: [404] },
  { method: "post", path: "/Business/Charger/{id}/Firmware", tag: "Cargadores", summary: "Actualizar el firmware (UpdateFirmware, en el protocolo de cada cargador) de este cargador o de todos los de su marca y modelo", body: firmwareUpdateSchema, ok: { status: 200, type: "FirmwareUpdateDto" }, errors: [404, 422] },
  { method: "get", path: "/Business/Charger/{id}/Diagnostics", tag: "Cargadores", summary: "Diagnósticos pedidos al cargador (los últimos 10) y su estado", query: diagnosticsQuery, ok: { status: 200, type: "Page<DiagnosticsDto>" }, errors: [404, 422] },
  { method: "post", path: "/Business/Charger/{id}/Diagnostics", tag: "Cargadores", summary: "Pedir un diagnóstico (GetDiagnostics en 1.6, GetLog en 2.0.1): el cargador lo sube a una dirección de Enchufá válida para este pedido", body: diagnosticsRequestSchema, ok: { status: 200, type: "DiagnosticsRequestedDto" }, errors: [404, 422] },
  { method: "get", path: "/Business/Charger/{id}/Diagnostics/{diagnosticsId}/File", tag: "Cargadores", summary: "Descargar el archivo de diagnóstico que subió el cargador", ok: { status: 200, description: "El archivo", content: "application/octet-stream" }, errors: [404] },
  { method: "put", path: "/ChargerUpload/{id}/{token}", tag: "Cargadores", summary: "El cargador sube su diagnóstico (cuerpo crudo o multipart, hasta 20 MiB); la dirección con su token se la da Enchufá en el pedido y sirve una vez, por un día", public: true, ok: { status: 201 }, errors: [401, 413] },
  { method: "post", path: "/ChargerUpload/{id}/{token}", tag: "Cargadores", summary: "Igual que PUT, para cargadores que suben con POST", public: true, ok: { status: 201 }, errors: [401, 413] },
  { method: "put", path: "/ChargerUpload/{id}/{token}/{fileName}", tag: "Cargadores", summary: "Igual, con el nombre del archivo al final de la dirección (como lo agregan algunos cargadores)", public: true, ok: { status: 201 }, errors: [401, 413] },
  { method: "post", path: "/ChargerUpload/{id}/{token}/{fileName}", tag: "Cargadores", summary: "Igual que PUT con nombre de archivo, con POST", public: true, ok: { status: 201 }, errors: [401, 413] },
  {
    method: "post",
    path: "/Business/Charger/{id}/LocalList",
    tag: "Cargadores",
    summary:
      "Enviar las tarjetas RFID de la empresa como lista local de autorización del cargador (SendLocalList completa, 1.6 y 2.0.1), cada una con la respuesta que daría en su estación (Accepted, Blocked, Expired, Invalid), con una versión más que la que tiene. 200 con lo que respondió el cargador.",
    ok: { status: 200, type: "LocalListResultDto" },
    errors: [404, 409],
  },
  { method: "post", path: "/Business/Charger/{id}/LocalList/Version", tag: "Cargadores", summary: "Preguntarle al cargador qué versión de la lista local tiene (GetLocalListVersion) y guardarla", ok: { status: 200, type: "LocalListResultDto" }, errors: [404] },
  // Rates
  { method: "get", path: "/Business/Fees", tag: "Tarifas", summary: "Listar tarifas", query: rateListQuery, ok: { status: 200, type: "Page<RateDto>" }, errors: [422] },
  { method: "post", path: "/Business/Fees", tag: "Tarifas", summary: "Crear tarifa", body: rateInputSchema, ok: { status: 201, type: "RateDto" }, errors: [422] },
  { method: "post", path: "/Business/Fees/Preview", tag: "Tarifas", summary: "Calcular el precio de una carga con una tarifa", body: ratePreviewSchema, ok: { status: 200, type: "RatePreviewDto" }, errors: [422] },
  { method: "get", path: "/Business/Fees/{id}", tag: "Tarifas", summary: "Ver tarifa", ok: { status: 200, type: "RateDto" }, errors: [404] },
  { method: "put", path: "/Business/Fees/{id}", tag: "Tarifas", summary: "Editar tarifa", body: rateInputSchema, ok: { status: 200, type: "RateDto" }, errors: [404, 422] },
  { method: "delete", path: "/Business/Fees/{id}", tag: "Tarifas", summary: "Eliminar tarifa (sin conectores)", ok: { status: 204 }, errors: [404, 409] },
  // Activity
  { method: "get", path: "/Business/Activity", tag: "Actividad", summary: "Listar cargas", query: activityQuery, ok: { status: 200, type: "SessionPage" }, errors: [422] },
  { method: "get", path: "/Business/Activity/Export.csv", tag: "Actividad", summary: "Exportar cargas (CSV UTF-8 con BOM, separador ;)", query: activityExportQuery, ok: { status: 200, description: "CSV", content: "text/csv" }, errors: [422] },
  { method: "get", path: "/Business/Activity/{id}", tag: "Actividad", summary: "Detalle de una carga", ok: { status: 200, type: "SessionDetailDto" }, errors: [404] },
  {
    method: "post",
    path: "/Business/Activity/{id}/Close",
    tag: "Actividad",
    summary: "Cerrar una carga que el cargador no cerró (con motivo): se le pide detenerla si está conectado y se cobra hasta la última lectura",
    body: closeSessionBody,
    ok: { status: 200, type: "SessionDto & { closedBy, remoteStop, reason }" },
    errors: [404, 409, 422],
  },
  // Dashboard
  { method: "get", path: "/Business/Dashboard", tag: "Inicio", summary: "Indicadores del período", query: periodQuery, ok: { status: 200, type: "DashboardDto" }, errors: [422] },
  { method: "get", path: "/Business/Graphic", tag: "Inicio", summary: "Series para gráficos", query: graphicQuery, ok: { status: 200, type: "GraphicDto" }, errors: [422] },
  // Notifications
  { method: "get", path: "/Business/Notification", tag: "Notificaciones", summary: "Listar notificaciones", query: notificationListQuery, ok: { status: 200, type: "NotificationPage" }, errors: [422] },
  { method: "get", path: "/Business/Notification/UnreadCount", tag: "Notificaciones", summary: "Cantidad sin leer", ok: { status: 200, description: "{ unread }" } },
  { method: "post", path: "/Business/Notification/{id}/Read", tag: "Notificaciones", summary: "Marcar como leída", ok: { status: 200, type: "NotificationDto & { unread }" }, errors: [404] },
  { method: "post", path: "/Business/Notification/ReadAll", tag: "Notificaciones", summary: "Marcar todas como leídas", ok: { status: 200, description: "{ updated, unread }" } },
  { method: "post", path: "/Business/Notification/PushRegistration", tag: "Notificaciones", summary: "Registrar el token push del navegador", body: pushRegistrationSchema, ok: { status: 200, type: "PushRegistrationDto" }, errors: [422] },
  // Payments
  { method: "get", path: "/MercadoPago/BusinessUser", tag: "Pagos", summary: "Estado de la cuenta de Mercado Pago", ok: { status: 200, type: "PaymentAccountDto" } },
  { method: "put", path: "/MercadoPago/BusinessUser", tag: "Pagos", summary: "Conectar Mercado Pago", body: mercadoPagoConnectSchema, ok: { status: 200, type: "PaymentAccountDto" }, errors: [422] },
  { method: "delete", path: "/MercadoPago/BusinessUser", tag: "Pagos", summary: "Desconectar Mercado Pago", ok: { status: 200, type: "PaymentAccountDto" } },
  { method: "get", path: "/Pagos360/BusinessUser", tag: "Pagos", summary: "Estado de la cuenta de Pagos360", ok: { status: 200, type: "PaymentAccountDto" } },
  { method: "put", path: "/Pagos360/BusinessUser", tag: "Pagos", summary: "Conectar Pagos360", body: pagos360ConnectSchema, ok: { status: 200, type: "PaymentAccountDto" }, errors: [422] },
  { method: "delete", path: "/Pagos360/BusinessUser", tag: "Pagos", summary: "Desconectar Pagos360", ok: { status: 200, type: "PaymentAccountDto" } },
  { method: "get", path: "/Business/Payments", tag: "Pagos", summary: "Listar pagos con totales (step=REFUND_PENDING: las devoluciones que la empresa debe hacer a mano)", query: paymentListQuery, ok: { status: 200, type: "PaymentPage" }, errors: [422] },
  {
    method: "post",
    path: "/Business/Payments/{id}/Refund",
    tag: "Pagos",
    summary:
      "Registrar la devolución que la empresa hizo a mano de un pago con QR de Pagos360 (Pagos360 no tiene una llamada de devolución): amountCents (por defecto, todo lo que se debe; mayor que 0 y no más de lo que se debe). El pago termina y se avisa al conductor por correo. 409 si no se debe nada o si el proveedor devuelve solo (Mercado Pago).",
    body: paymentRefundSchema,
    ok: { status: 200, type: "PaymentDto" },
    errors: [404, 409, 422],
  },
  // RFID tags and access groups (issue 25)
  { method: "get", path: "/Business/Tag", tag: "Tarjetas RFID", summary: "Listar tarjetas RFID (buscar por idTag o titular)", query: tagListQuery, ok: { status: 200, type: "Page<TagDto>" }, errors: [422] },
  { method: "post", path: "/Business/Tag", tag: "Tarjetas RFID", summary: "Crear tarjeta (idTag único en la empresa, sin distinguir mayúsculas)", body: tagInputSchema, ok: { status: 201, type: "TagDto" }, errors: [409, 422] },
  { method: "get", path: "/Business/Tag/Export.csv", tag: "Tarjetas RFID", summary: "Exportar las tarjetas (CSV UTF-8 con BOM, separador ;: idTag;titular;email;vencimiento;bloqueada;grupo)", ok: { status: 200, description: "CSV", content: "text/csv" } },
  { method: "post", path: "/Business/Tag/Import", tag: "Tarjetas RFID", summary: "Importar tarjetas desde un CSV (text/csv, hasta 1 MB y 5000 filas): todo o nada; los idTag existentes se actualizan; 422 con errores por fila (`rows[<línea>]`)", csv: true, ok: { status: 200, type: "TagImportDto" }, errors: [413, 415, 422] },
  { method: "get", path: "/Business/Tag/{id}", tag: "Tarjetas RFID", summary: "Ver tarjeta", ok: { status: 200, type: "TagDto" }, errors: [404] },
  { method: "put", path: "/Business/Tag/{id}", tag: "Tarjetas RFID", summary: "Editar tarjeta", body: tagInputSchema, ok: { status: 200, type: "TagDto" }, errors: [404, 409, 422] },
  { method: "delete", path: "/Business/Tag/{id}", tag: "Tarjetas RFID", summary: "Eliminar tarjeta", ok: { status: 204 }, errors: [404] },
  { method: "get", path: "/Business/AccessGroup", tag: "Grupos de acceso", summary: "Listar grupos de acceso", query: accessGroupListQuery, ok: { status: 200, type: "Page<AccessGroupDto>" }, errors: [422] },
  { method: "post", path: "/Business/AccessGroup", tag: "Grupos de acceso", summary: "Crear grupo (estaciones permitidas y tarifa propia opcional; la tarifa pide rate.write)", body: accessGroupInputSchema, ok: { status: 201, type: "AccessGroupDto" }, errors: [409, 422] },
  { method: "get", path: "/Business/AccessGroup/{id}", tag: "Grupos de acceso", summary: "Ver grupo", ok: { status: 200, type: "AccessGroupDto" }, errors: [404] },
  { method: "put", path: "/Business/AccessGroup/{id}", tag: "Grupos de acceso", summary: "Editar grupo", body: accessGroupInputSchema, ok: { status: 200, type: "AccessGroupDto" }, errors: [404, 409, 422] },
  { method: "delete", path: "/Business/AccessGroup/{id}", tag: "Grupos de acceso", summary: "Eliminar grupo (sin tarjetas)", ok: { status: 204 }, errors: [404, 409] },
  // Reservations (issue 25, ADR 0018)
  { method: "get", path: "/Business/Reservation", tag: "Reservas", summary: "Listar reservas (más nuevas primero; filtrar por estación, cargador o estado: ACTIVE, USED, EXPIRED, CANCELLED, REFUSED)", query: reservationListQuery, ok: { status: 200, type: "Page<ReservationDto>" }, errors: [422] },
  {
    method: "post",
    path: "/Business/Reservation",
    tag: "Reservas",
    summary:
      "Reservar un conector para una tarjeta hasta la hora indicada (ReserveNow en 1.6 y 2.0.1, hasta 24 h). 201 con el estado que quedó: ACTIVE si el cargador la aceptó, REFUSED si no (chargerStatus dice por qué). Si vence sin uso se cobra el cargo por no presentarse de la tarifa del conector.",
    body: reservationInputSchema,
    ok: { status: 201, type: "ReservationResultDto" },
    errors: [409, 422],
  },
  { method: "get", path: "/Business/Reservation/{id}", tag: "Reservas", summary: "Ver reserva", ok: { status: 200, type: "ReservationDto" }, errors: [404] },
  { method: "delete", path: "/Business/Reservation/{id}", tag: "Reservas", summary: "Cancelar una reserva activa (CancelReservation al cargador si está conectado); sin cargo", ok: { status: 200, type: "ReservationResultDto" }, errors: [404, 409] },
  // Team
  { method: "get", path: "/Business/Member", tag: "Equipo", summary: "Miembros de la empresa con su rol y último ingreso", ok: { status: 200, description: "{ items: MemberDto[] }" } },
  { method: "post", path: "/Business/Member", tag: "Equipo", summary: "Unirse a una empresa con el código de una invitación (cualquier cuenta verificada con el correo invitado)", body: invitationTokenSchema, ok: { status: 201, type: "JoinedDto" }, errors: [404, 410, 422] },
  { method: "patch", path: "/Business/Member/{id}", tag: "Equipo", summary: "Cambiar el rol de un miembro; con role OWNER, el dueño transfiere la propiedad (y queda como administrador)", body: memberPatchSchema, ok: { status: 200, type: "MemberDto" }, errors: [404, 409, 422] },
  { method: "delete", path: "/Business/Member/{id}", tag: "Equipo", summary: "Quitar un miembro (sus sesiones terminan en su próxima solicitud)", ok: { status: 204 }, errors: [404] },
  { method: "get", path: "/Business/Invitation", tag: "Equipo", summary: "Invitaciones pendientes", ok: { status: 200, description: "{ items: InvitationDto[] }" } },
  { method: "post", path: "/Business/Invitation", tag: "Equipo", summary: "Invitar por correo con un rol (enlace firmado, de un solo uso, vence en 7 días)", body: invitationInputSchema, ok: { status: 201, type: "InvitationDto" }, errors: [409, 422, 502] },
  { method: "post", path: "/Business/Invitation/{id}/Resend", tag: "Equipo", summary: "Reenviar una invitación (enlace nuevo; el anterior deja de valer)", ok: { status: 200, type: "InvitationDto" }, errors: [404, 502] },
  { method: "delete", path: "/Business/Invitation/{id}", tag: "Equipo", summary: "Revocar una invitación", ok: { status: 204 }, errors: [404] },
  { method: "post", path: "/Invitation/Lookup", tag: "Equipo", summary: "Qué ofrece el enlace de una invitación (empresa, rol, correo, estado)", public: true, body: invitationTokenSchema, ok: { status: 200, type: "InvitationPreviewDto" }, errors: [404, 422] },
  // Roaming (issue 27): OCPI 2.2.1 partners; the OCPI interface itself is /ocpi (ADR 0020), outside this API.
  { method: "get", path: "/Business/Roaming", tag: "Roaming", summary: "País, party id OCPI y URL de versiones para los socios", ok: { status: 200, type: "RoamingSettingsDto" } },
  { method: "put", path: "/Business/Roaming", tag: "Roaming", summary: "Configurar el party id OCPI (3 letras o números; país AR)", body: roamingSettingsSchema, ok: { status: 200, type: "RoamingSettingsDto" }, errors: [422] },
  { method: "get", path: "/Business/Roaming/Partner", tag: "Roaming", summary: "Listar socios de roaming con su estado (más nuevos primero)", query: roamingPartnerListQuery, ok: { status: 200, type: "Page<RoamingPartnerDto>" }, errors: [422] },
  { method: "post", path: "/Business/Roaming/Partner", tag: "Roaming", summary: "Agregar un socio: sin datos, una invitación (la URL de versiones y el token A, que se muestra una sola vez); con la URL de versiones y el token del socio, el registro con él", body: roamingPartnerInputSchema, ok: { status: 201, type: "RoamingPartnerCreatedDto" }, errors: [422] },
  { method: "delete", path: "/Business/Roaming/Partner/{id}", tag: "Roaming", summary: "Dar de baja un socio (se le avisa con DELETE en su módulo de credenciales)", ok: { status: 204 }, errors: [404] },
  { method: "get", path: "/Business/Roaming/Station", tag: "Roaming", summary: "Estaciones y si están publicadas en roaming", query: roamingStationListQuery, ok: { status: 200, type: "Page<RoamingStationDto>" }, errors: [422] },
  { method: "put", path: "/Business/Roaming/Station/{id}", tag: "Roaming", summary: "Publicar o no una estación en roaming", body: roamingStationSchema, ok: { status: 200, type: "RoamingStationDto" }, errors: [404, 422] },
  // Audit log
  { method: "get", path: "/Business/Audit", tag: "Auditoría", summary: "Registro de cambios de la empresa (más nuevos primero)", query: auditQuery, ok: { status: 200, type: "AuditPage" }, errors: [422] },
  { method: "get", path: "/Business/Audit/Export.csv", tag: "Auditoría", summary: "Exportar el registro de cambios (CSV UTF-8 con BOM, separador ;)", query: auditExportQuery, ok: { status: 200, description: "CSV", content: "text/csv" }, errors: [422] },
  // Live updates
  { method: "get", path: "/Business/Live", tag: "En vivo", summary: "Eventos del servidor (text/event-stream): qué cambió (cargador, conector, carga) para recargar la página", ok: { status: 200, description: "Stream SSE de eventos `change` con `{ kind }`", content: "text/event-stream" } },
  // Issue 23: drivers pay at the charger (public: no account; the status page and the stop need the link's secret `t`)
  { method: "get", path: "/Driver/Charge/{identity}/{connector}", tag: "Conductores", summary: "Lo que muestra el QR de un conector: estación, conector, estado, tarifa, medios de pago y por qué no se puede cargar", public: true, ok: { status: 200, type: "ChargePointInfo" }, errors: [404] },
  { method: "post", path: "/Driver/Charge/{identity}/{connector}", tag: "Conductores", summary: "Pagar por adelantado una carga: un pago por clave del formulario (requestKey), con la dirección del checkout del proveedor", public: true, body: driverCheckoutSchema, ok: { status: 201, description: "{ paymentId, token, checkoutUrl } (200 si la misma clave ya creó el pago)" }, errors: [404, 409, 422, 502] },
  { method: "get", path: "/Driver/Payment/{id}", tag: "Conductores", summary: "El estado de un pago con QR y su carga (con ?t= el secreto del enlace)", public: true, ok: { status: 200, type: "PaymentView" }, errors: [404] },
  { method: "post", path: "/Driver/Payment/{id}/Stop", tag: "Conductores", summary: "Detener la carga (con el secreto del enlace)", public: true, body: driverTokenSchema, ok: { status: 200, description: "{ ok, message }" }, errors: [409, 422] },
  { method: "post", path: "/Webhook/MercadoPago/{businessId}", tag: "Conductores", summary: "Notificación de Mercado Pago (x-signature HMAC-SHA256 con la clave secreta de la empresa; data.id y type en la URL)", public: true, ok: { status: 200, description: "{ received }" }, errors: [400, 401] },
  { method: "post", path: "/Webhook/Pagos360/{businessId}", tag: "Conductores", summary: "Notificación de Pagos360 (la solicitud de pago se vuelve a leer de Pagos360 antes de creerla)", public: true, ok: { status: 200, description: "{ received }" }, errors: [400] },
  // The contract itself
  { method: "get", path: "/openapi.json", tag: "Contrato", summary: "Este documento", public: true, ok: { status: 200, description: "OpenAPI 3.1" } },
];

const problemSchema = {
  type: "object",
  required: ["type", "title", "status"],
  properties: {
    type: { type: "string", examples: ["urn:enchufa:problem:validation"] },
    title: { type: "string", examples: ["Revisá los datos ingresados."] },
    status: { type: "integer" },
    detail: { type: "string" },
    errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, examples: [{ cuit: ["No pudimos usar ese CUIT. Si es el de tu empresa, escribinos."] }] },
    requestId: { type: "string" },
  },
};

export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of OPERATIONS) {
    const parameters: Json[] = [];
    if (op.path.includes("{id}")) parameters.push(id);
    for (const [, name] of op.path.matchAll(/\{(identity|connector|businessId)\}/g)) {
      parameters.push({ name, in: "path", required: true, schema: name === "connector" ? { type: "integer", minimum: 1 } : name === "businessId" ? { type: "string", format: "uuid" } : { type: "string" } });
    }
    if (op.path.includes("{file}")) parameters.push({ name: "file", in: "path", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}\\.(jpg|png|gif)$" } });
    if (op.query) parameters.push(...queryParams(op.query));
    if (!op.public) {
      parameters.push({
        name: "X-Enchufa-Business",
        in: "header",
        required: false,
        description: "La empresa en la que actúa la solicitud (id), para quien pertenece a varias; se comprueba que sea miembro (403 si no).",
        schema: { type: "string", format: "uuid" },
      });
    }
    if (op.method === "post" && !op.public && !/^\/(Account|Business\/Images|Business\/BusinessUser|Business\/Member$)/.test(op.path)) {
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description:
          "Clave única de la operación (8 a 128 letras, números, - o _). Repetida por la misma empresa, no crea otra vez: responde lo mismo que la primera (`Idempotent-Replayed: true`).",
        schema: { type: "string", pattern: "^[A-Za-z0-9_-]{8,128}$" },
      });
    }

    const responses: Record<string, Json> = {};
    const okDescription = op.ok.description ?? (op.ok.type ? `\`${op.ok.type}\` (contract/dto.ts)` : "Sin contenido");
    responses[String(op.ok.status)] =
      op.ok.status === 204
        ? { description: okDescription }
        : { description: okDescription, content: { [op.ok.content ?? "application/json"]: { schema: op.ok.content?.startsWith("image") ? { type: "string", format: "binary" } : { type: op.ok.content?.startsWith("text/") ? "string" : "object" } } } };
    const errors = new Set([...(op.public ? [] : [401, 403]), ...(op.errors ?? [])]);
    for (const status of [...errors].sort()) {
      responses[String(status)] = { description: ERROR_TEXT[status] ?? "Error", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
    }
    if (!op.public) responses["429"] = { description: "Demasiadas solicitudes (ver Retry-After)", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
    responses["500"] = { description: "Error inesperado (ver requestId)", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };

    const operation: Json = { tags: [op.tag], summary: op.summary, operationId: `${op.method}${op.path.replace(/[{}/.]+(\w)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`, responses };
    // Who may call it (api/access.ts): the permission and the roles that hold it.
    const rule = ENDPOINT_RULES[`${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, ":$1")}`];
    if (rule && rule.permission !== "public") {
      operation["x-enchufa-permission"] = rule.permission;
      if (rule.permission !== "account") operation["x-enchufa-roles"] = [...PERMISSIONS[rule.permission as Permission].roles];
    }
    if (parameters.length) operation.parameters = parameters;
    if (op.public) operation.security = [];
    if (op.body) operation.requestBody = { required: true, content: { "application/json": { schema: schemaOf(op.body) } } };
    if (op.csv) operation.requestBody = { required: true, content: { "text/csv": { schema: { type: "string", description: "idTag;titular;email;vencimiento (dd/mm/aaaa);bloqueada (sí/no);grupo" } } } };
    if (op.multipart) {
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", required: ["Image"], properties: { Image: { type: "string", format: "binary", description: "JPEG, PNG o GIF (por contenido), máximo 800 KB" } } },
          },
        },
      };
    }
    (paths[op.path] ??= {})[op.method] = operation;
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Enchufá — Business API",
      version: "1.0.0",
      description:
        "API de negocio del panel de operadores de carga. JSON en camelCase; errores application/problem+json con mensajes en español por campo. " +
        "Cada solicitud lleva `Authorization: Bearer <ID token de Firebase>` y todo se limita a la empresa del usuario (el id de otra empresa responde 404). " +
        "Quien pertenece a varias empresas elige con el encabezado `X-Enchufa-Business: <id de empresa>` (sin él, la última en la que ingresó); la membresía se comprueba en cada solicitud. " +
        "Cada operación indica el permiso que pide (`x-enchufa-permission`) y los roles que lo tienen (`x-enchufa-roles`); otro rol recibe 403.",
    },
    servers: [{ url: "/api" }],
    security: [{ firebase: [] }],
    paths,
    components: {
      securitySchemes: { firebase: { type: "http", scheme: "bearer", bearerFormat: "Firebase ID token" } },
      schemas: { Problem: problemSchema },
    },
  };
}
