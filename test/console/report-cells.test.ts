/**
 * The console's report cells keep a rate's change: with 2 decimals only, engagementRate_change -0.0046 read
 * "-0" while the step's answer said -0.0046 (src/tools/ga/report-compare.ts roundChange).
 */
import { describe, expect, it } from "vitest";
import { reportCell } from "../../console/src/report-columns.js";
import { reportNumbers } from "../../console/src/report-numbers.js";

describe("reportNumbers", () => {
  it("shows a change under 1 to 4 significant digits, and larger numbers to 2 decimals", () => {
    const format = reportNumbers("en-US");
    const cell = (_column: string, value: number) => format.format(value);
    expect(cell("engagementRate_change", -0.0046)).toBe("-0.0046");
    expect(cell("sessionKeyEventRate_change", -0.0033)).toBe("-0.0033");
    expect(cell("sessions_change", 12_335)).toBe("12,335");
    expect(cell("sessions_change_pct", -19.24)).toBe("-19.24");
    expect(cell("engagementRate[now]", 0.61234)).toBe("0.6123");
  });
});

describe("reportCell", () => {
  it("reads one period's date of a two-period report by date as a date (src/tools/ga/report-pairs.ts)", () => {
    const cell = reportCell("en-US");
    expect(cell("date[Black Friday 2026]", "20261127")).toBe("2026-11-27");
    expect(cell("yearMonth[2025]", "202511")).toBe("2025-11");
    expect(cell("date", "20261127")).toBe("2026-11-27");
    expect(cell("country[x]", "20261127")).toBe("20261127");
  });
});
