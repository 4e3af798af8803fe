// Maps service helpers (spec §2 "Shared inputs", DESIGN.md §6). Pure and browser-safe: the
// loader with its retries takes its DOM pieces as arguments so it can be unit-tested, and the
// coordinate rules are shared by the plain fields, the map and the server.

/** Libraries the Maps JavaScript API is loaded with (spec §2). */
export const MAPS_LIBRARIES = ["places", "maps", "geometry", "marker", "geocoding"] as const;

/** Spec §9: 3 retries with growing delays (after the first attempt fails). */
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

// ---------------------------------------------------------------------------------------------
// Retries

export interface RetryOptions {
  delays?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry with its number (1…) and the delay about to be waited. */
  onRetry?: (retry: number, delayMs: number, error: unknown) => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Run `attempt`; when it fails, wait each delay in turn and try again. With the default delays
 * that is 1 attempt + 3 retries (1 s, 2 s, 4 s). The last error is thrown when all fail.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const delays = options.delays ?? MAPS_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? realSleep;
  let lastError: unknown;
  for (let n = 0; n <= delays.length; n++) {
    if (n > 0) {
      options.onRetry?.(n, delays[n - 1], lastError);
      await sleep(delays[n - 1]);
    }
    try {
      return await attempt(n);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

// ---------------------------------------------------------------------------------------------
// The Maps JavaScript API bootstrap, with retries. Once `google.maps.importLibrary` exists,
// @vis.gl/react-google-maps' APIProvider uses it instead of loading the API again.

export function mapsScriptUrl(apiKey: string, callbackName: string, opts: { language?: string; region?: string } = {}): string {
  const params = new URLSearchParams({
    key: apiKey,
    v: "weekly",
    libraries: MAPS_LIBRARIES.join(","),
    language: opts.language ?? "es-419",
    region: opts.region ?? "AR",
    loading: "async",
    callback: callbackName,
  });
  return `https://maps.googleapis.com/maps/api/js?${params}`;
}

type MapsWindow = { google?: { maps?: { importLibrary?: unknown } & Record<string, unknown> } } & Record<string, unknown>;

export interface ScriptHost {
  window: MapsWindow;
  /** Append a <script src> (with the page's CSP nonce); report its load error. */
  appendScript: (src: string, onError: (error: Error) => void) => { remove: () => void };
}

const CALLBACK = "__enchufaMapsReady";

/** One attempt: inject the script and wait for its callback (or an error, or `timeoutMs`). */
export function loadMapsOnce(host: ScriptHost, apiKey: string, timeoutMs = 15_000): Promise<void> {
  if (host.window.google?.maps?.importLibrary) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const handle: { script?: { remove: () => void } } = {};
    const fail = (error: Error) => {
      clearTimeout(timer);
      delete host.window[CALLBACK];
      handle.script?.remove();
      // A half-initialised namespace would make the next attempt (and APIProvider) believe the
      // API is there.
      if (host.window.google && !host.window.google.maps?.importLibrary) delete host.window.google;
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error("El mapa tardó demasiado en cargar.")), timeoutMs);
    host.window[CALLBACK] = () => {
      clearTimeout(timer);
      delete host.window[CALLBACK];
      if (host.window.google?.maps?.importLibrary) resolve();
      else fail(new Error("El servicio de mapas respondió sin importLibrary."));
    };
    handle.script = host.appendScript(mapsScriptUrl(apiKey, CALLBACK), fail);
  });
}

let shared: Promise<void> | undefined;

/** Load the Maps API once per page, retrying with growing delays; rejects after the last retry. */
export function loadGoogleMaps(host: ScriptHost, apiKey: string, options: RetryOptions & { timeoutMs?: number } = {}): Promise<void> {
  if (!shared) {
    shared = withRetries(() => loadMapsOnce(host, apiKey, options.timeoutMs), options);
    // A failed page can try again later (e.g. after navigating back to the form).
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

/** For tests. */
export function resetMapsLoader() {
  shared = undefined;
}

/** The real browser host: a <script> carrying the page's CSP nonce. */
export function browserScriptHost(): ScriptHost {
  return {
    window: window as unknown as MapsWindow,
    appendScript(src, onError) {
      const script = document.createElement("script");
      script.src = src;
      script.async = true;
      const nonce = (document.querySelector("script[nonce]") as HTMLScriptElement | null)?.nonce;
      if (nonce) script.nonce = nonce;
      script.onerror = () => onError(new Error("No se pudo descargar el servicio de mapas."));
      document.head.append(script);
      return { remove: () => script.remove() };
    },
  };
}
