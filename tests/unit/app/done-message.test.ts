import { describe, expect, it } from "vitest";
import { doneMessage } from "~/lib/done-message";

describe("doneMessage: one voice for create/update/delete toasts", () => {
  it("speaks in the first person plural with the name in «»", () => {
    expect(doneMessage("created", "la estación", "Palermo")).toBe("Creamos la estación «Palermo».");
    expect(doneMessage("saved", "la tarifa", "Nocturna")).toBe("Guardamos los cambios de la tarifa «Nocturna».");
    expect(doneMessage("deleted", "el cargador", "Norte 1")).toBe("Eliminamos el cargador «Norte 1».");
  });

  it("contracts de + el", () => {
    expect(doneMessage("saved", "el cargador", "Norte")).toBe("Guardamos los cambios del cargador «Norte».");
  });

  it("leaves the name out when there is none", () => {
    expect(doneMessage("deleted", "la tarifa")).toBe("Eliminamos la tarifa.");
    expect(doneMessage("deleted", "la estación", "  ")).toBe("Eliminamos la estación.");
    expect(doneMessage("saved", "el cargador", null)).toBe("Guardamos los cambios del cargador.");
  });
});
