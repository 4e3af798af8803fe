// Live screens: while a page is open, /live (server-sent events) says when one of the
// company's chargers, connectors or sessions changed, and the page reloads its own loader
// data. Without JavaScript (or EventSource) the page simply shows the state as of loading.
import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "@remix-run/react";

/** Bursts (a charger booting reports every connector) become one reload per second at most. */
const DEBOUNCE_MS = 1_000;

export function useLiveRevalidation() {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // The latest state, read from the event handler without re-opening the stream.
  const state = useRef({ revalidator, navigation });
  state.current = { revalidator, navigation };

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const source = new EventSource("/live");
    const reload = () => {
      const { revalidator: r, navigation: n } = state.current;
      // Never interrupt the operator: a form being submitted or a page being left wins.
      if (r.state !== "idle" || n.state !== "idle") {
        timer = setTimeout(reload, DEBOUNCE_MS);
        return;
      }
      r.revalidate();
    };
    source.addEventListener("change", () => {
      clearTimeout(timer);
      timer = setTimeout(reload, DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);
}
