// Every stored field of an audited entity is recorded when it changes, or left out on purpose
// with the reason: a column added to an audited table fails here until it is one or the other.
import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUDITED_TABLES } from "#api/audit";
import { AUDIT_FIELD_LABELS } from "#domain/audit";

describe("audited columns", () => {
  for (const [name, spec] of Object.entries(AUDITED_TABLES)) {
    it(`${name}: each column is recorded (with a Spanish label) or left out with a reason`, () => {
      const columns = Object.keys(getTableColumns(spec.table));
      const recorded = spec.recorded as Record<string, string>;
      const notRecorded = spec.notRecorded as Record<string, string>;
      // Nothing named that is not a column (a renamed column would slip out unnoticed).
      expect([...Object.keys(recorded), ...Object.keys(notRecorded)].filter((c) => !columns.includes(c))).toEqual([]);
      expect(Object.keys(recorded).filter((c) => c in notRecorded)).toEqual([]);
      for (const reason of Object.values(notRecorded)) expect(reason.length).toBeGreaterThan(5);
      // What is recorded reads in Spanish in the log and its CSV.
      const unlabelled = columns.filter((c) => !(c in notRecorded)).map((c) => recorded[c] ?? c).filter((field) => !AUDIT_FIELD_LABELS[field]);
      expect(unlabelled).toEqual([]);
    });
  }
});
