import { useEffect, useState } from "react";
import type { ToastMessage } from "remix-toast";

const TOAST_MS = 2000; // spec §9

/**
 * Flash toasts, top right. Rendered in the server HTML so they show without JavaScript
 * (where CSS hides them after 2 s); with JavaScript they close on click or after 2 s.
 */
export function Toaster({ toast }: { toast?: ToastMessage }) {
  const [visible, setVisible] = useState<ToastMessage | undefined>(toast);

  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = window.setTimeout(() => setVisible(undefined), toast.duration ?? TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);

  return (
    <div className="toaster" role="status" aria-live="polite" aria-atomic="true">
      {visible ? (
        <div className="toast" data-type={visible.type} data-testid="toast" onClick={() => setVisible(undefined)}>
          <div>
            <div>{visible.message}</div>
            {visible.description ? <div style={{ fontSize: 13, opacity: 0.8 }}>{visible.description}</div> : null}
          </div>
          <button type="button" className="toast-close" aria-label="Cerrar aviso" onClick={() => setVisible(undefined)}>
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
