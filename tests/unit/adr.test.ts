// Every decision record carries its date and status, so a reader knows whether it still holds.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(import.meta.dirname, "../../docs/decisions");
const RECORDS = readdirSync(DIR).filter((name) => /^\d{4}-.+\.md$/.test(name) && !name.startsWith("0000-"));

describe("decision records", () => {
  it("are numbered once each, and the template is there", () => {
    const numbers = RECORDS.map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(readdirSync(DIR)).toContain("0000-template.md");
  });

  it.each(RECORDS)("%s has a title, a Date and a Status", (name) => {
    const lines = readFileSync(path.join(DIR, name), "utf8").split("\n");
    expect(lines[0]).toMatch(/^# \d+\. \S/);
    expect(lines.find((line) => line.startsWith("Date:"))).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/);
    expect(lines.find((line) => line.startsWith("Status:"))).toMatch(/^Status: (Proposed|Accepted|Superseded by ADR \d{4})/);
  });
});
