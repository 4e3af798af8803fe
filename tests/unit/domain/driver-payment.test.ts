// The prepaid charge's pure rules — what a driver is still owed (Pagos360 refunds are
// made by hand, ADR 0017), the steps the database accepts, and how the audit log reads a
// recorded refund.
import { describe, expect, it } from "vitest";
import { chargedAmount, DRIVER_STEPS, FINAL_STEPS, refundOwed } from "#domain/driver-payment";
import { auditActionLabel, AUDIT_RESOURCE_LABELS, formatAuditValue } from "#domain/audit";

describe("refundOwed", () => {
  it("is the prepaid amount less what was charged and what already went back, never negative", () => {
    expect(refundOwed({ amountCents: 500_000, chargedCents: 120_000, refundedCents: 0 })).toBe(380_000);
    expect(refundOwed({ amountCents: 300_000, chargedCents: null, refundedCents: 0 })).toBe(300_000);
    expect(refundOwed({ amountCents: 300_000, chargedCents: 0, refundedCents: 250_000 })).toBe(50_000);
    expect(refundOwed({ amountCents: 500_000, chargedCents: 120_000, refundedCents: 380_000 })).toBe(0);
    expect(refundOwed({ amountCents: 100_000, chargedCents: 100_000, refundedCents: 0 })).toBe(0);
    expect(refundOwed({ amountCents: 100_000, chargedCents: 90_000, refundedCents: 50_000 })).toBe(0);
  });

  it("agrees with chargedAmount at settlement", () => {
    const { chargedCents, refundCents } = chargedAmount(120_000, 500_000);
    expect(refundOwed({ amountCents: 500_000, chargedCents, refundedCents: 0 })).toBe(refundCents);
  });
});

describe("REFUND_PENDING", () => {
  it("is a known step, and not a final one: the operator still has to record the refund", () => {
    expect(DRIVER_STEPS).toContain("REFUND_PENDING");
    expect(FINAL_STEPS.has("REFUND_PENDING")).toBe(false);
  });

  it("reads in Spanish in the audit log", () => {
    expect(AUDIT_RESOURCE_LABELS.payment).toBe("Pago");
    expect(auditActionLabel("payment.refund")).toBe("Registró la devolución del pago");
    expect(formatAuditValue("step", "REFUND_PENDING")).toBe("Devolución pendiente");
    expect(formatAuditValue("step", "FINISHED")).toBe("Terminada");
    expect(formatAuditValue("status", "APPROVED")).toBe("Aprobado");
    expect(formatAuditValue("refundOwedCents", 380_000).replace(/\s/g, " ")).toBe("$ 3.800,00");
  });
});
