// The reusable photo uploader (spec §2 "Shared inputs", §4, §5, §8): a 'Cargar foto' button,
// the hint, a preview, and the image as a data-URL in a hidden field named `name`.
//
// - With JavaScript: on pick, the extension (case-insensitive) then the size are checked, then
//   the file is read; on success the data-URL is emitted (`onChange`), previewed and posted in
//   the hidden field. A rejected file is not accepted and nothing is emitted; the error is a toast.
// - Without JavaScript: the same file input carries the name and posts the file itself; the
//   form must be `encType="multipart/form-data"` and the server applies the same rules
//   (app/lib/profile.server.ts) with the same messages.
import { useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { Button, Flex, Text } from "@radix-ui/themes";
import { BiUpload } from "~/icons";
import { BLANK_PHOTO, IMAGE_ACCEPT, IMAGE_MESSAGES, UPLOAD_HINT, UPLOAD_LABEL, checkImageFile } from "~/lib/profile";

const TOAST_MS = 2000; // spec §9

export interface PhotoUploaderProps {
  /** Name of the posted field: the hidden data-URL (JavaScript) or the file input (no JavaScript). */
  name: string;
  /** The image shown before anything is picked (spec §3 "Photo value": optional initial image). */
  initialImage?: string | null;
  /** Text alternative of the preview. */
  alt: string;
  /** Emitted with the picked image as a data-URL string, once it passed the checks and was read. */
  onChange?: (dataUrl: string) => void;
  /** Emitted with the Spanish message of a rejected or unreadable file. */
  onError?: (message: string) => void;
  /**
   * The reset-image event (spec §4): declared for parity with the specification, which never
   * raises it in the known behaviour; this component does not raise it either.
   */
  onResetImage?: () => void;
  /** A message from the server about the posted image (shown under the hint). */
  error?: string;
  /** More buttons next to 'Cargar foto' (for instance "Quitar foto"). */
  actions?: ReactNode;
  /** Preview size in pixels. */
  size?: number;
}

export function PhotoUploader({ name, initialImage, alt, onChange, onError, error, actions, size = 96 }: PhotoUploaderProps) {
  const reactId = useId();
  const inputId = `${name}-file-${reactId.replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const [enhanced, setEnhanced] = useState(false);
  const [dataUrl, setDataUrl] = useState("");
  const [toast, setToast] = useState<{ message: string; seq: number } | undefined>();
  // The last refusal stays under the hint (the toast leaves after 2 s); a good pick clears it.
  const [localError, setLocalError] = useState<string | undefined>();
  const seq = useRef(0);

  useEffect(() => setEnhanced(true), []);

  // The server refused the posted image: drop it (preview and hidden field) and show why.
  useEffect(() => {
    if (!error) return;
    setDataUrl("");
    setLocalError(undefined);
  }, [error]);

  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(undefined), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);

  function fail(message: string) {
    setToast({ message, seq: ++seq.current });
    setLocalError(message);
    onError?.(message);
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared every time, so picking the same file again is a new pick.
    input.value = "";
    if (!file) return;
    const check = checkImageFile(file);
    if (!check.ok) return fail(check.message);
    const reader = new FileReader();
    reader.onload = () => {
      const result = reader.result;
      if (typeof result !== "string" || !result.startsWith("data:")) return fail(IMAGE_MESSAGES.unreadable);
      setDataUrl(result);
      setLocalError(undefined);
      onChange?.(result);
    };
    reader.onerror = () => fail(IMAGE_MESSAGES.unreadable);
    reader.onabort = () => fail(IMAGE_MESSAGES.unreadable);
    try {
      reader.readAsDataURL(file);
    } catch {
      fail(IMAGE_MESSAGES.unreadable);
    }
  }

  const preview = dataUrl || initialImage || BLANK_PHOTO;
  // A server message is about the last post; once a new image was picked, it no longer applies.
  const shownError = localError ?? (dataUrl ? undefined : error);
  const describedBy = [hintId, shownError ? errorId : null].filter(Boolean).join(" ");

  return (
    <div className="photo-uploader" data-enhanced={enhanced ? "" : undefined}>
      <img
        className="photo-uploader-preview"
        src={preview}
        alt={alt}
        width={size}
        height={size}
        style={{ width: size, height: size }}
        data-testid={`${name}-preview`}
      />
      <Flex direction="column" gap="2" style={{ minWidth: 0 }}>
        <Flex gap="3" align="center" wrap="wrap">
          {/* Before the label so `:focus-visible + label` can show the focus on the button. */}
          <input
            type="file"
            id={inputId}
            name={enhanced ? undefined : name}
            accept={IMAGE_ACCEPT}
            className="photo-uploader-input"
            onChange={onPick}
            aria-describedby={describedBy}
            aria-invalid={shownError ? true : undefined}
            data-testid={`${name}-input`}
          />
          <Button asChild size="3" variant="soft">
            <label htmlFor={inputId} className="photo-uploader-button">
              <BiUpload aria-hidden="true" /> {UPLOAD_LABEL}
            </label>
          </Button>
          {actions}
        </Flex>
        <Text id={hintId} size="1" color="gray">
          {UPLOAD_HINT}
        </Text>
        {shownError ? (
          <Text id={errorId} size="2" color="red" data-testid={`${name}-error`}>
            {shownError}
          </Text>
        ) : null}
      </Flex>
      {enhanced ? <input type="hidden" name={name} value={dataUrl} /> : null}
      {toast ? <UploaderToast key={toast.seq} message={toast.message} onClose={() => setToast(undefined)} /> : null}
    </div>
  );
}

/** The error toast, in the app's toaster (top right) when there is one. */
function UploaderToast({ message, onClose }: { message: string; onClose: () => void }) {
  const node = (
    <div className="toast" data-type="error" data-testid="toast" role="alert" onClick={onClose}>
      <div>{message}</div>
      <button type="button" className="toast-close" aria-label="Cerrar aviso" onClick={onClose}>
        ×
      </button>
    </div>
  );
  const host = typeof document !== "undefined" ? document.querySelector(".toaster") : null;
  return host ? createPortal(node, host) : <div className="toaster">{node}</div>;
}
