import { describe, expect, it } from "vitest";
import {
  creditNoteType,
  creditOwed,
  fiscalQrPayload,
  fiscalQrUrl,
  formatInvoiceNumber,
  INVOICE_TYPES,
  billingMonth,
  invoiceAmounts,
  invoiceAmountsByRate,
  invoiceTypeFor,
  previousBillingMonth,
  RECEIVER_TAX_CONDITIONS,
  receiverConditionOf,
  receiverDocument,
  showsTransparency,
} from "#domain/invoice";
import { driverCheckoutSchema } from "#contract/schemas/driver";

describe("voucher type", () => {
  it("a Responsable Inscripto issues Factura B to a final consumer and Factura A to a CUIT", () => {
    expect(invoiceTypeFor("RESPONSABLE_INSCRIPTO", { kind: "CONSUMIDOR_FINAL" })).toBe(6);
    expect(invoiceTypeFor("RESPONSABLE_INSCRIPTO", { kind: "CUIT", cuit: "30500010912", name: "Flota SA" })).toBe(1);
  });
  it("a Monotributista or an exempt taxpayer issues Factura C to anyone", () => {
    expect(invoiceTypeFor("MONOTRIBUTO", { kind: "CONSUMIDOR_FINAL" })).toBe(11);
    expect(invoiceTypeFor("MONOTRIBUTO", { kind: "CUIT", cuit: "30500010912", name: "Flota SA" })).toBe(11);
    expect(invoiceTypeFor("EXENTO", { kind: "CONSUMIDOR_FINAL" })).toBe(11);
  });
  it("the credit note keeps the invoice's letter: 3, 8, 13", () => {
    expect(creditNoteType(INVOICE_TYPES.FACTURA_A)).toBe(3);
    expect(creditNoteType(INVOICE_TYPES.FACTURA_B)).toBe(8);
    expect(creditNoteType(INVOICE_TYPES.FACTURA_C)).toBe(13);
  });
  it("the receiver's document: 99/0/consumidor final, or 80/CUIT/Responsable Inscripto", () => {
    expect(receiverDocument({ kind: "CONSUMIDOR_FINAL" })).toEqual({ docType: 99, docNumber: "0", vatConditionId: 5 });
    expect(receiverDocument({ kind: "CUIT", cuit: "30500010912", name: "x" })).toEqual({ docType: 80, docNumber: "30500010912", vatConditionId: 1 });
  });
  it("the transparency legend goes on class B vouchers only", () => {
    expect(showsTransparency(6)).toBe(true);
    expect(showsTransparency(8)).toBe(true);
    expect(showsTransparency(1)).toBe(false);
    expect(showsTransparency(11)).toBe(false);
  });
});

describe("amounts", () => {
  it("net + VAT add up to the charged total to the centavo at every rate, for every total up to $100", () => {
    const wrong: string[] = [];
    for (const rate of [2100, 1050, 2700, 0]) {
      for (let total = 1; total <= 10_000; total++) {
        const a = invoiceAmounts(total, rate, INVOICE_TYPES.FACTURA_B);
        if (a.netCents + a.vatCents + a.exemptCents !== total || a.vat[0].baseCents !== a.netCents || a.vat[0].amountCents !== a.vatCents || a.netCents < 0) wrong.push(`${rate}:${total}`);
      }
    }
    expect(wrong).toEqual([]);
  });
  it("$1.210 at 21 % is $1.000 net and $210 of VAT, ARCA rate id 5", () => {
    expect(invoiceAmounts(121_000, 2100, 6)).toEqual({ totalCents: 121_000, netCents: 100_000, vatCents: 21_000, exemptCents: 0, vat: [{ id: 5, baseCents: 100_000, amountCents: 21_000 }] });
    expect(invoiceAmounts(110_50, 1050, 1).vat[0].id).toBe(4);
  });
  it("a Factura C is all net, with no VAT lines", () => {
    expect(invoiceAmounts(99_99, 2100, 11)).toEqual({ totalCents: 99_99, netCents: 99_99, vatCents: 0, exemptCents: 0, vat: [] });
  });
  it("refuses a total of zero and a rate ARCA does not have", () => {
    expect(() => invoiceAmounts(0, 2100, 6)).toThrow(RangeError);
    expect(() => invoiceAmounts(100, 1900, 6)).toThrow(/alícuota/);
  });
  it("a credit note credits what went back out of what was charged, never the unused balance", () => {
    // Prepaid $5.000, charged $3.000: the $2.000 balance went back and was never invoiced.
    const p = { amountCents: 500_000, chargedCents: 300_000, refundedCents: 200_000, chargedBack: false };
    expect(creditOwed(p, 300_000, 0)).toBe(0);
    // The operator refunds $1.000 more of the charge: a partial credit note.
    expect(creditOwed({ ...p, refundedCents: 300_000 }, 300_000, 0)).toBe(100_000);
    // Then the rest: only what earlier credit notes did not credit.
    expect(creditOwed({ ...p, refundedCents: 500_000 }, 300_000, 100_000)).toBe(200_000);
    // A chargeback credits the whole invoice once.
    expect(creditOwed({ ...p, chargedBack: true }, 300_000, 0)).toBe(300_000);
    expect(creditOwed({ ...p, chargedBack: true }, 300_000, 300_000)).toBe(0);
  });
  it("invoice plus its credit notes add up: the partial credit notes' amounts split the same way", () => {
    const inv = invoiceAmounts(300_000, 2100, 6);
    const nc1 = invoiceAmounts(100_000, 2100, 8);
    const nc2 = invoiceAmounts(200_000, 2100, 8);
    expect(nc1.totalCents + nc2.totalCents).toBe(inv.totalCents);
    expect(nc1.netCents + nc1.vatCents).toBe(100_000);
    expect(nc2.netCents + nc2.vatCents).toBe(200_000);
  });
});

describe("number and fiscal QR", () => {
  it("prints point of sale and number as 0003-00000042", () => {
    expect(formatInvoiceNumber(3, 42)).toBe("0003-00000042");
  });
  it("the QR is ARCA's URL with the base64 of the RG 4892 JSON, version 1, amounts in pesos", () => {
    const d = { issueDate: "2026-11-28", cuit: "30712345671", pointOfSale: 3, type: 6 as const, number: 42, totalCents: 121_050, receiverDocType: 99, receiverDocNumber: "0", cae: "76123456789012" };
    expect(fiscalQrPayload(d)).toEqual({ ver: 1, fecha: "2026-11-28", cuit: 30712345671, ptoVta: 3, tipoCmp: 6, nroCmp: 42, importe: 1210.5, moneda: "PES", ctz: 1, tipoDocRec: 99, nroDocRec: 0, tipoCodAut: "E", codAut: 76123456789012 });
    const url = fiscalQrUrl(d);
    expect(url.startsWith("https://www.arca.gob.ar/fe/qr/?p=")).toBe(true);
    const json = JSON.parse(Buffer.from(url.split("?p=")[1], "base64").toString("utf8"));
    expect(Object.keys(json)).toEqual(["ver", "fecha", "cuit", "ptoVta", "tipoCmp", "nroCmp", "importe", "moneda", "ctz", "tipoDocRec", "nroDocRec", "tipoCodAut", "codAut"]);
    expect(json.codAut).toBe(76123456789012);
  });
});

describe("the payment page's Factura A fields", () => {
  const base = { amountCents: 100_000, email: "ana@example.com", provider: "MERCADOPAGO", acceptTerms: true, requestKey: "k".repeat(32) };
  it("are optional, and a valid CUIT is kept as 11 digits with its company name", () => {
    expect(driverCheckoutSchema.parse(base).buyerCuit).toBeUndefined();
    expect(driverCheckoutSchema.parse({ ...base, buyerCuit: "", buyerName: "" }).buyerCuit).toBeUndefined();
    expect(driverCheckoutSchema.parse({ ...base, buyerCuit: "30-50001091-2", buyerName: " Flota Sur SA " })).toMatchObject({ buyerCuit: "30500010912", buyerName: "Flota Sur SA" });
  });
  it("a wrong check digit, or a CUIT without the company name, is refused in Spanish on its field", () => {
    const bad = driverCheckoutSchema.safeParse({ ...base, buyerCuit: "30-50001091-3", buyerName: "Flota" });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["buyerCuit", "Revisá el CUIT: tiene que tener 11 dígitos y un dígito verificador válido."]]);
    const noName = driverCheckoutSchema.safeParse({ ...base, buyerCuit: "30500010912" });
    expect(noName.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["buyerName", "Ingresá la razón social para la factura A."]]);
  });
});

describe("monthly invoices of access groups", () => {
  const cuit = { kind: "CUIT" as const, cuit: "30500010912", name: "Flota SA" };
  it("a Responsable Inscripto issues A to an RI or a Monotributista customer and B to an exempt one or a final consumer with a CUIT", () => {
    expect(invoiceTypeFor("RESPONSABLE_INSCRIPTO", { ...cuit, condition: "RESPONSABLE_INSCRIPTO" })).toBe(1);
    expect(invoiceTypeFor("RESPONSABLE_INSCRIPTO", { ...cuit, condition: "MONOTRIBUTO" })).toBe(1);
    expect(invoiceTypeFor("RESPONSABLE_INSCRIPTO", { ...cuit, condition: "EXENTO" })).toBe(6);
    expect(invoiceTypeFor("RESPONSABLE_INSCRIPTO", { ...cuit, condition: "CONSUMIDOR_FINAL" })).toBe(6);
    expect(invoiceTypeFor("MONOTRIBUTO", { ...cuit, condition: "RESPONSABLE_INSCRIPTO" })).toBe(11);
  });
  it("the receiver's condition goes to ARCA as its id, and comes back from it", () => {
    expect(receiverDocument({ ...cuit, condition: "MONOTRIBUTO" })).toEqual({ docType: 80, docNumber: "30500010912", vatConditionId: 6 });
    expect(receiverDocument({ ...cuit, condition: "EXENTO" }).vatConditionId).toBe(4);
    expect(receiverDocument(cuit).vatConditionId).toBe(1);
    for (const c of RECEIVER_TAX_CONDITIONS) expect(receiverConditionOf(receiverDocument({ ...cuit, condition: c }).vatConditionId)).toBe(c);
  });

  it("sessions at several VAT rates: VAT per rate on the rate's sum, lines add up to the total exactly", () => {
    const lines = [
      { totalCents: 1_001, vatRateBp: 2100 },
      { totalCents: 2_003, vatRateBp: 2100 },
      { totalCents: 999, vatRateBp: 1050 },
      { totalCents: 12_345, vatRateBp: 2100 },
    ];
    const a = invoiceAmountsByRate(lines, 1);
    expect(a.totalCents).toBe(16_348);
    // 15 349 × 21/121 = 2 663.90 → 2 664; 999 × 10.5/110.5 = 94.93 → 95.
    expect(a.vat).toEqual([
      { id: 4, baseCents: 904, amountCents: 95 },
      { id: 5, baseCents: 12_685, amountCents: 2_664 },
    ]);
    expect(a.vatCents).toBe(2_759);
    expect(a.netCents + a.vatCents + a.exemptCents).toBe(a.totalCents);
    expect(a.vat.reduce((s, v) => s + v.baseCents + v.amountCents, 0)).toBe(a.totalCents);
    // One rate: the same split as a single sale of the sum.
    expect(invoiceAmountsByRate([{ totalCents: 200_000, vatRateBp: 2100 }, { totalCents: 112_345, vatRateBp: 2100 }], 6)).toEqual(invoiceAmounts(312_345, 2100, 6));
  });
  it("a class C monthly invoice is all net; an empty or non-positive line, or a rate ARCA has not, is refused", () => {
    expect(invoiceAmountsByRate([{ totalCents: 500, vatRateBp: 2100 }, { totalCents: 700, vatRateBp: 1050 }], 11)).toEqual({ totalCents: 1_200, netCents: 1_200, vatCents: 0, exemptCents: 0, vat: [] });
    expect(() => invoiceAmountsByRate([], 6)).toThrow(RangeError);
    expect(() => invoiceAmountsByRate([{ totalCents: 0, vatRateBp: 2100 }], 6)).toThrow(RangeError);
    expect(() => invoiceAmountsByRate([{ totalCents: 100, vatRateBp: 1000 }], 6)).toThrow(/alícuota/);
  });

  it("a month runs from 00:00 in Argentina (03:00 UTC) on its first day to the same instant of the next", () => {
    const oct = billingMonth("2026-10-01");
    expect(oct.start.toISOString()).toBe("2026-10-01T03:00:00.000Z");
    expect(oct.end.toISOString()).toBe("2026-11-01T03:00:00.000Z");
    expect(oct.lastDay).toBe("2026-10-31");
    expect(billingMonth("2028-02-01").lastDay).toBe("2028-02-29");
    const dec = billingMonth("2026-12-01");
    expect(dec.end.toISOString()).toBe("2027-01-01T03:00:00.000Z");
    expect(() => billingMonth("2026-10-15")).toThrow(RangeError);
  });
  it("the month to close is the one before now in Argentina: at 02:59 UTC on the 1st it is still the month before", () => {
    expect(previousBillingMonth(new Date("2026-12-01T02:59:59Z")).month).toBe("2026-10-01");
    expect(previousBillingMonth(new Date("2026-12-01T03:00:00Z")).month).toBe("2026-11-01");
    expect(previousBillingMonth(new Date("2027-01-15T12:00:00Z")).month).toBe("2026-12-01");
    expect(previousBillingMonth(new Date("2027-01-01T03:00:00Z")).month).toBe("2026-12-01");
    expect(previousBillingMonth(billingMonth("2026-03-01").start).month).toBe("2026-02-01");
  });
});
