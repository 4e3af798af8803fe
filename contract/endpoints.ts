// The Business API's contract, one entry per endpoint: its method and path (Hono style, `:id`),
// who may call it and what the call records in the audit log, what OpenAPI says of it, the zod
// schemas of its query and JSON body, and the type of its answer. Everything else about an
// endpoint is derived from this table: the access rules of api/access.ts, the OpenAPI document
// of api/openapi.ts and the typed client the screens call the API with (app/lib/api.server.ts).
// A route the API registers without an entry here (or an entry without a route) fails
// tests/api/endpoints.test.ts.
//
// Adding an endpoint: its entry here (a readable key, e.g. `chargerReserve`), its zod schemas in
// contract/schemas and its answer's type in contract/dto.ts; then the route in api/routes.
import type { z } from "zod";
import type { AuditResource } from "#domain/audit";
import type { Permission } from "#domain/permissions";
import { deleteProfilePictureSchema, registerBusinessSchema, updateBusinessUserSchema } from "./schemas/business";
import { accessGroupListQuery, activityExportQuery, activityQuery, chargerEventQuery, chargerListQuery, chargerOptionsQuery, closeSessionBody, graphicQuery, invoiceExportQuery, invoiceListQuery, notificationListQuery, paymentListQuery, periodQuery, reconciliationQuery, rateListQuery, stationListQuery, stationOptionsQuery, tagListQuery } from "./schemas/queries";
import { stationInputSchema } from "./schemas/station";
import { assignChargersSchema, chargerInputSchema } from "./schemas/charger";
import { commandSchema } from "./schemas/command";
import { diagnosticsQuery, diagnosticsRequestSchema, firmwareUpdateSchema, ocppMessageQuery } from "./schemas/maintenance";
import { rateInputSchema, ratePreviewSchema } from "./schemas/rate";
import { rateRepriceSchema, rateScheduleSchema } from "./schemas/rate-schedule";
import { companyHolidaysSchema } from "./schemas/holidays";
import { pushRegistrationSchema } from "./schemas/notification";
import { fiscalSettingsSchema } from "./schemas/fiscal";
import { mercadoPagoConnectSchema, pagos360ConnectSchema, paymentRefundSchema } from "./schemas/payment";
import { accessGroupInputSchema, tagInputSchema } from "./schemas/tag";
import { reservationInputSchema, reservationListQuery } from "./schemas/reservation";
import { auditExportQuery, invitationInputSchema, invitationTokenSchema, memberPatchSchema } from "./schemas/team";
import { roamingPartnerInputSchema, roamingPartnerListQuery, roamingSettingsSchema, roamingStationListQuery, roamingStationSchema } from "./schemas/roaming";
import { driverCheckoutSchema, driverPaymentQuery, driverTokenSchema } from "./schemas/driver";
import type { CommandResult } from "./schemas/command-labels";
import type { CompanyHolidaysDto, AccessGroupDto, AccountBusinessDto, FiscalSettingsDto, FiscalTestDto, AuditPage, BusinessUserDto, ChargePointInfo, ChargerBrandDto, ChargerDto, ChargerEventPage, ChargerFirmwareDto, ChargerOptionDto, ChargerWithPasswordDto, ConnectorTypeDto, DashboardDto, DiagnosticsDto, DiagnosticsRequestedDto, FirmwareUpdateDto, GraphicDto, InvitationDto, InvitationPreviewDto, InvoiceDetailDto, InvoiceDto, InvoicePage, JoinedDto, LocalListResultDto, MemberDto, NotificationDto, NotificationPage, OcppMessageDto, Page, PaymentAccountDto, PaymentDto, PaymentPage, PaymentView, PushRegistrationDto, ReconciliationDto, RateDto, RatePreviewDto, ReservationDto, ReservationResultDto, RoamingPartnerCreatedDto, RoamingPartnerDto, RoamingSettingsDto, RoamingStationDto, ServiceDto, SessionDetailDto, SessionDto, SessionPage, StationAllocationDto, StationDto, StationOptionDto, TagDto, TagImportDto, RateRepriceDto, RateScheduleDto, RateScheduleListDto } from "./dto";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a write records in the audit log, before → after (api/audit.ts applies it). */
export interface AuditSpec {
  resource: AuditResource;
  /** The verb: create, update, delete, command, password, assign, connect, disconnect, photo… */
  action: string;
  /**
   * Where the resource id comes from: the path's `:id` (default), the JSON answer's `id` (a
   * creation), the company itself (profile), a fixed value (the payment provider of the path),
   * or every id of a list in the JSON body (charger assignment).
   */
  id?: "param" | "response" | "company" | { fixed: string } | { bodyList: string };
  /**
   * Record what was asked and answered instead of a before/after difference (commands): the
   * request body's fields and these fields of the JSON answer.
   */
  details?: { response?: readonly string[] };
}

/**
 * Who may call an endpoint: `public` (no token), `account` (a verified account, whatever its
 * companies) or a permission of domain/permissions.ts held by the caller's role in the company.
 * `audit` says what a write records: an AuditSpec the access guard applies, "handler" when the
 * handler records it itself, or false (nothing to record). A company endpoint needs an ACTIVE
 * company unless it says `company: "any"`.
 */
export type EndpointRule =
  | { permission: "public" }
  | { permission: "account"; audit?: "handler" | false }
  | {
      permission: Permission;
      audit?: AuditSpec | "handler" | false;
      /**
       * The company's status the endpoint needs: ACTIVE by default (the back office), or `any`
       * for what a pending, rejected or suspended company may still read and fix (its profile).
       */
      company?: "any";
    };

/** The type of an endpoint's answer, carried for the typed client; nothing at run time. */
export interface Output<T> {
  readonly __output?: T;
}

/** `output: dto<Page<StationDto>>()`: the answer's type (JSON; `void` for 204, `string` for text, `Blob` for bytes). */
export function dto<T>(): Output<T> {
  return {};
}

/** What the OpenAPI document says of an endpoint beyond its schemas. */
export interface EndpointDoc {
  tag: string;
  summary: string;
  /** The success status; `type` names the answer's type in contract/dto.ts, `content` a non-JSON answer. */
  ok: { status: number; type?: string; description?: string; content?: string };
  /** The error statuses it may answer (401/403, 429 and 500 are added where they apply). */
  errors?: number[];
}

export type EndpointDef = EndpointRule & {
  method: HttpMethod;
  path: string;
  /** The query string's schema (parsed by the handler; its input type types the client's `query`). */
  query?: z.ZodType;
  /** The JSON body's schema (its input type types the client's `body`). */
  body?: z.ZodType;
  /** A multipart/form-data body with an `Image` file. */
  multipart?: boolean;
  /** A text/csv body (the tag import). */
  csv?: boolean;
  doc: EndpointDoc;
  output: Output<unknown>;
};

/** One entry, its literal types kept (the path's parameters, the schemas, the answer). */
export function endpoint<const E extends EndpointDef>(e: E): E {
  return e;
}

/** The names of a path's parameters: "/Business/Charger/:id/Event" → "id". */
export type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer R}` ? N | ParamNames<`/${R}`> : P extends `${string}:${infer N}` ? N : never;
export type ParamsOf<E extends EndpointDef> = { [K in ParamNames<E["path"]>]: string | number };
export type QueryOf<E extends EndpointDef> = E extends { query: infer Q extends z.ZodType } ? z.input<Q> : never;
export type BodyOf<E extends EndpointDef> = E extends { body: infer B extends z.ZodType } ? z.input<B> : never;
export type OutputOf<E extends EndpointDef> = E["output"] extends Output<infer T> ? T : never;

/** The access table's key of an endpoint: `METHOD /path`, as Hono registers it (without /api). */
export function endpointKey(e: Pick<EndpointDef, "method" | "path">): string {
  return `${e.method} ${e.path}`;
}

/** The answer of POST /Business/Activity/:id/Close beyond the session itself. */
export interface SessionCloseExtra {
  closedBy: "operator" | "charger";
  remoteStop: "accepted" | "rejected" | "timeout" | "error" | "offline" | "not-needed";
  reason: string;
}

/** Every endpoint of the Business API, by a readable name. */
export const endpoints = {
  // Cuenta
  accountBusinessGet: endpoint({ method: "GET", path: "/Account/Business", permission: "account", doc: { tag: "Cuenta", summary: "Estado de la empresa de la cuenta", ok: {status: 200,type: "AccountBusinessDto"} }, output: dto<AccountBusinessDto>() }),
  accountBusinessCreate: endpoint({ method: "POST", path: "/Account/Business", permission: "account", audit: "handler", body: registerBusinessSchema, doc: { tag: "Cuenta", summary: "Registrar la empresa de la cuenta (un CUIT ya registrado recibe la misma respuesta, sin empresa; se avisa a su dueño)", ok: {status: 201,type: "BusinessUserDto"}, errors: [409,422,429] }, output: dto<BusinessUserDto>() }),
  accountSignIn: endpoint({ method: "POST", path: "/Account/SignIn", permission: "account", audit: false, doc: { tag: "Cuenta", summary: "Registrar el ingreso a la empresa de la solicitud (último ingreso del miembro)", ok: {status: 200,type: "AccountBusinessDto"} }, output: dto<AccountBusinessDto>() }),
  // Perfil
  profileGet: endpoint({ method: "GET", path: "/Business/BusinessUser", permission: "profile.read", company: "any", doc: { tag: "Perfil", summary: "Perfil de la empresa", ok: {status: 200,type: "BusinessUserDto"} }, output: dto<BusinessUserDto>() }),
  profileUpdate: endpoint({ method: "PATCH", path: "/Business/BusinessUser/Update", permission: "profile.write", company: "any", audit: {resource: "profile",action: "update",id: "company"}, body: updateBusinessUserSchema, doc: { tag: "Perfil", summary: "Actualizar el perfil", ok: {status: 200,type: "BusinessUserDto"}, errors: [409,422,429] }, output: dto<BusinessUserDto>() }),
  profilePictureUpload: endpoint({ method: "PATCH", path: "/Business/Images/ProfilePicture", permission: "profile.write", company: "any", audit: {resource: "profile",action: "photo",id: "company"}, multipart: true, doc: { tag: "Perfil", summary: "Subir la foto de perfil (campo Image; JPEG/PNG/GIF ≤ 800 KB, ≤ 8000 px por lado y 40 Mpx)", ok: {status: 200,description: "{ photoUrl }"}, errors: [413,415,422] }, output: dto<{ photoUrl: string | null }>() }),
  profilePictureDelete: endpoint({ method: "DELETE", path: "/Business/Images/ProfilePicture", permission: "profile.write", company: "any", audit: {resource: "profile",action: "photo",id: "company"}, body: deleteProfilePictureSchema, doc: { tag: "Perfil", summary: "Quitar la foto de perfil", ok: {status: 200,description: "{ photoUrl }"}, errors: [404,422] }, output: dto<{ photoUrl: string | null }>() }),
  // Imágenes
  imageUpload: endpoint({ method: "POST", path: "/Business/Images", permission: "station.write", audit: false, multipart: true, doc: { tag: "Imágenes", summary: "Subir una imagen (p. ej. foto de estación; mismas reglas que la foto de perfil; cuenta para la cuota de la empresa y se borra si nada la usa en 24 h)", ok: {status: 201,description: "{ url }"}, errors: [413,415,422] }, output: dto<{ url: string }>() }),
  imageGet: endpoint({ method: "GET", path: "/images/:file", permission: "public", doc: { tag: "Imágenes", summary: "Imagen por hash de contenido (pública, inmutable)", ok: {status: 200,description: "Los bytes de la imagen",content: "image/*"}, errors: [404] }, output: dto<Blob>() }),
  // Catálogos
  serviceList: endpoint({ method: "GET", path: "/Business/Service", permission: "catalog.read", doc: { tag: "Catálogos", summary: "Servicios de estación", ok: {status: 200,type: "ServiceDto[]"} }, output: dto<ServiceDto[]>() }),
  chargerBrandList: endpoint({ method: "GET", path: "/Business/ChargerBrand", permission: "catalog.read", doc: { tag: "Catálogos", summary: "Marcas de cargadores", ok: {status: 200,type: "ChargerBrandDto[]"} }, output: dto<ChargerBrandDto[]>() }),
  connectorTypeList: endpoint({ method: "GET", path: "/Driver/ConnectorType", permission: "catalog.read", doc: { tag: "Catálogos", summary: "Tipos de conector (OCPI)", ok: {status: 200,type: "ConnectorTypeDto[]"} }, output: dto<ConnectorTypeDto[]>() }),
  // Estaciones
  stationList: endpoint({ method: "GET", path: "/Business/ChargingStation", permission: "station.read", query: stationListQuery, doc: { tag: "Estaciones", summary: "Listar estaciones", ok: {status: 200,type: "Page<StationDto>"}, errors: [422] }, output: dto<Page<StationDto>>() }),
  stationCreate: endpoint({ method: "POST", path: "/Business/ChargingStation", permission: "station.write", audit: {resource: "station",action: "create",id: "response"}, body: stationInputSchema, doc: { tag: "Estaciones", summary: "Crear estación", ok: {status: 201,type: "StationDto"}, errors: [422] }, output: dto<StationDto>() }),
  stationOptions: endpoint({ method: "GET", path: "/Business/ChargingStation/Options", permission: "station.read", query: stationOptionsQuery, doc: { tag: "Estaciones", summary: "Estaciones como opciones (id, nombre, ciudad), por nombre", ok: {status: 200,type: "Page<StationOptionDto>"}, errors: [422] }, output: dto<Page<StationOptionDto>>() }),
  stationGet: endpoint({ method: "GET", path: "/Business/ChargingStation/:id", permission: "station.read", doc: { tag: "Estaciones", summary: "Ver estación", ok: {status: 200,type: "StationDto"}, errors: [404] }, output: dto<StationDto>() }),
  stationAllocation: endpoint({ method: "GET", path: "/Business/ChargingStation/:id/Allocation", permission: "station.read", doc: { tag: "Estaciones", summary: "Reparto de la capacidad de la red (gridCapacityKw) entre los conectores que están cargando: el límite enviado a cada uno (SetChargingProfile TxProfile) y la respuesta del cargador", ok: {status: 200,type: "StationAllocationDto"}, errors: [404] }, output: dto<StationAllocationDto>() }),
  stationUpdate: endpoint({ method: "PUT", path: "/Business/ChargingStation/:id", permission: "station.write", audit: {resource: "station",action: "update"}, body: stationInputSchema, doc: { tag: "Estaciones", summary: "Editar estación", ok: {status: 200,type: "StationDto"}, errors: [404,422] }, output: dto<StationDto>() }),
  stationDelete: endpoint({ method: "DELETE", path: "/Business/ChargingStation/:id", permission: "station.write", audit: {resource: "station",action: "delete"}, doc: { tag: "Estaciones", summary: "Eliminar estación (sin cargadores)", ok: {status: 204}, errors: [404,409] }, output: dto<void>() }),
  // Cargadores
  chargerList: endpoint({ method: "GET", path: "/Business/Charger", permission: "charger.read", query: chargerListQuery, doc: { tag: "Cargadores", summary: "Listar cargadores con sus conectores", ok: {status: 200,type: "Page<ChargerDto>"}, errors: [422] }, output: dto<Page<ChargerDto>>() }),
  chargerCreate: endpoint({ method: "POST", path: "/Business/Charger", permission: "charger.write", audit: {resource: "charger",action: "create",id: "response"}, body: chargerInputSchema, doc: { tag: "Cargadores", summary: "Crear cargador (devuelve la contraseña OCPP una sola vez)", ok: {status: 201,type: "ChargerWithPasswordDto"}, errors: [409,422] }, output: dto<ChargerWithPasswordDto>() }),
  chargerAssign: endpoint({ method: "POST", path: "/Business/Charger/Assign", permission: "charger.write", audit: {resource: "charger",action: "assign",id: {bodyList: "chargerIds"}}, body: assignChargersSchema, doc: { tag: "Cargadores", summary: "Añadir cargadores a una estación", ok: {status: 200,description: "{ stationId, items: ChargerDto[] }"}, errors: [422] }, output: dto<{ stationId: string; items: ChargerDto[] }>() }),
  chargerOptions: endpoint({ method: "GET", path: "/Business/Charger/Options", permission: "charger.read", query: chargerOptionsQuery, doc: { tag: "Cargadores", summary: "Cargadores como opciones (id, nombre, estación), por nombre", ok: {status: 200,type: "Page<ChargerOptionDto>"}, errors: [422] }, output: dto<Page<ChargerOptionDto>>() }),
  chargerGet: endpoint({ method: "GET", path: "/Business/Charger/:id", permission: "charger.read", doc: { tag: "Cargadores", summary: "Ver cargador", ok: {status: 200,type: "ChargerDto"}, errors: [404] }, output: dto<ChargerDto>() }),
  chargerEvents: endpoint({ method: "GET", path: "/Business/Charger/:id/Event", permission: "charger.read", query: chargerEventQuery, doc: { tag: "Cargadores", summary: "Eventos que informó el cargador (seguridad, avisos, firmware, registros, diagnóstico, partes de informes), más nuevos primero, y el último informe", ok: {status: 200,type: "ChargerEventPage"}, errors: [404,422] }, output: dto<ChargerEventPage>() }),
  chargerUpdate: endpoint({ method: "PUT", path: "/Business/Charger/:id", permission: "charger.write", audit: {resource: "charger",action: "update"}, body: chargerInputSchema, doc: { tag: "Cargadores", summary: "Editar cargador y conectores", ok: {status: 200,type: "ChargerDto"}, errors: [404,409,422] }, output: dto<ChargerDto>() }),
  chargerDelete: endpoint({ method: "DELETE", path: "/Business/Charger/:id", permission: "charger.write", audit: {resource: "charger",action: "delete"}, doc: { tag: "Cargadores", summary: "Eliminar cargador", ok: {status: 204}, errors: [404,409] }, output: dto<void>() }),
  chargerRotatePassword: endpoint({ method: "POST", path: "/Business/Charger/:id/RotatePassword", permission: "charger.write", audit: {resource: "charger",action: "password"}, doc: { tag: "Cargadores", summary: "Generar una nueva contraseña OCPP (se muestra una vez); a un cargador conectado se le envía y se aplica solo si la acepta", ok: {status: 200,type: "ChargerWithPasswordDto"}, errors: [404,409] }, output: dto<ChargerWithPasswordDto>() }),
  chargerCommand: endpoint({ method: "POST", path: "/Business/Charger/:id/Command", permission: "charger.command", audit: {resource: "charger",action: "command",details: {response: ["outcome","message"]}}, body: commandSchema, doc: { tag: "Cargadores", summary: "Enviar un comando OCPP al cargador, en su protocolo (Reset, RemoteStart/StopTransaction, UnlockConnector, ChangeAvailability, TriggerMessage; GetBaseReport en 2.0.1; GetConfiguration / ChangeConfiguration de los intervalos de señal de vida y de mediciones, GetVariables / SetVariables en 2.0.1). Un HeartbeatInterval que el cargador acepta pasa a ser su intervalo.", ok: {status: 200,type: "CommandResult"}, errors: [404,422] }, output: dto<CommandResult>() }),
  chargerMessages: endpoint({ method: "GET", path: "/Business/Charger/:id/Message", permission: "charger.read", query: ocppMessageQuery, doc: { tag: "Cargadores", summary: "Los mensajes OCPP recientes del cargador (ambos sentidos, los últimos 1.000, más nuevos primero; sin secretos)", ok: {status: 200,type: "Page<OcppMessageDto>"}, errors: [404,422] }, output: dto<Page<OcppMessageDto>>() }),
  chargerMessagesExportCsv: endpoint({ method: "GET", path: "/Business/Charger/:id/Message/Export.csv", permission: "charger.read", doc: { tag: "Cargadores", summary: "Exportar los mensajes OCPP recientes (CSV UTF-8 con BOM, separador ;)", ok: {status: 200,description: "CSV",content: "text/csv"}, errors: [404] }, output: dto<string>() }),
  chargerFirmwareGet: endpoint({ method: "GET", path: "/Business/Charger/:id/Firmware", permission: "charger.read", doc: { tag: "Cargadores", summary: "Firmware del cargador y de los cargadores de su modelo: versión, última actualización pedida y su avance (FirmwareStatusNotification)", ok: {status: 200,type: "ChargerFirmwareDto"}, errors: [404] }, output: dto<ChargerFirmwareDto>() }),
  chargerFirmwareUpdate: endpoint({ method: "POST", path: "/Business/Charger/:id/Firmware", permission: "charger.command", audit: {resource: "charger",action: "firmware",details: {response: ["outcome","message"]}}, body: firmwareUpdateSchema, doc: { tag: "Cargadores", summary: "Actualizar el firmware (UpdateFirmware, en el protocolo de cada cargador) de este cargador o de todos los de su marca y modelo", ok: {status: 200,type: "FirmwareUpdateDto"}, errors: [404,422] }, output: dto<FirmwareUpdateDto>() }),
  chargerDiagnosticsList: endpoint({ method: "GET", path: "/Business/Charger/:id/Diagnostics", permission: "charger.read", query: diagnosticsQuery, doc: { tag: "Cargadores", summary: "Diagnósticos pedidos al cargador (los últimos 10) y su estado", ok: {status: 200,type: "Page<DiagnosticsDto>"}, errors: [404,422] }, output: dto<Page<DiagnosticsDto>>() }),
  chargerDiagnosticsRequest: endpoint({ method: "POST", path: "/Business/Charger/:id/Diagnostics", permission: "charger.command", audit: {resource: "charger",action: "diagnostics",details: {response: ["outcome","message"]}}, body: diagnosticsRequestSchema, doc: { tag: "Cargadores", summary: "Pedir un diagnóstico (GetDiagnostics en 1.6, GetLog en 2.0.1): el cargador lo sube a una dirección de Enchufá válida para este pedido", ok: {status: 200,type: "DiagnosticsRequestedDto"}, errors: [404,422] }, output: dto<DiagnosticsRequestedDto>() }),
  chargerDiagnosticsFile: endpoint({ method: "GET", path: "/Business/Charger/:id/Diagnostics/:diagnosticsId/File", permission: "charger.read", doc: { tag: "Cargadores", summary: "Descargar el archivo de diagnóstico que subió el cargador", ok: {status: 200,description: "El archivo",content: "application/octet-stream"}, errors: [404] }, output: dto<Blob>() }),
  chargerUploadPut: endpoint({ method: "PUT", path: "/ChargerUpload/:id/:token", permission: "public", doc: { tag: "Cargadores", summary: "El cargador sube su diagnóstico (cuerpo crudo o multipart, hasta 20 MiB); la dirección con su token se la da Enchufá en el pedido y sirve una vez, por un día", ok: {status: 201}, errors: [401,413] }, output: dto<void>() }),
  chargerUploadPost: endpoint({ method: "POST", path: "/ChargerUpload/:id/:token", permission: "public", doc: { tag: "Cargadores", summary: "Igual que PUT, para cargadores que suben con POST", ok: {status: 201}, errors: [401,413] }, output: dto<void>() }),
  chargerUploadFilePut: endpoint({ method: "PUT", path: "/ChargerUpload/:id/:token/:fileName", permission: "public", doc: { tag: "Cargadores", summary: "Igual, con el nombre del archivo al final de la dirección (como lo agregan algunos cargadores)", ok: {status: 201}, errors: [401,413] }, output: dto<void>() }),
  chargerUploadFilePost: endpoint({ method: "POST", path: "/ChargerUpload/:id/:token/:fileName", permission: "public", doc: { tag: "Cargadores", summary: "Igual que PUT con nombre de archivo, con POST", ok: {status: 201}, errors: [401,413] }, output: dto<void>() }),
  chargerLocalListSend: endpoint({ method: "POST", path: "/Business/Charger/:id/LocalList", permission: "charger.command", audit: {resource: "charger",action: "local_list",details: {response: ["outcome","status","version","entries"]}}, doc: { tag: "Cargadores", summary: "Enviar las tarjetas RFID de la empresa como lista local de autorización del cargador (SendLocalList completa, 1.6 y 2.0.1), cada una con la respuesta que daría en su estación (Accepted, Blocked, Expired, Invalid), con una versión más que la que tiene. 200 con lo que respondió el cargador.", ok: {status: 200,type: "LocalListResultDto"}, errors: [404,409] }, output: dto<LocalListResultDto>() }),
  chargerLocalListVersionGet: endpoint({ method: "POST", path: "/Business/Charger/:id/LocalList/Version", permission: "charger.command", audit: {resource: "charger",action: "local_list_version",details: {response: ["outcome","version"]}}, doc: { tag: "Cargadores", summary: "Preguntarle al cargador qué versión de la lista local tiene (GetLocalListVersion) y guardarla", ok: {status: 200,type: "LocalListResultDto"}, errors: [404] }, output: dto<LocalListResultDto>() }),
  // Tarifas
  rateList: endpoint({ method: "GET", path: "/Business/Fees", permission: "rate.read", query: rateListQuery, doc: { tag: "Tarifas", summary: "Listar tarifas", ok: {status: 200,type: "Page<RateDto>"}, errors: [422] }, output: dto<Page<RateDto>>() }),
  rateCreate: endpoint({ method: "POST", path: "/Business/Fees", permission: "rate.write", audit: {resource: "rate",action: "create",id: "response"}, body: rateInputSchema, doc: { tag: "Tarifas", summary: "Crear tarifa", ok: {status: 201,type: "RateDto"}, errors: [422] }, output: dto<RateDto>() }),
  ratePreview: endpoint({ method: "POST", path: "/Business/Fees/Preview", permission: "rate.read", audit: false, body: ratePreviewSchema, doc: { tag: "Tarifas", summary: "Calcular el precio de una carga con una tarifa", ok: {status: 200,type: "RatePreviewDto"}, errors: [422] }, output: dto<RatePreviewDto>() }),
  rateReprice: endpoint({ method: "POST", path: "/Business/Fees/Reprice", permission: "rate.write", audit: {resource: "rate",action: "reprice",id: {bodyList: "rateIds"}}, body: rateRepriceSchema, doc: { tag: "Tarifas", summary: "Actualizar precios de varias tarifas desde una fecha y hora: un porcentaje (percent, redondeado al centavo, la mitad hacia arriba) o un nuevo precio por kWh. preview: true responde antes → después sin programar nada (200); si no, programa un cambio por tarifa (201)", ok: {status: 201,type: "RateRepriceDto"}, errors: [409,422] }, output: dto<RateRepriceDto>() }),
  rateScheduleList: endpoint({ method: "GET", path: "/Business/Fees/:id/Schedule", permission: "rate.read", doc: { tag: "Tarifas", summary: "Precios vigentes y cambios programados de la tarifa (los próximos primero)", ok: {status: 200,type: "RateScheduleListDto"}, errors: [404] }, output: dto<RateScheduleListDto>() }),
  rateScheduleCreate: endpoint({ method: "POST", path: "/Business/Fees/:id/Schedule", permission: "rate.write", audit: {resource: "rate",action: "schedule"}, body: rateScheduleSchema, doc: { tag: "Tarifas", summary: "Programar un cambio de la tarifa: { effectiveFrom, …campos de la tarifa que cambian }; las cargas que empiezan desde entonces usan los nuevos precios", ok: {status: 201,type: "RateScheduleDto"}, errors: [404,409,422] }, output: dto<RateScheduleDto>() }),
  rateScheduleDelete: endpoint({ method: "DELETE", path: "/Business/Fees/:id/Schedule/:scheduleId", permission: "rate.write", audit: {resource: "rate",action: "unschedule"}, doc: { tag: "Tarifas", summary: "Cancelar un cambio programado que todavía no rige", ok: {status: 204}, errors: [404] }, output: dto<void>() }),
  companyHolidaysGet: endpoint({ method: "GET", path: "/Business/Holidays", permission: "rate.read", doc: { tag: "Tarifas", summary: "Feriados locales de la empresa (AAAA-MM-DD), que todas sus tarifas cobran como domingo, y los nacionales de los próximos doce meses", ok: {status: 200,type: "CompanyHolidaysDto"} }, output: dto<CompanyHolidaysDto>() }),
  companyHolidaysSave: endpoint({ method: "PUT", path: "/Business/Holidays", permission: "rate.write", audit: {resource: "profile",action: "holidays",id: "company"}, body: companyHolidaysSchema, doc: { tag: "Tarifas", summary: "Reemplazar los feriados locales de la empresa: { dates: [AAAA-MM-DD] } (sin repetir, hasta 60). Las franjas «domingos y feriados» de todas las tarifas los usan desde las cargas que empiecen ahora", ok: {status: 200,type: "CompanyHolidaysDto"}, errors: [422] }, output: dto<CompanyHolidaysDto>() }),
  rateGet: endpoint({ method: "GET", path: "/Business/Fees/:id", permission: "rate.read", doc: { tag: "Tarifas", summary: "Ver tarifa", ok: {status: 200,type: "RateDto"}, errors: [404] }, output: dto<RateDto>() }),
  rateUpdate: endpoint({ method: "PUT", path: "/Business/Fees/:id", permission: "rate.write", audit: {resource: "rate",action: "update"}, body: rateInputSchema, doc: { tag: "Tarifas", summary: "Editar tarifa", ok: {status: 200,type: "RateDto"}, errors: [404,422] }, output: dto<RateDto>() }),
  rateDelete: endpoint({ method: "DELETE", path: "/Business/Fees/:id", permission: "rate.write", audit: {resource: "rate",action: "delete"}, doc: { tag: "Tarifas", summary: "Eliminar tarifa (sin conectores)", ok: {status: 204}, errors: [404,409] }, output: dto<void>() }),
  // Actividad
  activityList: endpoint({ method: "GET", path: "/Business/Activity", permission: "activity.read", query: activityQuery, doc: { tag: "Actividad", summary: "Listar cargas", ok: {status: 200,type: "SessionPage"}, errors: [422] }, output: dto<SessionPage>() }),
  activityExportCsv: endpoint({ method: "GET", path: "/Business/Activity/Export.csv", permission: "activity.export", query: activityExportQuery, doc: { tag: "Actividad", summary: "Exportar cargas (CSV UTF-8 con BOM, separador ;)", ok: {status: 200,description: "CSV",content: "text/csv"}, errors: [422] }, output: dto<string>() }),
  activityGet: endpoint({ method: "GET", path: "/Business/Activity/:id", permission: "activity.read", doc: { tag: "Actividad", summary: "Detalle de una carga", ok: {status: 200,type: "SessionDetailDto"}, errors: [404] }, output: dto<SessionDetailDto>() }),
  activityClose: endpoint({ method: "POST", path: "/Business/Activity/:id/Close", permission: "session.close", audit: {resource: "session",action: "close",details: {response: ["closedBy","remoteStop","status","energyWh","totalCents"]}}, body: closeSessionBody, doc: { tag: "Actividad", summary: "Cerrar una carga que el cargador no cerró (con motivo): se le pide detenerla si está conectado y se cobra hasta la última lectura", ok: {status: 200,type: "SessionDto & { closedBy, remoteStop, reason }"}, errors: [404,409,422] }, output: dto<SessionDto & SessionCloseExtra>() }),
  // Inicio
  dashboardGet: endpoint({ method: "GET", path: "/Business/Dashboard", permission: "dashboard.read", query: periodQuery, doc: { tag: "Inicio", summary: "Indicadores del período", ok: {status: 200,type: "DashboardDto"}, errors: [422] }, output: dto<DashboardDto>() }),
  graphicGet: endpoint({ method: "GET", path: "/Business/Graphic", permission: "dashboard.read", query: graphicQuery, doc: { tag: "Inicio", summary: "Series para gráficos", ok: {status: 200,type: "GraphicDto"}, errors: [422] }, output: dto<GraphicDto>() }),
  // Notificaciones
  notificationList: endpoint({ method: "GET", path: "/Business/Notification", permission: "notification.read", query: notificationListQuery, doc: { tag: "Notificaciones", summary: "Listar notificaciones", ok: {status: 200,type: "NotificationPage"}, errors: [422] }, output: dto<NotificationPage>() }),
  notificationUnreadCount: endpoint({ method: "GET", path: "/Business/Notification/UnreadCount", permission: "notification.read", doc: { tag: "Notificaciones", summary: "Cantidad sin leer", ok: {status: 200,description: "{ unread }"} }, output: dto<{ unread: number }>() }),
  notificationRead: endpoint({ method: "POST", path: "/Business/Notification/:id/Read", permission: "notification.write", audit: false, doc: { tag: "Notificaciones", summary: "Marcar como leída", ok: {status: 200,type: "NotificationDto & { unread }"}, errors: [404] }, output: dto<NotificationDto & { unread: number }>() }),
  notificationReadAll: endpoint({ method: "POST", path: "/Business/Notification/ReadAll", permission: "notification.write", audit: false, doc: { tag: "Notificaciones", summary: "Marcar todas como leídas", ok: {status: 200,description: "{ updated, unread }"} }, output: dto<{ updated: number; unread: number }>() }),
  notificationPushRegistration: endpoint({ method: "POST", path: "/Business/Notification/PushRegistration", permission: "push.register", audit: false, body: pushRegistrationSchema, doc: { tag: "Notificaciones", summary: "Registrar el token push del navegador", ok: {status: 200,type: "PushRegistrationDto"}, errors: [422] }, output: dto<PushRegistrationDto>() }),
  // Pagos
  mercadoPagoAccountGet: endpoint({ method: "GET", path: "/MercadoPago/BusinessUser", permission: "payment.read", doc: { tag: "Pagos", summary: "Estado de la cuenta de Mercado Pago", ok: {status: 200,type: "PaymentAccountDto"} }, output: dto<PaymentAccountDto>() }),
  // Facturación electrónica (ARCA)
  fiscalSettingsGet: endpoint({ method: "GET", path: "/Business/Fiscal", permission: "fiscal.read", doc: { tag: "Facturación", summary: "Configuración fiscal para ARCA (sin el certificado ni la clave)", ok: {status: 200,type: "FiscalSettingsDto"} }, output: dto<FiscalSettingsDto>() }),
  fiscalSettingsSave: endpoint({ method: "PUT", path: "/Business/Fiscal", permission: "fiscal.write", audit: {resource: "fiscal_settings",action: "update",id: "company"}, body: fiscalSettingsSchema, doc: { tag: "Facturación", summary: "Guardar la configuración fiscal (condición, punto de venta, entorno, certificado y clave)", ok: {status: 200,type: "FiscalSettingsDto"}, errors: [422] }, output: dto<FiscalSettingsDto>() }),
  // Trying the connection changes no setting: it records only when it was tried and how it went.
  fiscalSettingsTest: endpoint({ method: "POST", path: "/Business/Fiscal/Test", permission: "fiscal.write", audit: false, doc: { tag: "Facturación", summary: "Probar la conexión con ARCA (ingreso WSAA, FEDummy y punto de venta)", ok: {status: 200,type: "FiscalTestDto"}, errors: [409] }, output: dto<FiscalTestDto>() }),
  mercadoPagoAccountConnect: endpoint({ method: "PUT", path: "/MercadoPago/BusinessUser", permission: "payment.write", audit: {resource: "payment_account",action: "connect",id: {fixed: "MERCADOPAGO"}}, body: mercadoPagoConnectSchema, doc: { tag: "Pagos", summary: "Conectar Mercado Pago", ok: {status: 200,type: "PaymentAccountDto"}, errors: [422] }, output: dto<PaymentAccountDto>() }),
  mercadoPagoAccountDisconnect: endpoint({ method: "DELETE", path: "/MercadoPago/BusinessUser", permission: "payment.write", audit: {resource: "payment_account",action: "disconnect",id: {fixed: "MERCADOPAGO"}}, doc: { tag: "Pagos", summary: "Desconectar Mercado Pago", ok: {status: 200,type: "PaymentAccountDto"} }, output: dto<PaymentAccountDto>() }),
  pagos360AccountGet: endpoint({ method: "GET", path: "/Pagos360/BusinessUser", permission: "payment.read", doc: { tag: "Pagos", summary: "Estado de la cuenta de Pagos360", ok: {status: 200,type: "PaymentAccountDto"} }, output: dto<PaymentAccountDto>() }),
  pagos360AccountConnect: endpoint({ method: "PUT", path: "/Pagos360/BusinessUser", permission: "payment.write", audit: {resource: "payment_account",action: "connect",id: {fixed: "PAGOS360"}}, body: pagos360ConnectSchema, doc: { tag: "Pagos", summary: "Conectar Pagos360", ok: {status: 200,type: "PaymentAccountDto"}, errors: [422] }, output: dto<PaymentAccountDto>() }),
  pagos360AccountDisconnect: endpoint({ method: "DELETE", path: "/Pagos360/BusinessUser", permission: "payment.write", audit: {resource: "payment_account",action: "disconnect",id: {fixed: "PAGOS360"}}, doc: { tag: "Pagos", summary: "Desconectar Pagos360", ok: {status: 200,type: "PaymentAccountDto"} }, output: dto<PaymentAccountDto>() }),
  paymentList: endpoint({ method: "GET", path: "/Business/Payments", permission: "payment.read", query: paymentListQuery, doc: { tag: "Pagos", summary: "Listar pagos con totales (step=REFUND_PENDING: las devoluciones que la empresa debe hacer a mano)", ok: {status: 200,type: "PaymentPage"}, errors: [422] }, output: dto<PaymentPage>() }),
  paymentReconciliation: endpoint({ method: "GET", path: "/Business/Payments/Reconciliation", permission: "payment.read", query: reconciliationQuery, doc: { tag: "Pagos", summary: "Conciliar los pagos creados en el período (from, to; por defecto los últimos 7 días, hasta 31) con lo que registra cada proveedor: las diferencias (no está en el proveedor, pago desconocido, monto, moneda, estado, devolución), cuántos se compararon y los totales bruto, comisión, devuelto y neto del proveedor", ok: {status: 200,type: "ReconciliationDto"}, errors: [422] }, output: dto<ReconciliationDto>() }),
  paymentReconciliationExportCsv: endpoint({ method: "GET", path: "/Business/Payments/Reconciliation/Export.csv", permission: "payment.read", query: reconciliationQuery, doc: { tag: "Pagos", summary: "Exportar las diferencias de la conciliación del período (CSV UTF-8 con BOM, separador ;)", ok: {status: 200,description: "CSV",content: "text/csv"}, errors: [422] }, output: dto<string>() }),
  paymentReconciliationRun: endpoint({ method: "POST", path: "/Business/Payments/Reconciliation/Run", permission: "payment.reconcile", audit: {resource: "payment",action: "reconcile",id: "company",details: {response: ["checked", "reported"]}}, query: reconciliationQuery, doc: { tag: "Pagos", summary: "Conciliar ahora el período y notificar las diferencias que no se habían notificado (cada una, una sola vez)", ok: {status: 200,type: "ReconciliationDto"}, errors: [422] }, output: dto<ReconciliationDto>() }),
  paymentRefund: endpoint({ method: "POST", path: "/Business/Payments/:id/Refund", permission: "payment.refund", audit: {resource: "payment",action: "refund"}, body: paymentRefundSchema, doc: { tag: "Pagos", summary: "Registrar la devolución que la empresa hizo a mano de un pago con QR de Pagos360 (Pagos360 no tiene una llamada de devolución): amountCents (por defecto, todo lo que se debe; mayor que 0 y no más de lo que se debe). El pago termina y se avisa al conductor por correo. 409 si no se debe nada o si el proveedor devuelve solo (Mercado Pago).", ok: {status: 200,type: "PaymentDto"}, errors: [404,409,422] }, output: dto<PaymentDto>() }),
  paymentBlockDriver: endpoint({ method: "POST", path: "/Business/Payments/:id/BlockDriver", permission: "payment.block", audit: {resource: "payment",action: "block_driver"}, doc: { tag: "Pagos", summary: "Bloquear al conductor de un pago en disputa o con contracargo: el correo con el que pagó no puede volver a pagar en las páginas de QR de la empresa. Repetido, no cambia nada. 409 si el pago no está en disputa ni con contracargo, o no tiene el correo del conductor.", ok: {status: 200,type: "PaymentDto"}, errors: [404,409] }, output: dto<PaymentDto>() }),
  paymentUnblockDriver: endpoint({ method: "DELETE", path: "/Business/Payments/:id/BlockDriver", permission: "payment.block", audit: {resource: "payment",action: "unblock_driver"}, doc: { tag: "Pagos", summary: "Desbloquear al conductor de un pago: su correo vuelve a poder pagar en las páginas de QR. Sin bloqueo, no cambia nada.", ok: {status: 200,type: "PaymentDto"}, errors: [404] }, output: dto<PaymentDto>() }),
  invoiceList: endpoint({ method: "GET", path: "/Business/Invoice", permission: "invoice.read", query: invoiceListQuery, doc: { tag: "Facturación", summary: "Listar los comprobantes electrónicos (facturas A/B/C y notas de crédito) por período, tipo y estado (PENDING: esperan a ARCA; REJECTED: con el motivo de ARCA), con cuántos esperan", ok: {status: 200,type: "InvoicePage"}, errors: [422] }, output: dto<InvoicePage>() }),
  invoiceExportCsv: endpoint({ method: "GET", path: "/Business/Invoice/Export.csv", permission: "invoice.read", query: invoiceExportQuery, doc: { tag: "Facturación", summary: "Libro IVA Ventas del período: los comprobantes autorizados (fecha, tipo, punto de venta, número, receptor, neto, IVA, total, CAE; notas de crédito en negativo). CSV UTF-8 con BOM, separador ;", ok: {status: 200,description: "CSV",content: "text/csv"}, errors: [422] }, output: dto<string>() }),
  invoiceGet: endpoint({ method: "GET", path: "/Business/Invoice/:id", permission: "invoice.read", doc: { tag: "Facturación", summary: "Ver un comprobante (una factura mensual, con las cargas que cubre)", ok: {status: 200,type: "InvoiceDetailDto"}, errors: [404] }, output: dto<InvoiceDetailDto>() }),
  invoicePdf: endpoint({ method: "GET", path: "/Business/Invoice/:id/Pdf", permission: "invoice.read", doc: { tag: "Facturación", summary: "Descargar el PDF de un comprobante autorizado (con el QR fiscal de ARCA). 404 si no existe o todavía no tiene CAE", ok: {status: 200,description: "PDF",content: "application/pdf"}, errors: [404] }, output: dto<Blob>() }),
  invoiceRetry: endpoint({ method: "POST", path: "/Business/Invoice/:id/Retry", permission: "invoice.retry", audit: {resource: "invoice",action: "retry"}, doc: { tag: "Facturación", summary: "Volver a pedir a ARCA el CAE de un comprobante rechazado o pendiente, ahora. 409 si ya está autorizado", ok: {status: 200,type: "InvoiceDto"}, errors: [404,409] }, output: dto<InvoiceDto>() }),
  // Tarjetas RFID
  tagList: endpoint({ method: "GET", path: "/Business/Tag", permission: "tag.read", query: tagListQuery, doc: { tag: "Tarjetas RFID", summary: "Listar tarjetas RFID (buscar por idTag o titular)", ok: {status: 200,type: "Page<TagDto>"}, errors: [422] }, output: dto<Page<TagDto>>() }),
  tagCreate: endpoint({ method: "POST", path: "/Business/Tag", permission: "tag.write", audit: {resource: "tag",action: "create",id: "response"}, body: tagInputSchema, doc: { tag: "Tarjetas RFID", summary: "Crear tarjeta (idTag único en la empresa, sin distinguir mayúsculas)", ok: {status: 201,type: "TagDto"}, errors: [409,422] }, output: dto<TagDto>() }),
  tagExportCsv: endpoint({ method: "GET", path: "/Business/Tag/Export.csv", permission: "tag.read", doc: { tag: "Tarjetas RFID", summary: "Exportar las tarjetas (CSV UTF-8 con BOM, separador ;: idTag;titular;email;vencimiento;bloqueada;grupo)", ok: {status: 200,description: "CSV",content: "text/csv"} }, output: dto<string>() }),
  tagImport: endpoint({ method: "POST", path: "/Business/Tag/Import", permission: "tag.write", audit: "handler", csv: true, doc: { tag: "Tarjetas RFID", summary: "Importar tarjetas desde un CSV (text/csv, hasta 1 MB y 5000 filas): todo o nada; los idTag existentes se actualizan; 422 con errores por fila (`rows[<línea>]`)", ok: {status: 200,type: "TagImportDto"}, errors: [413,415,422] }, output: dto<TagImportDto>() }),
  tagGet: endpoint({ method: "GET", path: "/Business/Tag/:id", permission: "tag.read", doc: { tag: "Tarjetas RFID", summary: "Ver tarjeta", ok: {status: 200,type: "TagDto"}, errors: [404] }, output: dto<TagDto>() }),
  tagUpdate: endpoint({ method: "PUT", path: "/Business/Tag/:id", permission: "tag.write", audit: {resource: "tag",action: "update"}, body: tagInputSchema, doc: { tag: "Tarjetas RFID", summary: "Editar tarjeta", ok: {status: 200,type: "TagDto"}, errors: [404,409,422] }, output: dto<TagDto>() }),
  tagDelete: endpoint({ method: "DELETE", path: "/Business/Tag/:id", permission: "tag.write", audit: {resource: "tag",action: "delete"}, doc: { tag: "Tarjetas RFID", summary: "Eliminar tarjeta", ok: {status: 204}, errors: [404] }, output: dto<void>() }),
  // Grupos de acceso
  accessGroupList: endpoint({ method: "GET", path: "/Business/AccessGroup", permission: "tag.read", query: accessGroupListQuery, doc: { tag: "Grupos de acceso", summary: "Listar grupos de acceso", ok: {status: 200,type: "Page<AccessGroupDto>"}, errors: [422] }, output: dto<Page<AccessGroupDto>>() }),
  accessGroupCreate: endpoint({ method: "POST", path: "/Business/AccessGroup", permission: "tag.write", audit: {resource: "access_group",action: "create",id: "response"}, body: accessGroupInputSchema, doc: { tag: "Grupos de acceso", summary: "Crear grupo (estaciones permitidas y tarifa propia opcional; la tarifa pide rate.write)", ok: {status: 201,type: "AccessGroupDto"}, errors: [409,422] }, output: dto<AccessGroupDto>() }),
  accessGroupGet: endpoint({ method: "GET", path: "/Business/AccessGroup/:id", permission: "tag.read", doc: { tag: "Grupos de acceso", summary: "Ver grupo", ok: {status: 200,type: "AccessGroupDto"}, errors: [404] }, output: dto<AccessGroupDto>() }),
  accessGroupUpdate: endpoint({ method: "PUT", path: "/Business/AccessGroup/:id", permission: "tag.write", audit: {resource: "access_group",action: "update"}, body: accessGroupInputSchema, doc: { tag: "Grupos de acceso", summary: "Editar grupo", ok: {status: 200,type: "AccessGroupDto"}, errors: [404,409,422] }, output: dto<AccessGroupDto>() }),
  accessGroupDelete: endpoint({ method: "DELETE", path: "/Business/AccessGroup/:id", permission: "tag.write", audit: {resource: "access_group",action: "delete"}, doc: { tag: "Grupos de acceso", summary: "Eliminar grupo (sin tarjetas)", ok: {status: 204}, errors: [404,409] }, output: dto<void>() }),
  // Reservas
  reservationList: endpoint({ method: "GET", path: "/Business/Reservation", permission: "charger.read", query: reservationListQuery, doc: { tag: "Reservas", summary: "Listar reservas (más nuevas primero; filtrar por estación, cargador o estado: ACTIVE, USED, EXPIRED, CANCELLED, REFUSED)", ok: {status: 200,type: "Page<ReservationDto>"}, errors: [422] }, output: dto<Page<ReservationDto>>() }),
  reservationCreate: endpoint({ method: "POST", path: "/Business/Reservation", permission: "charger.command", audit: {resource: "reservation",action: "create",id: "response",details: {response: ["status","chargerStatus","message"]}}, body: reservationInputSchema, doc: { tag: "Reservas", summary: "Reservar un conector para una tarjeta hasta la hora indicada (ReserveNow en 1.6 y 2.0.1, hasta 24 h). 201 con el estado que quedó: ACTIVE si el cargador la aceptó, REFUSED si no (chargerStatus dice por qué). Si vence sin uso se cobra el cargo por no presentarse de la tarifa del conector.", ok: {status: 201,type: "ReservationResultDto"}, errors: [409,422] }, output: dto<ReservationResultDto>() }),
  reservationGet: endpoint({ method: "GET", path: "/Business/Reservation/:id", permission: "charger.read", doc: { tag: "Reservas", summary: "Ver reserva", ok: {status: 200,type: "ReservationDto"}, errors: [404] }, output: dto<ReservationDto>() }),
  reservationDelete: endpoint({ method: "DELETE", path: "/Business/Reservation/:id", permission: "charger.command", audit: {resource: "reservation",action: "cancel",details: {response: ["status","message"]}}, doc: { tag: "Reservas", summary: "Cancelar una reserva activa (CancelReservation al cargador si está conectado); sin cargo", ok: {status: 200,type: "ReservationResultDto"}, errors: [404,409] }, output: dto<ReservationResultDto>() }),
  // Equipo
  memberList: endpoint({ method: "GET", path: "/Business/Member", permission: "member.read", doc: { tag: "Equipo", summary: "Miembros de la empresa con su rol y último ingreso", ok: {status: 200,description: "{ items: MemberDto[] }"} }, output: dto<{ items: MemberDto[] }>() }),
  memberJoin: endpoint({ method: "POST", path: "/Business/Member", permission: "account", audit: "handler", body: invitationTokenSchema, doc: { tag: "Equipo", summary: "Unirse a una empresa con el código de una invitación (cualquier cuenta verificada con el correo invitado)", ok: {status: 201,type: "JoinedDto"}, errors: [404,410,422] }, output: dto<JoinedDto>() }),
  memberUpdate: endpoint({ method: "PATCH", path: "/Business/Member/:id", permission: "member.write", audit: {resource: "member",action: "update"}, body: memberPatchSchema, doc: { tag: "Equipo", summary: "Cambiar el rol de un miembro; con role OWNER, el dueño transfiere la propiedad (y queda como administrador)", ok: {status: 200,type: "MemberDto"}, errors: [404,409,422] }, output: dto<MemberDto>() }),
  memberDelete: endpoint({ method: "DELETE", path: "/Business/Member/:id", permission: "member.write", audit: {resource: "member",action: "remove"}, doc: { tag: "Equipo", summary: "Quitar un miembro (sus sesiones terminan en su próxima solicitud)", ok: {status: 204}, errors: [404] }, output: dto<void>() }),
  invitationList: endpoint({ method: "GET", path: "/Business/Invitation", permission: "member.read", doc: { tag: "Equipo", summary: "Invitaciones pendientes", ok: {status: 200,description: "{ items: InvitationDto[] }"} }, output: dto<{ items: InvitationDto[] }>() }),
  invitationCreate: endpoint({ method: "POST", path: "/Business/Invitation", permission: "member.write", audit: {resource: "invitation",action: "create",id: "response"}, body: invitationInputSchema, doc: { tag: "Equipo", summary: "Invitar por correo con un rol (enlace firmado, de un solo uso, vence en 7 días)", ok: {status: 201,type: "InvitationDto"}, errors: [409,422,502] }, output: dto<InvitationDto>() }),
  invitationResend: endpoint({ method: "POST", path: "/Business/Invitation/:id/Resend", permission: "member.write", audit: {resource: "invitation",action: "resend"}, doc: { tag: "Equipo", summary: "Reenviar una invitación (enlace nuevo; el anterior deja de valer)", ok: {status: 200,type: "InvitationDto"}, errors: [404,502] }, output: dto<InvitationDto>() }),
  invitationDelete: endpoint({ method: "DELETE", path: "/Business/Invitation/:id", permission: "member.write", audit: {resource: "invitation",action: "revoke"}, doc: { tag: "Equipo", summary: "Revocar una invitación", ok: {status: 204}, errors: [404] }, output: dto<void>() }),
  invitationLookup: endpoint({ method: "POST", path: "/Invitation/Lookup", permission: "public", body: invitationTokenSchema, doc: { tag: "Equipo", summary: "Qué ofrece el enlace de una invitación (empresa, rol, correo, estado)", ok: {status: 200,type: "InvitationPreviewDto"}, errors: [404,422] }, output: dto<InvitationPreviewDto>() }),
  // Roaming
  roamingGet: endpoint({ method: "GET", path: "/Business/Roaming", permission: "roaming.read", doc: { tag: "Roaming", summary: "País, party id OCPI y URL de versiones para los socios", ok: {status: 200,type: "RoamingSettingsDto"} }, output: dto<RoamingSettingsDto>() }),
  roamingUpdate: endpoint({ method: "PUT", path: "/Business/Roaming", permission: "roaming.write", audit: {resource: "profile",action: "update",id: "company"}, body: roamingSettingsSchema, doc: { tag: "Roaming", summary: "Configurar el party id OCPI (3 letras o números; país AR)", ok: {status: 200,type: "RoamingSettingsDto"}, errors: [422] }, output: dto<RoamingSettingsDto>() }),
  roamingPartnerList: endpoint({ method: "GET", path: "/Business/Roaming/Partner", permission: "roaming.read", query: roamingPartnerListQuery, doc: { tag: "Roaming", summary: "Listar socios de roaming con su estado (más nuevos primero)", ok: {status: 200,type: "Page<RoamingPartnerDto>"}, errors: [422] }, output: dto<Page<RoamingPartnerDto>>() }),
  roamingPartnerCreate: endpoint({ method: "POST", path: "/Business/Roaming/Partner", permission: "roaming.write", audit: {resource: "roaming_partner",action: "create",id: "response"}, body: roamingPartnerInputSchema, doc: { tag: "Roaming", summary: "Agregar un socio: sin datos, una invitación (la URL de versiones y el token A, que se muestra una sola vez); con la URL de versiones y el token del socio, el registro con él", ok: {status: 201,type: "RoamingPartnerCreatedDto"}, errors: [422] }, output: dto<RoamingPartnerCreatedDto>() }),
  roamingPartnerDelete: endpoint({ method: "DELETE", path: "/Business/Roaming/Partner/:id", permission: "roaming.write", audit: {resource: "roaming_partner",action: "delete"}, doc: { tag: "Roaming", summary: "Dar de baja un socio (se le avisa con DELETE en su módulo de credenciales)", ok: {status: 204}, errors: [404] }, output: dto<void>() }),
  roamingStationList: endpoint({ method: "GET", path: "/Business/Roaming/Station", permission: "roaming.read", query: roamingStationListQuery, doc: { tag: "Roaming", summary: "Estaciones y si están publicadas en roaming", ok: {status: 200,type: "Page<RoamingStationDto>"}, errors: [422] }, output: dto<Page<RoamingStationDto>>() }),
  roamingStationUpdate: endpoint({ method: "PUT", path: "/Business/Roaming/Station/:id", permission: "roaming.write", audit: {resource: "station",action: "roaming"}, body: roamingStationSchema, doc: { tag: "Roaming", summary: "Publicar o no una estación en roaming", ok: {status: 200,type: "RoamingStationDto"}, errors: [404,422] }, output: dto<RoamingStationDto>() }),
  // Auditoría
  auditList: endpoint({ method: "GET", path: "/Business/Audit", permission: "audit.read", query: auditExportQuery, doc: { tag: "Auditoría", summary: "Registro de cambios de la empresa (más nuevos primero)", ok: {status: 200,type: "AuditPage"}, errors: [422] }, output: dto<AuditPage>() }),
  auditExportCsv: endpoint({ method: "GET", path: "/Business/Audit/Export.csv", permission: "audit.read", query: auditExportQuery, doc: { tag: "Auditoría", summary: "Exportar el registro de cambios (CSV UTF-8 con BOM, separador ;)", ok: {status: 200,description: "CSV",content: "text/csv"}, errors: [422] }, output: dto<string>() }),
  // En vivo
  liveStream: endpoint({ method: "GET", path: "/Business/Live", permission: "live.read", doc: { tag: "En vivo", summary: "Eventos del servidor (text/event-stream): qué cambió (cargador, conector, carga) para recargar la página", ok: {status: 200,description: "Stream SSE de eventos `change` con `{ kind }`",content: "text/event-stream"} }, output: dto<string>() }),
  // Conductores
  driverChargeGet: endpoint({ method: "GET", path: "/Driver/Charge/:identity/:connector", permission: "public", doc: { tag: "Conductores", summary: "Lo que muestra el QR de un conector: estación, conector, estado, tarifa, medios de pago y por qué no se puede cargar", ok: {status: 200,type: "ChargePointInfo"}, errors: [404] }, output: dto<ChargePointInfo>() }),
  driverChargeCreate: endpoint({ method: "POST", path: "/Driver/Charge/:identity/:connector", permission: "public", body: driverCheckoutSchema, doc: { tag: "Conductores", summary: "Pagar por adelantado una carga: un pago por clave del formulario (requestKey), con la dirección del checkout del proveedor", ok: {status: 201,description: "{ paymentId, token, checkoutUrl } (200 si la misma clave ya creó el pago)"}, errors: [404,409,422,502] }, output: dto<{ paymentId: string; token: string; checkoutUrl: string }>() }),
  driverPaymentGet: endpoint({ method: "GET", path: "/Driver/Payment/:id", permission: "public", query: driverPaymentQuery, doc: { tag: "Conductores", summary: "El estado de un pago con QR y su carga (con ?t= el secreto del enlace)", ok: {status: 200,type: "PaymentView"}, errors: [404] }, output: dto<PaymentView>() }),
  driverPaymentInvoicePdf: endpoint({ method: "GET", path: "/Driver/Payment/:id/Invoice/Pdf", permission: "public", query: driverPaymentQuery, doc: { tag: "Conductores", summary: "El PDF de la factura autorizada de un pago con QR (con ?t= el secreto del enlace). 404 sin el secreto, o mientras la factura no tiene CAE", ok: {status: 200,description: "PDF",content: "application/pdf"}, errors: [404] }, output: dto<Blob>() }),
  driverPaymentStop: endpoint({ method: "POST", path: "/Driver/Payment/:id/Stop", permission: "public", body: driverTokenSchema, doc: { tag: "Conductores", summary: "Detener la carga (con el secreto del enlace)", ok: {status: 200,description: "{ ok, message }"}, errors: [409,422] }, output: dto<{ ok: boolean; message: string }>() }),
  webhookMercadoPago: endpoint({ method: "POST", path: "/Webhook/MercadoPago/:businessId", permission: "public", doc: { tag: "Conductores", summary: "Notificación de Mercado Pago (data.id y type, o topic e id en formato IPN, en la URL): el pago se vuelve a leer de Mercado Pago; una x-signature HMAC-SHA256 incorrecta se rechaza (401), una ausente o vieja no", ok: {status: 200,description: "{ received }"}, errors: [400,401] }, output: dto<{ received: boolean }>() }),
  webhookPagos360: endpoint({ method: "POST", path: "/Webhook/Pagos360/:businessId", permission: "public", doc: { tag: "Conductores", summary: "Notificación de Pagos360 (la solicitud de pago se vuelve a leer de Pagos360 antes de creerla)", ok: {status: 200,description: "{ received }"}, errors: [400] }, output: dto<{ received: boolean }>() }),
  // Contrato
  openapiJson: endpoint({ method: "GET", path: "/openapi.json", permission: "public", doc: { tag: "Contrato", summary: "Este documento", ok: {status: 200,description: "OpenAPI 3.1"} }, output: dto<Record<string, unknown>>() }),
};

export type EndpointName = keyof typeof endpoints;
