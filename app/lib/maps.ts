// Maps service helpers. Pure and browser-safe: the
// loader with its retries takes its DOM pieces as arguments so it can be unit-tested, and the
// coordinate rules are shared by the plain fields, the map and the server.

/** Libraries the Maps JavaScript API is loaded with. */
export const MAPS_LIBRARIES = ["places", "maps", "geometry", "marker", "geocoding"] as const;

/** 3 retries with growing delays (after the first attempt fails). */
export const MAPS_RETRY_DELAYS_MS = [1000, 2000, 4000] as const;

/**
 * Advanced markers need a map id. Google's DEMO_MAP_ID works everywhere; set your own cloud
 * map style by replacing it.
 */
export const MAP_ID = "DEMO_MAP_ID";

/** Where a new station's map starts: the Obelisco, Buenos Aires. */
export const DEFAULT_CENTER = { lat: -34.6037, lng: -58.3816 } as const;

export const MAPS_FAILED_NOTICE =
  "No pudimos cargar el mapa. Ingresá la dirección, la latitud y la longitud a mano; se guardan igual.";

export const OUTSIDE_ARGENTINA_WARNING =
  "Las coordenadas quedan fuera de Argentina. Revisalas: podés guardar igual si son correctas.";

export const LATITUDE_RANGE_MESSAGE = "La latitud debe estar entre -90 y 90.";
export const LONGITUDE_RANGE_MESSAGE = "La longitud debe estar entre -180 y 180.";

/** Argentina's continental and insular territory (Antarctic sector excluded). */
export const ARGENTINA_BOUNDS = { south: -55.2, north: -21.7, west: -73.7, east: -53.5 } as const;

export interface LatLng {
  lat: number;
  lng: number;
}

/** A coordinate typed by a person: "−34,6037", "-34.6037", " -34.6 ". NaN when it is not a number. */
export function parseCoordinate(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return Number.NaN;
  const text = value.trim().replace(/\u2212/g, "-").replace(",", ".");
  if (text === "" || !/^[-+]?\d+(\.\d+)?$/.test(text)) return Number.NaN;
  return Number(text);
}

export function isValidLatitude(lat: number): boolean {
  return Number.isFinite(lat) && lat >= -90 && lat <= 90;
}

export function isValidLongitude(lng: number): boolean {
  return Number.isFinite(lng) && lng >= -180 && lng <= 180;
}

/** A position the map may take: both coordinates finite and in range; anything else is rejected. */
export function validPosition(lat: unknown, lng: unknown): LatLng | null {
  const la = parseCoordinate(lat);
  const ln = parseCoordinate(lng);
  return isValidLatitude(la) && isValidLongitude(ln) ? { lat: la, lng: ln } : null;
}

export function isInArgentina({ lat, lng }: LatLng): boolean {
  const b = ARGENTINA_BOUNDS;
  return lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east;
}

/** Seven decimals (about 1 cm) are enough for a station; keeps the fields readable. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e7) / 1e7;
}
