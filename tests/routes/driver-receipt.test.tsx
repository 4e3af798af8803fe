// The driver's receipt on the status page: each time-of-use band's energy, minutes and amount on
// its own line, the quantities and the charges under labels that cannot be confused, and the
// fiscal voucher — its PDF behind a link that carries the status page's own secret, or, while
// ARCA has not authorised it, a plain word that it is on its way.
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import type { PaymentView, Receipt } from "#contract/dto";
import { ReceiptView } from "~/components/driver/Receipt";

const RECEIPT: Receipt = {
  companyName: "Cargas del Sur S.A.",
  cuit: "30-71234567-1",
  stationName: "Estación Palermo",
  address: "Av. Santa Fe 3253, Buenos Aires",
  chargerName: "Wallbox Norte",
  connectorNumber: 1,
  startedAt: "2026-11-27T21:30:00.000Z",
  endedAt: "2026-11-27T23:10:00.000Z",
  energyWh: 18_400,
  chargingMinutes: 100,
  idleMinutes: 0,
  breakdown: { energyCents: 460_000, timeCents: 40_000, sessionFeeCents: 50_000, idleCents: 0, vatCents: 95_455, totalCents: 550_000 },
  bands: [
    { label: "Pico", energyWh: 5_400, minutes: 30, amountCents: 189_000 },
    { label: "Resto", energyWh: 13_000, minutes: 70, amountCents: 311_000 },
  ],
  bandsEstimated: true,
  prepaidCents: 800_000,
  chargedCents: 550_000,
  refundedCents: 250_000,
  pendingRefundCents: 0,
  provider: "MERCADOPAGO",
  providerPaymentId: "71000000001",
  invoice: "Factura B N° 0003-00000042 · CAE 76123456789012",
  invoicePending: false,
};

const PAYMENT_ID = "3f9a1c2e-4b5d-4e6f-8a7b-9c0d1e2f3a4b";
const view = (receipt: Receipt) => ({ id: PAYMENT_ID, receipt }) as unknown as PaymentView;
const render = (receipt: Receipt, token = "s3cr3t/+=") => renderToStaticMarkup(<ReceiptView p={view(receipt)} token={token} />);

/** The receipt's figures as [label, value] pairs, in order, with entities and spacing plain. */
function figures(html: string): [string, string][] {
  const plain = (s: string) => s.replace(/<[^>]+>/g, "").replace(/&nbsp;|\u00a0/g, " ").replace(/&#x27;/g, "'").trim();
  return [...html.matchAll(/<dt>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/g)].map((m) => [plain(m[1]), plain(m[2])]);
}

describe("the driver's receipt", () => {
  it("shows each band's energy, minutes and amount on its own line, adding up to the energy and time charged", () => {
    const rows = figures(render(RECEIPT));
    expect(rows.filter(([label]) => label === "Pico" || label === "Resto")).toEqual([
      ["Pico", "5,40 kWh · 30 min · $ 1.890,00"],
      ["Resto", "13,00 kWh · 70 min · $ 3.110,00"],
    ]);
    const bandCents = RECEIPT.bands.reduce((sum, b) => sum + b.amountCents, 0);
    expect(bandCents).toBe(RECEIPT.breakdown.energyCents + RECEIPT.breakdown.timeCents);
    expect(render(RECEIPT)).toContain("Energía por franja estimada entre lecturas.");
  });

  it("labels the energy charged and the amounts apart: no two figures share a label", () => {
    const rows = figures(render(RECEIPT));
    const labels = rows.map(([label]) => label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(rows).toContainEqual(["Energía cargada", "18,40 kWh"]);
    expect(rows).toContainEqual(["Cargo por energía", "$ 4.600,00"]);
    expect(rows).toContainEqual(["Tiempo de carga", "100 min"]);
    expect(rows).toContainEqual(["Cargo por tiempo", "$ 400,00"]);
  });

  it("names the authorised voucher and links its PDF with the link's own secret", () => {
    const html = render(RECEIPT);
    expect(html).toContain("Factura B N° 0003-00000042 · CAE 76123456789012");
    expect(html).toContain(`href="/cargar/pago/${PAYMENT_ID}/factura?t=s3cr3t%2F%2B%3D"`);
    expect(html).toContain("Descargar la factura (PDF)");
  });

  it("says in Spanish that a voucher ARCA has not authorised yet is on its way, with no PDF link", () => {
    const html = render({ ...RECEIPT, invoice: null, invoicePending: true });
    expect(html).toContain("Factura en trámite");
    expect(html).toContain("ARCA todavía no la autorizó. Te la enviamos por correo apenas la autorice");
    expect(html).not.toContain("/factura?");
    // Without invoicing (no fiscal settings), nothing is said of a voucher.
    const none = render({ ...RECEIPT, invoice: null, invoicePending: false });
    expect(none).not.toContain("receipt-invoice");
  });
});
