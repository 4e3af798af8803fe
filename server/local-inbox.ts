// The local inbox (local mode only, like the Auth Emulator's oobCodes list): the e-mails the
// server "sent" — team invitations — at /_local/inbox (a page) and /_local/inbox.json (for the
// browser tests). Only mounted with ENCHUFA_LOCAL, which binds to 127.0.0.1.
import express from "express";
import { escapeHtml, type Inbox } from "../infra/mail";

export const LOCAL_INBOX_PATH = "/_local/inbox";

const linkify = (text: string) => escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

export function localInboxRouter(inbox: Inbox, appName: string) {
  const router = express.Router();
  router.get(`${LOCAL_INBOX_PATH}.json`, async (_req, res) => {
    res.set("Cache-Control", "no-store").json({ messages: await inbox.list() });
  });
  router.get(LOCAL_INBOX_PATH, async (_req, res) => {
    const messages = await inbox.list();
    const items = messages
      .map(
        (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">Para <strong>${escapeHtml(m.to)}</strong> · ${escapeHtml(new Date(m.sentAt).toLocaleString("es-AR", { timeZone: "America/Argentina/Buenos_Aires" }))} · ${escapeHtml(m.kind)}</p>
  <pre>${linkify(m.text)}</pre>
</article>`,
      )
      .join("\n");
    res
      .set("Cache-Control", "no-store")
      .type("html")
      .send(`<!doctype html>
<html lang="es-AR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Correo local - ${escapeHtml(appName)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:760px;padding:16px;color:#0a0a0a}article{border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin:12px 0}h1{font-size:1.5rem}h2{font-size:1.1rem;margin:0 0 4px}.meta{color:#555;margin:0 0 8px;font-size:.9rem}pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}a{color:#0b6fa4}</style></head>
<body><main><h1>Correo local</h1><p>Los correos que ${escapeHtml(appName)} envió en modo local (invitaciones al equipo), del más nuevo al más viejo.</p>
${items || "<p>No hay correos.</p>"}</main></body></html>`);
  });
  return router;
}
