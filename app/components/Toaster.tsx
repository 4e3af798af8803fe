import { useEffect, useState } from "react";
import type { ToastMessage } from "remix-toast";

const TOAST_MS = 2000;

/**
 * Flash toasts, top right, in a polite status region that is always in the page (so screen
 * readers announce what appears in it). Rendered in the server HTML so they show without
 * JavaScript (where CSS hides them after 2 s, paused while hovered or focused). With JavaScript
 * they close on click, with their 'Cerrar aviso' button or with Escape, or after 2 s — a timer
 * that waits while the pointer or the keyboard focus is on the toast.
 */
export function Toaster({ toast }: { toast?: ToastMessage }) {
  const [visible, setVisible] = useState<ToastMessage | undefined>(toast);
  const [held, setHeld] = useState({ hover: false, focus: false });
  const paused = held.hover || held.focus;

  useEffect(() => {
    setVisible(toast);
  }, [toast]);

  useEffect(() => {
    if (!visible || paused) return;
    const timer = window.setTimeout(() => setVisible(undefined), visible.duration ?? TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [visible, paused]);

  useEffect(() => {
    if (!visible) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setVisible(undefined);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [visible]);

  useEffect(() => {
    if (!visible) setHeld({ hover: false, focus: false });
  }, [visible]);

  return (
    <div className="toaster" role="status" aria-live="polite" aria-atomic="true">
      {visible ? (
        // The click closes it; the button below is the keyboard's way, and Escape.
        // Keyed by its message: a new toast right after another (a success after an error) gets
        // an element of its own, so its CSS animation starts again instead of hiding it when the
        // previous one's 2 s end. (A key, not a counter: the route budgets leave ~20 bytes.)
        <div
          key={visible.message}
          className="toast"
          data-type={visible.type}
          data-testid="toast"
          onClick={() => setVisible(undefined)}
          onMouseEnter={() => setHeld((h) => ({ ...h, hover: true }))}
          onMouseLeave={() => setHeld((h) => ({ ...h, hover: false }))}
          onFocus={() => setHeld((h) => ({ ...h, focus: true }))}
          onBlur={() => setHeld((h) => ({ ...h, focus: false }))}
        >
          <div>
            <div>{visible.message}</div>
            {visible.description ? <div className="toast-description">{visible.description}</div> : null}
          </div>
          <button type="button" className="toast-close" aria-label="Cerrar aviso" onClick={() => setVisible(undefined)}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
