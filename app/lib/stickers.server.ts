// Issue 23: the printable A4 sheet of QR stickers of a station or a charger — a whole HTML
// document (a resource route's answer: no JavaScript at all, its own print CSS), one sticker per
// connector: the QR, the station, the charger and connector, the short code to type and the URL.
import type { ChargerDto } from "#contract/dto";
import { chargeUrl, qrSvg, shortCode } from "~/lib/qr.server";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface StickerSheet {
  appName: string;
  origin: string;
  /** "Estación Palermo" or "Wallbox Norte · Estación Palermo". */
  title: string;
  back: { href: string; label: string };
  chargers: ChargerDto[];
  /** A warning shown on screen only (never printed). */
  notice?: string;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:Roboto,system-ui,sans-serif;color:#0a0a0a;background:#f2f2f2}
.bar{max-width:210mm;margin:0 auto;padding:16px;display:flex;flex-direction:column;gap:8px}
.bar h1{font-size:1.4rem;margin:0}.bar p{margin:0}
.notice{background:#fff4e5;border:1px solid #f5a623;border-radius:8px;padding:12px}
.sheet{width:210mm;max-width:100%;margin:0 auto 24px;background:#fff;padding:10mm;display:grid;grid-template-columns:repeat(2,1fr);gap:6mm}
.sticker{border:1px dashed #888;border-radius:4mm;padding:5mm;display:flex;flex-direction:column;align-items:center;text-align:center;gap:1.5mm;break-inside:avoid;page-break-inside:avoid}
.sticker .brand{font-weight:700;color:#0b6fa4;font-size:13pt}
.sticker .qr{width:48mm;height:48mm}.sticker .qr svg{width:100%;height:100%}
.sticker .station{font-weight:700;font-size:12pt}
.sticker .code{font:700 14pt/1.2 ui-monospace,monospace;letter-spacing:.5px;border:1px solid #0a0a0a;border-radius:2mm;padding:1mm 3mm}
.sticker .url{font-size:8pt;word-break:break-all;color:#333}
.sticker p{margin:0}
@media (max-width:600px){.sheet{grid-template-columns:1fr;padding:4mm}}
@page{size:A4;margin:10mm}
@media print{body{background:#fff}.bar{display:none}.sheet{width:auto;margin:0;padding:0}}
`;

export async function stickerSheet(sheet: StickerSheet): Promise<Response> {
  const stickers: string[] = [];
  for (const charger of sheet.chargers) {
    for (const k of [...charger.connectors].sort((a, b) => a.connectorId - b.connectorId)) {
      const url = chargeUrl(sheet.origin, charger.ocppIdentity, k.connectorId);
      const svg = await qrSvg(url);
      stickers.push(`<section class="sticker" aria-label="${esc(`${charger.name}, conector ${k.connectorId}`)}">
<p class="brand">${esc(sheet.appName)} · Pagá y cargá</p>
<div class="qr" role="img" aria-label="${esc(`Código QR de ${url}`)}">${svg}</div>
<p class="station">${esc(charger.stationName ?? "")}</p>
<p>${esc(charger.name)} · Conector ${k.connectorId} · ${esc(k.standardLabel)} · ${k.maxPowerKw.toLocaleString("es-AR")} kW</p>
<p>Escaneá el QR con la cámara o entrá a <strong>${esc(`${sheet.origin.replace(/^https?:\/\//, "")}/cargar`)}</strong> y escribí el código</p>
<p class="code" data-testid="sticker-code">${esc(shortCode(charger.ocppIdentity, k.connectorId))}</p>
<p class="url">${esc(url)}</p>
</section>`);
    }
  }
  const html = `<!DOCTYPE html>
<html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(`Stickers QR · ${sheet.title} - ${sheet.appName}`)}</title><style>${CSS}</style></head>
<body><main>
<div class="bar"><h1>Stickers QR · ${esc(sheet.title)}</h1>
<p>Imprimí esta hoja en A4 (menú Imprimir del navegador, o Ctrl+P) y pegá cada sticker junto a su conector.</p>
${sheet.notice ? `<p class="notice" role="status">${esc(sheet.notice)}</p>` : ""}
<p><a href="${esc(sheet.back.href)}">${esc(sheet.back.label)}</a></p></div>
${stickers.length ? `<div class="sheet">${stickers.join("\n")}</div>` : `<div class="bar"><p>No hay conectores para imprimir.</p></div>`}
</main></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store" } });
}
