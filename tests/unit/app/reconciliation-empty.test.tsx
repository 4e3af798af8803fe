// What Conciliación says when it lists no difference: a match only when something was compared;
// with no provider read (none connected, none answered) it says nothing could be compared.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EMPTY_TEXT, NOTHING_COMPARED_TEXT, NoDifferences } from "~/components/payment/Reconciliation";

const render = (report: Parameters<typeof NoDifferences>[0]["report"]) => renderToStaticMarkup(<NoDifferences report={report} />);
const unreadable = [{ provider: "MERCADOPAGO" as const, reason: "Mercado Pago no está conectado: sus pagos no se pudieron comparar." }];

describe("Conciliación without differences", () => {
  it("payments compared, all matching: no differences", () => {
    const markup = render({ checked: 12, unchecked: [] });
    expect(markup).toContain(EMPTY_TEXT);
    expect(markup).not.toContain("No hubo pagos");
  });

  it("a period without payments: no differences, and nothing to compare", () => {
    expect(render({ checked: 0, unchecked: [] })).toContain("No hubo pagos para comparar en este período.");
  });

  it("no provider could be read: it does not claim a match", () => {
    const markup = render({ checked: 0, unchecked: unreadable });
    expect(markup).toContain(NOTHING_COMPARED_TEXT);
    expect(markup).not.toContain(EMPTY_TEXT);
  });

  it("one provider read and one not: what was compared matched", () => {
    expect(render({ checked: 3, unchecked: unreadable })).toContain(EMPTY_TEXT);
  });
});
