// Issue 23: the connectors' QR codes (what /cargar/{ocppIdentity}/{connectorId} a driver opens)
// and the printable A4 sheet of stickers. Server only: the SVG is made here (qrcode), never in
// the browser, so no screen ships a QR library.
import QRCode from "qrcode";
import type { ChargerDto } from "#contract/dto";
import { readJson, type ApiClient } from "~/lib/api.server";

/** Our public origin: PUBLIC_URL when the server has one (what chargers and drivers reach), else the request's. */
export function publicOrigin(request: Request): string {
  return (process.env.PUBLIC_URL || new URL(request.url).origin).replace(/\/+$/, "");
}

/** The page a connector's QR opens. */
export function chargeUrl(origin: string, ocppIdentity: string, connectorId: number): string {
  return `${origin}/cargar/${encodeURIComponent(ocppIdentity)}/${connectorId}`;
}

/**
 * What a driver types at /cargar when the camera cannot read the QR: the charger's OCPP identity,
 * a dash and the connector number ("CP-0001-2"; the number after the last dash is the connector).
 */
export function shortCode(ocppIdentity: string, connectorId: number): string {
  return `${ocppIdentity}-${connectorId}`;
}

/** A short code typed by a driver → its charger and connector, or null. */
export function parseShortCode(code: string): { identity: string; connector: number } | null {
  const m = /^\s*(.{1,64}?)\s*[-–]\s*(\d{1,3})\s*$/.exec(code);
  if (!m || /[/?#\s]/.test(m[1])) return null;
  return { identity: m[1], connector: Number(m[2]) };
}

/** The QR of `url` as SVG markup (error correction M, a quiet zone of 2 modules). */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** A charger of the caller's company (the API scopes it), or undefined when it is not one. */
export async function fetchCharger(api: ApiClient, id: string): Promise<ChargerDto | "not-found" | undefined> {
  let res: Response;
  try {
    res = await api.get(`/Business/Charger/${encodeURIComponent(id)}`);
  } catch {
    return undefined;
  }
  if (res.status === 404 || res.status === 403) return "not-found";
  return res.ok ? readJson<ChargerDto>(res) : undefined;
}
