/**
 * A report's values as a marketer reads them (console/src/report-values.ts; newcomer trial
 * 2026-12-02-s5, findings 4 and 6): a change in % signed with an arrow, a time as a clock, while the CSV
 * the page downloads keeps GA's raw numbers (the invariant: the file holds the seconds GA sent).
 */
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportNumbers } from "../../console/src/report-numbers.js";
import { changePercent, changeTone, clock, reportValue } from "../../console/src/report-values.js";
import { csvPage } from "../../src/results/pages.js";
import { lowerIsBetter } from "../../src/tools/ga/metric-direction.js";

const TYPES = {
  sessions: "TYPE_INTEGER",
  averageSessionDuration: "TYPE_SECONDS",
  userEngagementDuration: "TYPE_SECONDS",
  sessionsPerUser: "TYPE_FLOAT",
};

/** The page's cell, as Results.tsx' reportCell makes it (report-columns.ts, which only the page's build reads). */
const reportCell = (locale: string, types: Record<string, string>) => {
  const plain = reportNumbers(locale);
  return (column: string, value: number) => reportValue(column, value, types, (n) => plain.format(n), locale);
};

describe("a change between two periods", () => {
  it("reads with its sign, a % with 1 or 2 decimals and an arrow, not 0.4507", () => {
    const cell = reportCell("en-US", TYPES);
    expect(cell("sessions_change_pct", 0.4507)).toBe("+0.45 % ▲");
    expect(cell("ecommercePurchases_change_pct", -2.48)).toBe("\u22122.48 % ▼");
    expect(cell("sessions_change_pct", -2.5)).toBe("\u22122.5 % ▼");
    expect(cell("sessions_change_pct", 25)).toBe("+25.0 % ▲");
    expect(cell("sessions_change_pct", 0)).toBe("0.0 %");
    expect(cell("sessions_change", 74)).toBe("+74");
    expect(cell("ecommercePurchases_change", -10)).toBe("\u221210");
    expect(cell("sessions[November]", 16_493)).toBe("16,493");
  });

  it("is coloured up or down only where it moved, in a change column", () => {
    expect(changeTone("sessions_change_pct", 0.45)).toBe("up better");
    expect(changeTone("sessions_change", -10)).toBe("down worse");
    expect(changeTone("sessions_change", 0)).toBeUndefined();
    expect(changeTone("sessions", 12)).toBeUndefined();
    expect(changeTone("sessions_change_pct", null)).toBeUndefined();
  });

  it("reads a rise of a metric Google says is better lower (bounce rate) as worse, its direction kept", () => {
    expect(changeTone("bounceRate_change_pct", 3.2, lowerIsBetter)).toBe("up worse");
    expect(changeTone("bounceRate_change", -0.02, lowerIsBetter)).toBe("down better");
    expect(changeTone("bounceRate_change_pct", 0.001, lowerIsBetter)).toBeUndefined();
    expect(changeTone("engagementRate_change_pct", 3.2, lowerIsBetter)).toBe("up better");
    expect(changeTone("sessions_change", -10, lowerIsBetter)).toBe("down worse");
  });

  it("has an arrow that agrees with its sign for any change", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (value) => {
        const text = changePercent(value, "en-US");
        if (Math.abs(value) < 0.005) expect(text).toBe("0.0 %");
        else if (value > 0) expect(text).toMatch(/^\+[\d,.]+ % ▲$/);
        else expect(text).toMatch(/^\u2212[\d,.]+ % ▼$/);
      }),
    );
  });
});

describe("a duration", () => {
  it("reads m:ss under an hour and h:mm:ss from one, its change signed", () => {
    const cell = reportCell("en-US", TYPES);
    expect(cell("averageSessionDuration", 57.59)).toBe("0:58");
    expect(cell("userEngagementDuration", 4_210)).toBe("1:10:10");
    expect(cell("averageSessionDuration[October]", 605)).toBe("10:05");
    expect(cell("averageSessionDuration_change", -5.2)).toBe("\u22120:05");
    expect(cell("averageSessionDuration_change", 65)).toBe("+1:05");
    expect(cell("sessionsPerUser", 1.234)).toBe("1.234");
    expect(clock(59.5)).toBe("1:00");
  });

  it("is a clock in the page and GA's seconds in the CSV, for any rows", () => {
    const columns = ["country", "averageSessionDuration", "userEngagementDuration", "sessions"];
    const row = fc.record({
      country: fc.constantFrom("France", "Japan", "(not set)"),
      averageSessionDuration: fc.double({ min: 0, max: 90_000, noNaN: true }),
      userEngagementDuration: fc.integer({ min: 0, max: 10_000_000 }),
      sessions: fc.integer({ min: 0, max: 1_000_000 }),
    });
    const cell = reportCell("en-US", TYPES);
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 20 }), (rows) => {
        // The server's file, which the page downloads with only its header line retitled (csv-download.tsx).
        const csv = csvPage(JSON.stringify(rows), columns, true);
        const [, ...lines] = parse(csv) as string[][];
        lines.forEach((line, i) => {
          const source = rows[i] as (typeof rows)[number];
          // The file keeps the number GA sent; the page shows a clock.
          expect(Number(line[1])).toBe(source.averageSessionDuration);
          expect(Number(line[2])).toBe(source.userEngagementDuration);
          expect(cell("averageSessionDuration", source.averageSessionDuration)).toMatch(/^\d+(:\d\d){1,2}$/);
        });
      }),
    );
  });
});
