// The one CSV writer of the exports: a cell is safe whatever list separator the spreadsheet uses.
import { describe, expect, it } from "vitest";
import { csvCell, csvDocument, csvLine } from "#domain/csv";

describe("csv", () => {
  it("quotes a cell holding any list separator (, ; tab), a quote or a line break", () => {
    expect(csvCell("x,=1+1,y")).toBe('"x,=1+1,y"');
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell("a\tb")).toBe('"a\tb"');
    expect(csvCell('Eva "la" Gómez')).toBe('"Eva ""la"" Gómez"');
    expect(csvCell("uno\r\ndos")).toBe('"uno\r\ndos"');
    expect(csvCell("28/11/2026, 08:49:00")).toBe('"28/11/2026, 08:49:00"');
    expect(csvCell("Ana Pérez")).toBe("Ana Pérez");
  });

  it("keeps a cell that starts like a formula as text, and a negative number as a number", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+54 11")).toBe("'+54 11");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("\t=1")).toBe(`"'\t=1"`);
    expect(csvCell("-12")).toBe("-12");
    expect(csvCell("-1,50")).toBe('"-1,50"');
    expect(csvCell("-1+1")).toBe("'-1+1");
  });

  it("writes numbers, empty cells, lines and the whole file with BOM and CRLF", () => {
    expect(csvCell(12)).toBe("12");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvLine(["a", 1, null, "b,c"])).toBe('a;1;;"b,c"');
    expect(csvDocument(["A", "B"], [["1", "x,y"]])).toBe('\uFEFFA;B\r\n1;"x,y"\r\n');
  });
});
