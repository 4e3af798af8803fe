// E-mail (invitations). One small interface, `Mailer`, and three ways to deliver:
// - `httpMailer`: production, a provider's HTTP endpoint (MAIL_PROVIDER_URL) that takes one JSON
//   message per POST with a bearer token (MAIL_PROVIDER_TOKEN);
// - `fileInbox`: local mode and the browser tests, like the Auth Emulator's oobCodes list: each
//   message is a JSON file under DATA_DIR/inbox, listed at /_local/inbox (server/local-inbox.ts);
// - `memoryInbox`: unit tests.
// `disabledMailer` refuses when production has no provider configured.
//
// Kept separate from everything that sends (the API builds the messages) so that other senders
// (e.g. payment receipts) can use the same interface and the same local inbox.
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text body (always sent). */
  text: string;
  /** Optional HTML body; callers escape what they put in it. */
  html?: string;
  /** What the message is about, for inboxes and logs ("invitation", …). */
  kind: string;
  /** Files sent with it (an invoice's PDF), base64-encoded so the message stays JSON. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

export interface StoredMail extends MailMessage {
  id: string;
  from: string;
  sentAt: string;
}

export interface Mailer {
  /** Resolves once the message is accepted for delivery; throws MailError otherwise. */
  send(message: MailMessage): Promise<void>;
}

/** A mailer whose messages can be read back (local mode, tests). */
export interface Inbox extends Mailer {
  list(): Promise<StoredMail[]>;
}

export class MailError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MailError";
  }
}

const DEFAULT_FROM = "Enchufá <no-responder@enchufa.local>";

/** Production: POST { from, to, subject, text, html } as JSON to the provider, bearer token. */
export function httpMailer(opts: { url: string; token?: string; from?: string; timeoutMs?: number; fetch?: typeof fetch }): Mailer {
  const doFetch = opts.fetch ?? fetch;
  return {
    async send(message) {
      let res: Response;
      try {
        res = await doFetch(opts.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}) },
          body: JSON.stringify({ from: opts.from ?? DEFAULT_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html, ...(message.attachments?.length ? { attachments: message.attachments } : {}) }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
      } catch (err) {
        throw new MailError("El proveedor de correo no respondió.", { cause: err });
      }
      await res.body?.cancel().catch(() => {});
      if (!res.ok) throw new MailError(`El proveedor de correo respondió ${res.status}.`);
    },
  };
}

/** Local mode: one JSON file per message under `dir`, newest first when listed (kept up to `max`). */
export function fileInbox(dir: string, opts: { from?: string; max?: number } = {}): Inbox {
  const max = opts.max ?? 200;
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const stored: StoredMail = { ...message, id: randomUUID(), from: opts.from ?? DEFAULT_FROM, sentAt: new Date().toISOString() };
      // Names sort by time: the listing reads the newest `max` without opening the rest.
      const name = `${stored.sentAt.replace(/[:.]/g, "-")}-${stored.id}.json`;
      await writeFile(path.join(dir, name), JSON.stringify(stored), { mode: 0o600 });
    },
    async list() {
      let names: string[];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith(".json"));
      } catch {
        return [];
      }
      names.sort().reverse();
      const out: StoredMail[] = [];
      for (const name of names.slice(0, max)) {
        try {
          out.push(JSON.parse(await readFile(path.join(dir, name), "utf8")) as StoredMail);
        } catch {
          /* a file being written: skip it */
        }
      }
      return out;
    },
  };
}

/** Tests: messages kept in memory, newest first. */
export function memoryInbox(opts: { from?: string; fail?: () => boolean } = {}): Inbox & { messages: StoredMail[] } {
  const messages: StoredMail[] = [];
  return {
    messages,
    async send(message) {
      if (opts.fail?.()) throw new MailError("Falla simulada del correo.");
      messages.unshift({ ...message, id: randomUUID(), from: opts.from ?? DEFAULT_FROM, sentAt: new Date().toISOString() });
    },
    async list() {
      return [...messages];
    },
  };
}

/** Production without MAIL_PROVIDER_URL: nothing can be sent, and the caller says so. */
export const disabledMailer: Mailer = {
  async send() {
    throw new MailError("El envío de correos no está configurado (MAIL_PROVIDER_URL).");
  },
};

/** Escape text for the HTML body. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}
