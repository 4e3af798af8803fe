// The charger screen's settings commands as the server renders them: the report command only for
// 2.0.1 chargers (with when the last report arrived), the intervals form with its values and its
// field errors wired for screen readers, and the protocol's own names in the help.
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { CommandsCard, type IntervalFormState } from "~/components/charger/CommandsCard";
import { reportLine } from "~/lib/charger.server";
import type { ChargerDto } from "#contract/dto";
import type { CommandResult } from "#contract/schemas/command-labels";
import { fixtures } from "../../mocks/fixtures";

function render(charger: ChargerDto, props: { result?: CommandResult; intervals?: IntervalFormState; reportStatus?: string } = {}) {
  const router = createMemoryRouter([{ path: "/", element: <CommandsCard charger={charger} busy={false} {...props} /> }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const v16: ChargerDto = { ...fixtures.charger, ocppVersion: "1.6", ocppProtocol: "ocpp1.6", heartbeatInterval: 300 };
const v201: ChargerDto = { ...fixtures.charger, ocppVersion: "2.0.1", ocppProtocol: "ocpp2.0.1" };
const input = (markup: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(markup)?.[0] ?? "";

describe("commands card: report and intervals", () => {
  it("1.6: no report command; the intervals under their 1.6 keys, the heartbeat prefilled with the configured one", () => {
    const markup = render(v16);
    expect(markup).not.toContain('data-testid="command-GetBaseReport"');
    expect(markup).toContain("HeartbeatInterval y MeterValueSampleInterval");
    expect(input(markup, "heartbeatInterval")).toContain('value="300"');
    expect(input(markup, "meterValueSampleInterval")).toContain('value=""');
    expect(input(markup, "heartbeatInterval")).not.toContain("aria-invalid");
  });

  it("2.0.1: the report command says when the last report arrived; the variables' 2.0.1 names; EVSEs for availability", () => {
    const markup = render(v201, { reportStatus: reportLine(fixtures.chargerEvents.lastReport) });
    expect(markup).toContain('data-testid="command-GetBaseReport"');
    expect(markup).toContain("Último informe (n.º 41): llegó completo el 15/06/2025, 14:42 (2 partes, 120 variables).");
    expect(markup).toContain("OCPPCommCtrlr.HeartbeatInterval y SampledDataCtrlr.TxUpdatedInterval");
    expect(markup).toContain(">EVSE 1 · ");
    expect(render(v201, { reportStatus: reportLine(null) })).toContain("Todavía no llegó ningún informe.");
  });

  it("after 'Leer intervalos' the values show and fill the form", () => {
    const result: CommandResult = {
      command: "GetConfiguration",
      outcome: "accepted",
      message: "El cargador informó sus intervalos (señal de vida: 60 s; mediciones durante la carga: no lo informa).",
      settings: { heartbeatInterval: { status: "Accepted", value: "60" }, meterValueSampleInterval: { status: "Unknown" } },
    };
    const markup = render(v16, { result });
    expect(markup).toMatch(/data-testid="command-intervals".*<dt>Señal de vida<\/dt><dd>60 s<\/dd>.*<dt>Mediciones durante la carga<\/dt><dd>no lo informa<\/dd>/);
    expect(input(markup, "heartbeatInterval")).toContain('value="60"');
  });

  it("a refused submit shows each message under its field, aria-invalid and described by it, with what was typed", () => {
    const markup = render(v16, {
      intervals: { errors: { meterValueSampleInterval: ["Ingresá un número entero de segundos entre 0 (sin mediciones periódicas) y 3.600."] }, submitted: { heartbeatInterval: "", meterValueSampleInterval: "9999" } },
    });
    const field = input(markup, "meterValueSampleInterval");
    expect(field).toContain('aria-invalid="true"');
    expect(field).toContain('aria-describedby="command-interval-meterValueSampleInterval-error command-interval-meterValueSampleInterval-hint"');
    expect(field).toContain('value="9999"');
    expect(markup).toMatch(/id="command-interval-meterValueSampleInterval-error"[^>]*>Ingresá un número entero de segundos entre 0 \(sin mediciones periódicas\) y 3\.600\./);
    expect(input(markup, "heartbeatInterval")).toContain('value=""');
  });

  it("a report still arriving is told as such", () => {
    expect(reportLine({ requestId: 7, parts: 1, variables: 1, complete: false, firstAt: "2025-06-15T17:40:00.000Z", lastAt: "2025-06-15T17:40:00.000Z" })).toBe(
      "Informe n.º 7 llegando: 1 parte, 1 variable hasta ahora, la última el 15/06/2025, 14:40.",
    );
  });
});

describe("commands card: after 'Cambiar intervalos'", () => {
  it("an interval the charger took fills the form; one it refused does not, and no values are shown as read", () => {
    const result: CommandResult = {
      command: "ChangeConfiguration",
      outcome: "rejected",
      message: "El cargador no aplicó todos los intervalos (señal de vida 120 s: aceptado; mediciones durante la carga 2 s: rechazado).",
      settings: { heartbeatInterval: { status: "Accepted", value: "120" }, meterValueSampleInterval: { status: "Rejected", value: "2" } },
    };
    const markup = render(v16, { result });
    expect(input(markup, "heartbeatInterval")).toContain('value="120"');
    expect(input(markup, "meterValueSampleInterval")).toContain('value=""');
    expect(markup).not.toContain('data-testid="command-intervals"');
  });
});
