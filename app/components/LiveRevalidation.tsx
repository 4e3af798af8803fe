// Live screens: while a page is open, /live (server-sent events) says when one of the
// company's chargers, connectors or sessions changed, and the page reloads its own loader
// data. Without JavaScript (or EventSource) the page simply shows the state as of loading.
import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";

/** Bursts (a charger booting reports every connector) become one reload per second at most. */
export const RELOAD_EVERY_MS = 1_000;

/**
 * Calls `reload` once, RELOAD_EVERY_MS after the first of a run of events. Events that arrive
 * while one is pending ride along with it, so a company whose chargers report all the time
 * still gets one reload a second (a debounce that restarts on every event would never fire).
 * While `busy()` (a form being sent, a page being left) the reload waits another interval.
 */
export function createReloadScheduler(reload: () => void, busy: () => boolean, everyMs = RELOAD_EVERY_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    if (busy()) {
      timer = setTimeout(fire, everyMs);
      return;
    }
    timer = undefined;
    reload();
  };
  return {
    changed() {
      timer ??= setTimeout(fire, everyMs);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

export function useLiveRevalidation() {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // The latest state, read from the event handler without re-opening the stream.
  const state = useRef({ revalidator, navigation });
  state.current = { revalidator, navigation };

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/live");
    const scheduler = createReloadScheduler(
      () => state.current.revalidator.revalidate(),
      // Never interrupt the operator: a form being submitted or a page being left wins.
      () => state.current.revalidator.state !== "idle" || state.current.navigation.state !== "idle",
    );
    source.addEventListener("change", scheduler.changed);
    return () => {
      scheduler.stop();
      source.close();
    };
  }, []);
}
