// When the ARCA certificate's expiry is told: once in its last 30 days, once more when expired.
import { describe, expect, it } from "vitest";
import { certificateWarningDue } from "../../../domain/fiscal-certificate";

const DAY = 86_400_000;
const now = new Date("2026-11-29T12:00:00Z");
const at = (days: number) => new Date(now.getTime() + days * DAY);

describe("certificateWarningDue", () => {
  it("says nothing more than 30 days ahead, warns inside them once", () => {
    expect(certificateWarningDue(at(31), null, now)).toBeNull();
    expect(certificateWarningDue(at(30), null, now)).toBe("EXPIRING");
    expect(certificateWarningDue(at(1), null, now)).toBe("EXPIRING");
    expect(certificateWarningDue(at(1), at(-5), now)).toBeNull();
  });

  it("warns once more when it has expired, and only once", () => {
    expect(certificateWarningDue(at(-1), at(-20), now)).toBe("EXPIRED");
    expect(certificateWarningDue(at(-1), null, now)).toBe("EXPIRED");
    expect(certificateWarningDue(at(-1), at(-0.5), now)).toBeNull();
    expect(certificateWarningDue(now, null, now)).toBe("EXPIRED");
  });
});
