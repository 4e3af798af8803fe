// The maps helpers: coordinate rules and the loader's retries with growing delays.
import { afterEach, describe, expect, it, vi } from "vitest";
import { isInArgentina, MAPS_LIBRARIES, MAPS_RETRY_DELAYS_MS, parseCoordinate, roundCoordinate, validPosition } from "~/lib/maps";
import { loadGoogleMaps, loadMapsOnce, mapsScriptUrl, resetMapsLoader, withRetries, type ScriptHost } from "~/lib/maps-loader";

describe("coordinates", () => {
  it("parses what people type: comma or dot, minus signs, spaces", () => {
    expect(parseCoordinate("-34,6037")).toBe(-34.6037);
    expect(parseCoordinate(" -58.3816 ")).toBe(-58.3816);
    expect(parseCoordinate("\u221234.5")).toBe(-34.5);
    expect(parseCoordinate("+12")).toBe(12);
    expect(parseCoordinate(-1.5)).toBe(-1.5);
    for (const bad of ["", "abc", "1e5", "--3", "3,4,5", null, undefined, {}]) expect(parseCoordinate(bad)).toBeNaN();
  });

  it("rejects out-of-range or non-finite positions", () => {
    expect(validPosition("-34.6", "-58.4")).toEqual({ lat: -34.6, lng: -58.4 });
    expect(validPosition(90, 180)).toEqual({ lat: 90, lng: 180 });
    expect(validPosition(-90, -180)).toEqual({ lat: -90, lng: -180 });
    expect(validPosition(90.0001, 0)).toBeNull();
    expect(validPosition(0, -180.5)).toBeNull();
    expect(validPosition(Number.NaN, 0)).toBeNull();
    expect(validPosition(Number.POSITIVE_INFINITY, 0)).toBeNull();
    expect(validPosition("", "")).toBeNull();
  });

  it("knows Argentina's bounding box (a warning, not an error)", () => {
    expect(isInArgentina({ lat: -34.6037, lng: -58.3816 })).toBe(true); // Buenos Aires
    expect(isInArgentina({ lat: -54.8019, lng: -68.303 })).toBe(true); // Ushuaia
    expect(isInArgentina({ lat: -22.1, lng: -65.6 })).toBe(true); // La Quiaca
    expect(isInArgentina({ lat: -51.69, lng: -57.86 })).toBe(true); // Malvinas
    expect(isInArgentina({ lat: 40.4168, lng: -3.7038 })).toBe(false); // Madrid
    expect(isInArgentina({ lat: 34.6037, lng: 58.3816 })).toBe(false); // signs swapped
    expect(isInArgentina({ lat: -33.45, lng: -70.66 })).toBe(true); // Santiago de Chile is inside the box: only a hint
  });

  it("rounds to 7 decimals", () => {
    expect(roundCoordinate(-34.603722912345)).toBe(-34.6037229);
  });
});

describe("withRetries", () => {
  it("tries once and then 3 more times, waiting 1 s, 2 s and 4 s", async () => {
    const waits: number[] = [];
    const attempt = vi.fn(async () => {
      throw new Error("offline");
    });
    const onRetry = vi.fn();
    await expect(withRetries(attempt, { sleep: async (ms) => void waits.push(ms), onRetry })).rejects.toThrow("offline");
    expect(attempt).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(MAPS_RETRY_DELAYS_MS).toEqual([1000, 2000, 4000]);
    expect(onRetry.mock.calls.map((c) => [c[0], c[1]])).toEqual([
      [1, 1000],
      [2, 2000],
      [3, 4000],
    ]);
  });

  it("stops at the first success", async () => {
    const waits: number[] = [];
    let n = 0;
    const value = await withRetries(
      async () => {
        if (++n < 3) throw new Error("flaky");
        return "ok";
      },
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(value).toBe("ok");
    expect(n).toBe(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it("really waits with the default sleep (fake timers)", async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const done = withRetries(async () => {
        if (++n < 2) throw new Error("once");
        return n;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(n).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(done).resolves.toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A fake page: each appended script either "loads" (calls the callback with importLibrary) or fails. */
function fakeHost(outcomes: ("ok" | "error" | "silent")[]) {
  const win: ScriptHost["window"] = {};
  const scripts: { src: string; removed: boolean }[] = [];
  const host: ScriptHost = {
    window: win,
    appendScript(src, onError) {
      const entry = { src, removed: false };
      scripts.push(entry);
      const outcome = outcomes.shift() ?? "error";
      queueMicrotask(() => {
        if (outcome === "ok") {
          win.google = { maps: { importLibrary: () => Promise.resolve({}) } };
          const callback = new URL(src).searchParams.get("callback")!;
          (win[callback] as () => void)();
        } else if (outcome === "error") {
          // The bootstrap may leave a half-made namespace behind.
          win.google = { maps: {} };
          onError(new Error("network"));
        }
      });
      return { remove: () => (entry.removed = true) };
    },
  };
  return { host, scripts, win };
}

describe("the Maps API loader", () => {
  afterEach(() => resetMapsLoader());

  it("builds the script URL with the five libraries, the key and the callback", () => {
    const url = new URL(mapsScriptUrl("KEY-123", "cb"));
    expect(url.origin + url.pathname).toBe("https://maps.googleapis.com/maps/api/js");
    expect(url.searchParams.get("key")).toBe("KEY-123");
    expect(url.searchParams.get("libraries")).toBe("places,maps,geometry,marker,geocoding");
    expect(MAPS_LIBRARIES).toEqual(["places", "maps", "geometry", "marker", "geocoding"]);
    expect(url.searchParams.get("callback")).toBe("cb");
    expect(url.searchParams.get("region")).toBe("AR");
  });

  it("one attempt: resolves on the callback, cleans up on an error", async () => {
    const ok = fakeHost(["ok"]);
    await expect(loadMapsOnce(ok.host, "k")).resolves.toBeUndefined();
    const bad = fakeHost(["error"]);
    await expect(loadMapsOnce(bad.host, "k")).rejects.toThrow("network");
    expect(bad.scripts[0].removed).toBe(true);
    expect(bad.win.google).toBeUndefined();
  });

  it("an attempt that never answers times out", async () => {
    const silent = fakeHost(["silent"]);
    await expect(loadMapsOnce(silent.host, "k", 10)).rejects.toThrow(/tardó/);
    expect(silent.scripts[0].removed).toBe(true);
  });

  it("does nothing when the API is already there", async () => {
    const page = fakeHost([]);
    page.win.google = { maps: { importLibrary: () => undefined } };
    await loadMapsOnce(page.host, "k");
    expect(page.scripts).toHaveLength(0);
  });

  it("retries failed downloads with growing delays and succeeds on the third try", async () => {
    const page = fakeHost(["error", "error", "ok"]);
    const waits: number[] = [];
    await loadGoogleMaps(page.host, "k", { sleep: async (ms) => void waits.push(ms) });
    expect(page.scripts).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
    expect(page.win.google?.maps?.importLibrary).toBeTypeOf("function");
  });

  it("gives up after 3 retries (4 attempts) so the form falls back to the plain fields", async () => {
    const page = fakeHost(["error", "error", "error", "error", "ok"]);
    const waits: number[] = [];
    await expect(loadGoogleMaps(page.host, "k", { sleep: async (ms) => void waits.push(ms) })).rejects.toThrow("network");
    expect(page.scripts).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
    // A later visit may try again.
    await expect(loadGoogleMaps(page.host, "k", { sleep: async () => undefined })).resolves.toBeUndefined();
  });

  it("shares one load between the components of a page", async () => {
    const page = fakeHost(["ok"]);
    await Promise.all([loadGoogleMaps(page.host, "k"), loadGoogleMaps(page.host, "k")]);
    expect(page.scripts).toHaveLength(1);
  });
});
