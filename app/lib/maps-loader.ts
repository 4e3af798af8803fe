// The Maps JavaScript API loader (retries with growing delays). Only the map component,
// itself loaded lazily, imports this: the forms' first load carries just the coordinate rules
// of maps.ts (JS budget).
import { MAPS_LIBRARIES, MAPS_RETRY_DELAYS_MS } from "./maps";

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
