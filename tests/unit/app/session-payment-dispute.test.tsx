// The session detail (Actividad) as the server renders it: a payment the driver's bank charged
// back says "Contracargo" beside the session's own payment status and in the payments table; a
// payment in dispute says "En disputa"; a paid session without either says neither.
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { SessionDetail } from "~/components/activity/SessionDetail";
import type { PaymentDto, SessionDetailDto } from "#contract/dto";
import { fixtures } from "../../mocks/fixtures";

const payment: PaymentDto = {
  ...fixtures.payments.items[0],
  origin: "QR",
  step: "FINISHED",
  chargedCents: 120_000,
  refundedCents: 380_000,
  amountCents: 500_000,
  netCents: 0,
};

function render(session: SessionDetailDto) {
  const router = createMemoryRouter([{ path: "/", element: <SessionDetail session={session} backHref="/activity" /> }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

describe("session detail: a payment's dispute and chargeback", () => {
  it("shows Contracargo beside the session's payment status", () => {
    const markup = render({ ...fixtures.session, paymentStatus: "PAID", payments: [{ ...payment, status: "CHARGED_BACK" }] });
    expect(markup).toMatch(/data-testid="session-payment-dispute"[^>]*>Contracargo</);
  });

  it("a session the chargeback reached says Contracargo as its own payment status, once", () => {
    const markup = render({ ...fixtures.session, paymentStatus: "CHARGED_BACK", payments: [{ ...payment, status: "CHARGED_BACK" }] });
    expect(markup).toMatch(/Pago: (<!-- -->)?Contracargo/);
    expect(markup).not.toContain("session-payment-dispute");
  });

  it("shows En disputa while the payer disputes it", () => {
    const markup = render({ ...fixtures.session, payments: [{ ...payment, status: "IN_DISPUTE" }] });
    expect(markup).toMatch(/data-testid="session-payment-dispute"[^>]*>En disputa</);
  });

  it("says nothing of the kind for a payment partly refunded", () => {
    const markup = render({ ...fixtures.session, payments: [{ ...payment, status: "PARTIALLY_REFUNDED" }] });
    expect(markup).not.toContain("session-payment-dispute");
    expect(markup).toContain("Devuelto en parte");
  });
});
