// OCPI 2.2.1 objects as zod schemas, written from the specification (github.com/ocpi/ocpi,
// branch release-2.2.1-bugfixes). Each schema names the section it follows. They validate what
// partners send us (credentials, versions, tokens, commands) and, in the tests, everything we send.
import { z } from "zod";
import { CONNECTOR_FORMATS, PARKING_TYPES, POWER_TYPES } from "../contract/schemas/constants";
import { parseOcpiDateTime } from "./envelope";

// types.asciidoc — basic types -----------------------------------------------------------------

/** types.asciidoc §CiString: case-insensitive ASCII, at most `max` characters. */
export const ciString = (max: number) => z.string().max(max).regex(/^[\x20-\x7E]*$/, "ASCII printable");
/** types.asciidoc §string: UTF-8, at most `max` characters. */
export const ocpiString = (max: number) => z.string().max(max);
/**
 * types.asciidoc §DateTime: RFC 3339, UTC; we send `Z` always (ocpiDateTime). What partners send
 * is read liberally (ocpi/envelope.ts parseOcpiDateTime): a space for the `T`, microseconds, an
 * offset or no zone are accepted, and logged where they are read.
 */
export const dateTime = z.string().refine((v) => parseOcpiDateTime(v) !== null, "DateTime");
/** types.asciidoc §URL. */
export const url = z.string().max(255).url();
/** types.asciidoc §DisplayText. */
export const displayText = z.object({ language: z.string().length(2), text: ocpiString(512) });
/** types.asciidoc §Price: excl_vat, incl_vat?. */
export const price = z.object({ excl_vat: z.number(), incl_vat: z.number().optional() });
/** types.asciidoc §Role. */
export const role = z.enum(["CPO", "EMSP", "HUB", "NAP", "NSP", "OTHER", "SCSP"]);

/** transport_and_format.asciidoc §Response format: the envelope of every answer. */
export const envelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    data: data.optional(),
    status_code: z.number().int().min(1000).max(4999),
    status_message: z.string().optional(),
    timestamp: dateTime,
  });

// version_information_endpoint.asciidoc --------------------------------------------------------

/** §VersionNumber enum. */
export const versionNumber = z.enum(["2.0", "2.1", "2.1.1", "2.2", "2.2.1"]);
/** §Version class. Partners may list versions we do not know: kept as strings. */
export const version = z.object({ version: z.string(), url });
export const versionList = z.array(version).min(1);
/** §ModuleID enum. */
export const moduleId = z.enum([
  "cdrs",
  "chargingprofiles",
  "commands",
  "credentials",
  "hubclientinfo",
  "locations",
  "sessions",
  "tariffs",
  "tokens",
]);
/** §InterfaceRole enum. */
export const interfaceRole = z.enum(["SENDER", "RECEIVER"]);
/** §Endpoint class. Unknown module ids (custom modules) are allowed by the spec's note; kept as strings. */
export const endpoint = z.object({ identifier: z.string(), role: interfaceRole, url });
/** §Version details: version and its endpoints. */
export const versionDetails = z.object({ version: z.string(), endpoints: z.array(endpoint).min(1) });

// mod_locations.asciidoc §BusinessDetails, credentials.asciidoc -------------------------------

/** mod_locations.asciidoc §Image class. */
export const image = z.object({
  url,
  thumbnail: url.optional(),
  category: z.enum(["CHARGER", "ENTRANCE", "LOCATION", "NETWORK", "OPERATOR", "OTHER", "OWNER"]),
  type: ciString(4),
  width: z.number().int().max(99999).optional(),
  height: z.number().int().max(99999).optional(),
});
/** mod_locations.asciidoc §BusinessDetails class. */
export const businessDetails = z.object({ name: ocpiString(100), website: url.optional(), logo: image.optional() });
/** credentials.asciidoc §CredentialsRole class. */
export const credentialsRole = z.object({
  role,
  business_details: businessDetails,
  party_id: ciString(3),
  country_code: ciString(2),
});
/**
 * credentials.asciidoc §Credentials object. token: string(64) of printable non-whitespace
 * ASCII (U+0021–U+007E).
 */
export const credentials = z.object({
  token: z.string().min(1).max(64).regex(/^[\x21-\x7E]+$/, "printable non-whitespace ASCII"),
  url,
  roles: z.array(credentialsRole).min(1),
});
export type Credentials = z.infer<typeof credentials>;

// mod_locations.asciidoc ----------------------------------------------------------------------

/** §GeoLocation class: decimal degrees as strings with 5 to 7 decimals. */
export const geoLocation = z.object({
  latitude: z.string().max(10).regex(/^-?[0-9]{1,2}\.[0-9]{5,7}$/),
  longitude: z.string().max(11).regex(/^-?[0-9]{1,3}\.[0-9]{5,7}$/),
});
/** §ParkingType enum. */
export const parkingType = z.enum(PARKING_TYPES);
/** §ConnectorFormat enum: the same two values as ours. */
export const connectorFormat = z.enum(CONNECTOR_FORMATS);
/** §PowerType enum: ours plus the two-phase supplies no charger here has. */
export const powerType = z.enum([...POWER_TYPES, "AC_2_PHASE", "AC_2_PHASE_SPLIT"]);
/** §Status enum (of an EVSE). */
export const evseStatus = z.enum(["AVAILABLE", "BLOCKED", "CHARGING", "INOPERATIVE", "OUTOFORDER", "PLANNED", "REMOVED", "RESERVED", "UNKNOWN"]);
/** §Capability enum. */
export const capability = z.enum([
  "CHARGING_PROFILE_CAPABLE",
  "CHARGING_PREFERENCES_CAPABLE",
  "CHIP_CARD_SUPPORT",
  "CONTACTLESS_CARD_SUPPORT",
  "CREDIT_CARD_PAYABLE",
  "DEBIT_CARD_PAYABLE",
  "PED_TERMINAL",
  "REMOTE_START_STOP_CAPABLE",
  "RESERVABLE",
  "RFID_READER",
  "START_SESSION_CONNECTOR_REQUIRED",
  "TOKEN_GROUP_CAPABLE",
  "UNLOCK_CAPABLE",
]);
/** §ConnectorType enum (the codes of our connector_types catalog). */
export const connectorStandard = z.enum([
  "CHADEMO",
  "CHAOJI",
  "DOMESTIC_A",
  "DOMESTIC_B",
  "DOMESTIC_C",
  "DOMESTIC_D",
  "DOMESTIC_E",
  "DOMESTIC_F",
  "DOMESTIC_G",
  "DOMESTIC_H",
  "DOMESTIC_I",
  "DOMESTIC_J",
  "DOMESTIC_K",
  "DOMESTIC_L",
  "DOMESTIC_M",
  "DOMESTIC_N",
  "DOMESTIC_O",
  "GBT_AC",
  "GBT_DC",
  "IEC_60309_2_single_16",
  "IEC_60309_2_three_16",
  "IEC_60309_2_three_32",
  "IEC_60309_2_three_64",
  "IEC_62196_T1",
  "IEC_62196_T1_COMBO",
  "IEC_62196_T2",
  "IEC_62196_T2_COMBO",
  "IEC_62196_T3A",
  "IEC_62196_T3C",
  "NEMA_5_20",
  "NEMA_6_30",
  "NEMA_6_50",
  "NEMA_10_30",
  "NEMA_10_50",
  "NEMA_14_30",
  "NEMA_14_50",
  "PANTOGRAPH_BOTTOM_UP",
  "PANTOGRAPH_TOP_DOWN",
  "TESLA_R",
  "TESLA_S",
]);
/** §Connector object. */
export const connector = z.object({
  id: ciString(36),
  standard: connectorStandard,
  format: connectorFormat,
  power_type: powerType,
  max_voltage: z.number().int(),
  max_amperage: z.number().int(),
  max_electric_power: z.number().int().optional(),
  tariff_ids: z.array(ciString(36)).optional(),
  terms_and_conditions: url.optional(),
  last_updated: dateTime,
});
/** §EVSE object. */
export const evse = z.object({
  uid: ciString(36),
  evse_id: ciString(48).optional(),
  status: evseStatus,
  capabilities: z.array(capability).optional(),
  connectors: z.array(connector).min(1),
  floor_level: ocpiString(4).optional(),
  coordinates: geoLocation.optional(),
  physical_reference: ocpiString(16).optional(),
  directions: z.array(displayText).optional(),
  images: z.array(image).optional(),
  last_updated: dateTime,
});
/** §RegularHours and §Hours classes. */
const hhmm = z.string().regex(/^([0-1][0-9]|2[0-3]):[0-5][0-9]$/);
export const hours = z.object({
  twentyfourseven: z.boolean(),
  regular_hours: z.array(z.object({ weekday: z.number().int().min(1).max(7), period_begin: hhmm, period_end: hhmm })).optional(),
});
/** §Location object. */
export const location = z.object({
  country_code: ciString(2),
  party_id: ciString(3),
  id: ciString(36),
  publish: z.boolean(),
  name: ocpiString(255).optional(),
  address: ocpiString(45),
  city: ocpiString(45),
  postal_code: ocpiString(10).optional(),
  state: ocpiString(20).optional(),
  country: ocpiString(3),
  coordinates: geoLocation,
  parking_type: parkingType.optional(),
  evses: z.array(evse).optional(),
  operator: businessDetails.optional(),
  facilities: z.array(z.string()).optional(),
  time_zone: ocpiString(255),
  opening_times: hours.optional(),
  charging_when_closed: z.boolean().optional(),
  images: z.array(image).optional(),
  last_updated: dateTime,
});
export type Location = z.infer<typeof location>;
export type Evse = z.infer<typeof evse>;
export type Connector = z.infer<typeof connector>;

// mod_tariffs.asciidoc ------------------------------------------------------------------------

/** §TariffDimensionType enum. */
export const tariffDimensionType = z.enum(["ENERGY", "FLAT", "PARKING_TIME", "TIME"]);
/** §PriceComponent class: price excl. VAT per unit; vat a percentage; step_size in the dimension's step unit. */
export const priceComponent = z.object({
  type: tariffDimensionType,
  price: z.number().min(0),
  vat: z.number().min(0).optional(),
  step_size: z.number().int().min(1),
});
/** §TariffRestrictions class. */
export const tariffRestrictions = z.object({
  start_time: hhmm.optional(),
  end_time: hhmm.optional(),
  start_date: z.string().optional(),
  end_date: z.string().optional(),
  min_kwh: z.number().optional(),
  max_kwh: z.number().optional(),
  min_current: z.number().optional(),
  max_current: z.number().optional(),
  min_power: z.number().optional(),
  max_power: z.number().optional(),
  min_duration: z.number().int().optional(),
  max_duration: z.number().int().optional(),
  day_of_week: z.array(z.enum(["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"])).optional(),
  reservation: z.enum(["RESERVATION", "RESERVATION_EXPIRES"]).optional(),
});
/** §TariffElement class. */
export const tariffElement = z.object({ price_components: z.array(priceComponent).min(1), restrictions: tariffRestrictions.optional() });
/** §Tariff object. */
export const tariff = z.object({
  country_code: ciString(2),
  party_id: ciString(3),
  id: ciString(36),
  currency: z.string().length(3),
  type: z.enum(["AD_HOC_PAYMENT", "PROFILE_CHEAP", "PROFILE_FAST", "PROFILE_GREEN", "REGULAR"]).optional(),
  tariff_alt_text: z.array(displayText).optional(),
  tariff_alt_url: url.optional(),
  min_price: price.optional(),
  max_price: price.optional(),
  elements: z.array(tariffElement).min(1),
  start_date_time: dateTime.optional(),
  end_date_time: dateTime.optional(),
  last_updated: dateTime,
});
export type Tariff = z.infer<typeof tariff>;
export type TariffElement = z.infer<typeof tariffElement>;
export type PriceComponent = z.infer<typeof priceComponent>;

// mod_tokens.asciidoc, mod_cdrs.asciidoc ------------------------------------------------------

/** mod_tokens.asciidoc §TokenType enum. */
export const tokenType = z.enum(["AD_HOC_USER", "APP_USER", "OTHER", "RFID"]);
/** mod_cdrs.asciidoc §AuthMethod enum. */
export const authMethod = z.enum(["AUTH_REQUEST", "COMMAND", "WHITELIST"]);
/** mod_cdrs.asciidoc §CdrToken class. */
export const cdrToken = z.object({
  country_code: ciString(2),
  party_id: ciString(3),
  uid: ciString(36),
  type: tokenType,
  contract_id: ciString(36),
});
/** mod_cdrs.asciidoc §CdrDimensionType enum. */
export const cdrDimensionType = z.enum([
  "CURRENT",
  "ENERGY",
  "ENERGY_EXPORT",
  "ENERGY_IMPORT",
  "MAX_CURRENT",
  "MIN_CURRENT",
  "MAX_POWER",
  "MIN_POWER",
  "PARKING_TIME",
  "POWER",
  "RESERVATION_TIME",
  "STATE_OF_CHARGE",
  "TIME",
]);
/** mod_cdrs.asciidoc §CdrDimension class. */
export const cdrDimension = z.object({ type: cdrDimensionType, volume: z.number() });
/** mod_cdrs.asciidoc §ChargingPeriod class: a period ends when the next one starts. */
export const chargingPeriod = z.object({ start_date_time: dateTime, dimensions: z.array(cdrDimension).min(1), tariff_id: ciString(36).optional() });
/** mod_cdrs.asciidoc §CdrLocation class. */
export const cdrLocation = z.object({
  id: ciString(36),
  name: ocpiString(255).optional(),
  address: ocpiString(45),
  city: ocpiString(45),
  postal_code: ocpiString(10).optional(),
  state: ocpiString(20).optional(),
  country: ocpiString(3),
  coordinates: geoLocation,
  evse_uid: ciString(36),
  evse_id: ciString(48),
  connector_id: ciString(36),
  connector_standard: connectorStandard,
  connector_format: connectorFormat,
  connector_power_type: powerType,
});
/** mod_cdrs.asciidoc §CDR object. */
export const cdr = z.object({
  country_code: ciString(2),
  party_id: ciString(3),
  id: ciString(39),
  start_date_time: dateTime,
  end_date_time: dateTime,
  session_id: ciString(36).optional(),
  cdr_token: cdrToken,
  auth_method: authMethod,
  authorization_reference: ciString(36).optional(),
  cdr_location: cdrLocation,
  meter_id: ocpiString(255).optional(),
  currency: z.string().length(3),
  tariffs: z.array(tariff).optional(),
  charging_periods: z.array(chargingPeriod).min(1),
  total_cost: price,
  total_fixed_cost: price.optional(),
  total_energy: z.number(),
  total_energy_cost: price.optional(),
  total_time: z.number(),
  total_time_cost: price.optional(),
  total_parking_time: z.number().optional(),
  total_parking_cost: price.optional(),
  total_reservation_cost: price.optional(),
  remark: ocpiString(255).optional(),
  invoice_reference_id: ciString(39).optional(),
  credit: z.boolean().optional(),
  credit_reference_id: ciString(39).optional(),
  home_charging_compensation: z.boolean().optional(),
  last_updated: dateTime,
});
export type Cdr = z.infer<typeof cdr>;
export type CdrToken = z.infer<typeof cdrToken>;

/** mod_tokens.asciidoc §Token object (as a START_SESSION carries it). */
export const token = z.object({
  country_code: ciString(2),
  party_id: ciString(3),
  uid: ciString(36),
  type: tokenType,
  contract_id: ciString(36),
  visual_number: ocpiString(64).optional(),
  issuer: ocpiString(64),
  group_id: ciString(36).optional(),
  valid: z.boolean(),
  whitelist: z.enum(["ALWAYS", "ALLOWED", "ALLOWED_OFFLINE", "NEVER"]),
  language: z.string().length(2).optional(),
  default_profile_type: z.enum(["CHEAP", "FAST", "GREEN", "REGULAR"]).optional(),
  energy_contract: z.object({ supplier_name: ocpiString(64), contract_id: ocpiString(64).optional() }).optional(),
  last_updated: dateTime,
});

// mod_commands.asciidoc -----------------------------------------------------------------------

/** §CommandType enum. */
export const commandType = z.enum(["CANCEL_RESERVATION", "RESERVE_NOW", "START_SESSION", "STOP_SESSION", "UNLOCK_CONNECTOR"]);
/** §StartSession object. */
export const startSession = z.object({
  response_url: url,
  token,
  location_id: ciString(36),
  evse_uid: ciString(36).optional(),
  connector_id: ciString(36).optional(),
  authorization_reference: ciString(36).optional(),
});
/** §StopSession object. */
export const stopSession = z.object({ response_url: url, session_id: ciString(36) });
/** §UnlockConnector object. */
export const unlockConnector = z.object({ response_url: url, location_id: ciString(36), evse_uid: ciString(36), connector_id: ciString(36) });
/** §CommandResponse object: the immediate answer. */
export const commandResponse = z.object({
  result: z.enum(["NOT_SUPPORTED", "REJECTED", "ACCEPTED", "UNKNOWN_SESSION"]),
  timeout: z.number().int(),
  message: z.array(displayText).optional(),
});
/** §CommandResult object: posted later to response_url. */
export const commandResult = z.object({
  result: z.enum(["ACCEPTED", "CANCELED_RESERVATION", "EVSE_OCCUPIED", "EVSE_INOPERATIVE", "FAILED", "NOT_SUPPORTED", "REJECTED", "TIMEOUT", "UNKNOWN_RESERVATION"]),
  message: z.array(displayText).optional(),
});
export type CommandResponse = z.infer<typeof commandResponse>;
export type CommandResultBody = z.infer<typeof commandResult>;

// mod_sessions.asciidoc -------------------------------------------------------------------------

/** §SessionStatus enum. */
export const sessionStatus = z.enum(["ACTIVE", "COMPLETED", "INVALID", "PENDING", "RESERVATION"]);
/** §Session object. */
export const session = z.object({
  country_code: ciString(2),
  party_id: ciString(3),
  id: ciString(36),
  start_date_time: dateTime,
  end_date_time: dateTime.optional(),
  kwh: z.number(),
  cdr_token: cdrToken,
  auth_method: authMethod,
  authorization_reference: ciString(36).optional(),
  location_id: ciString(36),
  evse_uid: ciString(36),
  connector_id: ciString(36),
  meter_id: ocpiString(255).optional(),
  currency: z.string().length(3),
  charging_periods: z.array(chargingPeriod).optional(),
  total_cost: price.optional(),
  status: sessionStatus,
  last_updated: dateTime,
});
export type OcpiSession = z.infer<typeof session>;

/** mod_tokens.asciidoc §LocationReferences class. */
export const locationReferences = z.object({ location_id: ciString(36), evse_uids: z.array(ciString(36)).optional() });
/** mod_tokens.asciidoc §AuthorizationInfo object: the eMSP's real-time answer. */
export const authorizationInfo = z.object({
  allowed: z.enum(["ALLOWED", "BLOCKED", "EXPIRED", "NO_CREDIT", "NOT_ALLOWED"]),
  token,
  location: locationReferences.optional(),
  authorization_reference: ciString(36).optional(),
  info: displayText.optional(),
});
export type AuthorizationInfo = z.infer<typeof authorizationInfo>;
export type OcpiToken = z.infer<typeof token>;
