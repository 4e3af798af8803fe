// The reusable photo uploader: a 'Cargar foto' button,
// the hint and a preview. The file input named `name` posts the file itself, with or without
// JavaScript; the form must be `encType="multipart/form-data"`, and the server applies the same
// rules (app/lib/profile.server.ts) with the same messages.
//
// With JavaScript, on pick: the extension (case-insensitive), then the size, then the first bytes
// (JPEG, PNG or GIF by content, as the server decides) are checked, then the file is read; on
// success the image is emitted as a data-URL (`onChange`) and previewed. A rejected file
// is taken out of the input — it is not posted — nothing is emitted, and the error is a toast.
// The posted body is the file, not its data-URL: a data-URL is a third larger, and an 800 KB image
// (the upload limit) would not fit under the server's 1 MB body cap.
import { useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { Button, Flex, Text } from "@radix-ui/themes";
import { BiUpload } from "~/icons";
import { BLANK_PHOTO, IMAGE_ACCEPT, IMAGE_HEAD_BYTES, IMAGE_MESSAGES, UPLOAD_HINT, UPLOAD_LABEL, checkImageContent, checkImageFile } from "~/lib/profile";

const TOAST_MS = 2000;

export interface PhotoUploaderProps {
  /** Name of the posted file field. */
  name: string;
  /** The image shown before anything is picked (optional initial image). */
  initialImage?: string | null;
  /** Text alternative of the preview. */
  alt: string;
  /** Emitted with the picked image as a data-URL string, once it passed the checks and was read. */
  onChange?: (dataUrl: string) => void;
  /** Emitted with the Spanish message of a rejected or unreadable file. */
  onError?: (message: string) => void;
  /**
   * The reset-image event: part of the uploader's public props so a caller can listen for it;
   * nothing raises it today (the image is reset only by picking another).
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
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => setEnhanced(true), []);

  // The server refused the posted image: drop it (preview and hidden field) and show why.
  useEffect(() => {
    if (!error) return;
    setDataUrl("");
    setLocalError(undefined);
    if (input.current) input.current.value = "";
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

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const field = event.currentTarget;
    const file = field.files?.[0];
    if (!file) {
      setDataUrl("");
      return;
    }
    // A refused file leaves the input (it must not be posted), so picking it again is a new pick.
    const refuse = (message: string) => {
      field.value = "";
      setDataUrl("");
      fail(message);
    };
    const check = checkImageFile(file);
    if (!check.ok) return refuse(check.message);
    let head: Uint8Array;
    try {
      head = new Uint8Array(await file.slice(0, IMAGE_HEAD_BYTES).arrayBuffer());
    } catch {
      return refuse(IMAGE_MESSAGES.unreadable);
    }
    const content = checkImageContent(head);
    if (!content.ok) return refuse(content.message);
    const reader = new FileReader();
    reader.onload = () => {
      const result = reader.result;
      if (typeof result !== "string" || !result.startsWith("data:")) return refuse(IMAGE_MESSAGES.unreadable);
      setDataUrl(result);
      setLocalError(undefined);
      onChange?.(result);
    };
    reader.onerror = () => refuse(IMAGE_MESSAGES.unreadable);
    reader.onabort = () => refuse(IMAGE_MESSAGES.unreadable);
    try {
      reader.readAsDataURL(file);
    } catch {
      refuse(IMAGE_MESSAGES.unreadable);
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
            ref={input}
            id={inputId}
            name={name}
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
