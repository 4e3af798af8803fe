// A station's parking types, weekdays, time zones and coordinate messages, without zod and apart
// from ./constants, which re-exports them: the station screens import only these (JS budget).
// contract/schemas/station.ts re-exports them.

export const PARKING_TYPES = ["ALONG_MOTORWAY", "PARKING_GARAGE", "PARKING_LOT", "ON_DRIVEWAY", "ON_STREET", "UNDERGROUND_GARAGE"] as const;
/** OCPI's ParkingType, the same values. */
export type ParkingType = (typeof PARKING_TYPES)[number];

export const PARKING_TYPE_LABELS: Record<ParkingType, string> = {
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

