// The charger screen's password section as the server renders it: while a password the charger
// accepted over OCPP is pending (ADR 0031), it says so; otherwise it does not.
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ChargerForm } from "~/components/charger/ChargerForm";
import { chargerFormValue } from "~/components/charger/form-values";
import type { ChargerDto } from "#contract/dto";
import { fixtures } from "../../mocks/fixtures";

function render(charger: ChargerDto) {
  const form = (
    <ChargerForm
      id="charger"
      lastResult={null}
      defaultValue={chargerFormValue(charger)}
      options={{ brands: [], connectorTypes: [], stations: [], rates: [] }}
      ocppBase="wss://enchufa.example/ocpp"
      charger={charger}
      now={Date.parse("2025-06-15T15:00:00Z")}
      busy={false}
      submitLabel="Guardar"
      cancelTo="/charger"
    />
  );
  const router = createMemoryRouter([{ path: "/", element: form }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const PENDING = "Contraseña nueva pendiente: el cargador todavía no se conectó con ella.";

describe("charger screen: a rotated password still pending", () => {
  it("says the new password is pending until the charger connects with it", () => {
    expect(render({ ...fixtures.charger, passwordPending: true })).toContain(PENDING);
  });

  it("says nothing of the kind once the charger used it (or after a manual rotation)", () => {
    const markup = render({ ...fixtures.charger, passwordPending: false });
    expect(markup).not.toContain(PENDING);
    expect(markup).toContain("El cargador tiene una contraseña asignada.");
  });
});
