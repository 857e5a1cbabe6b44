/**
 * A kept table read as CSV is often opened in a spreadsheet: text that a spreadsheet would run as a
 * formula is shown as text instead, while numbers and the JSON format stay exact.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvPage } from "../../src/results/pages.js";

const rows = [
  { id: 1, firstName: '=HYPERLINK("https://evil.example","click")', score: -5, note: "+1 555 0100" },
  { id: 2, firstName: "@SUM(A1:A9)", score: 3, note: "-dash" },
  { id: 3, firstName: "\tcmd", score: 0, note: "\r=1+1" },
  { id: 4, firstName: "Ada", score: 7, note: "a = b" },
];

describe("CSV pages of a kept result", () => {
  it("defuse text a spreadsheet would run as a formula, and leave numbers and plain text alone", () => {
    const csv = csvPage(JSON.stringify(rows), ["id", "firstName", "score", "note"], true);
    const parsed = parse(csv) as string[][];
    expect(parsed).toEqual([
      ["id", "firstName", "score", "note"],
      ["1", '\'=HYPERLINK("https://evil.example","click")', "-5", "'+1 555 0100"],
      ["2", "'@SUM(A1:A9)", "3", "'-dash"],
      ["3", "'\tcmd", "0", "'\r=1+1"],
      ["4", "Ada", "7", "a = b"],
    ]);
  });

  it("leave text that is a plain negative number alone (a bulk export's values are all text), and defuse the rest", () => {
    // A spreadsheet reads these as numbers, never as formulas; with an apostrophe they would be text.
    const numbers = ["-5", "-12.50", "-1e3", "-.5", "-2.5E-3"];
    // "+" and digits is most often a phone number: defused, it keeps its "+" in a spreadsheet.
    const formulas = [
      "+15550100",
      "+1 555 0100",
      "-1+2",
      "-2+3+cmd|' /C calc'!A0",
      "-5 ",
      "- 5",
      "-",
      "-1e",
      "-0x10",
    ];
    const csv = csvPage(JSON.stringify([...numbers, ...formulas].map((v) => ({ v }))), ["v"], false);
    expect(parse(csv)).toEqual([...numbers.map((v) => [v]), ...formulas.map((v) => [`'${v}`])]);
  });

  it("defuse a column name too", () => {
    const csv = csvPage(JSON.stringify([{ "=cmd": "x" }]), ["=cmd"], true);
    expect(parse(csv)).toEqual([["'=cmd"], ["x"]]);
  });
});
