/**
 * A money metric's cells read as GA's own reports show them, with the currency's symbol and its minor
 * units (console/src/report-values.ts; newcomer trial 2026-12-02-s8, finding 7: "1,323", the currency only
 * in the column's title). The invariant: over any amount and any currency, the cell parses back to the
 * amount within half its currency's minor unit, with exactly that many decimals.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reportNumbers } from "../../console/src/report-numbers.js";
import { reportValue } from "../../console/src/report-values.js";

const TYPES = { purchaseRevenue: "TYPE_CURRENCY", ecommercePurchases: "TYPE_INTEGER" };
const CURRENCIES = Intl.supportedValuesOf("currency");

/** The page's cell in en-US for a report in `currency` (Results.tsx passes metadata.currency_code). */
const cell = (column: string, value: number, currency?: string) => {
  const plain = reportNumbers("en-US");
  return reportValue(column, value, TYPES, (n) => plain.format(n), "en-US", currency);
};

/** The amount a cell says: its number (a symbol may hold a dot: "Cg. 1,234.50"), negative with a minus sign. */
const amountOf = (text: string) => {
  const number = /\d[\d,]*(?:\.\d+)?/.exec(text)?.[0] ?? "NaN";
  return (/[\u2212-]/.test(text) ? -1 : 1) * Number(number.replace(/,/g, ""));
};
/** How many minor units the currency has, as the cell shows them ("1,323.00" → 2). */
const decimalsOf = (text: string) => /\.(\d+)\D*$/.exec(text)?.[1]?.length ?? 0;

describe("a money cell", () => {
  it("shows the currency's symbol and its minor units", () => {
    expect(cell("purchaseRevenue", 1323, "USD")).toBe("$1,323.00");
    expect(cell("purchaseRevenue", 402.5, "USD")).toBe("$402.50");
    expect(cell("purchaseRevenue", 1323, "EUR")).toBe("€1,323.00");
    expect(cell("purchaseRevenue", 1323.4, "JPY")).toBe("¥1,323");
    expect(cell("purchaseRevenue", 1.5, "BHD")).toBe("BHD\u00a01.500");
    expect(cell("purchaseRevenue[last 28 days]", 951, "USD")).toBe("$951.00");
  });

  it("signs a change in money, and leaves a change in % and a count as they were", () => {
    expect(cell("purchaseRevenue_change", 12.5, "USD")).toBe("+$12.50");
    expect(cell("purchaseRevenue_change", -3, "USD")).toBe("\u2212$3.00");
    expect(cell("purchaseRevenue_change", 0, "USD")).toBe("$0.00");
    expect(cell("purchaseRevenue_change_pct", 12.5, "USD")).toBe("+12.5 % ▲");
    expect(cell("ecommercePurchases", 1323, "USD")).toBe("1,323");
    // A report whose answer names no currency keeps plain numbers.
    expect(cell("purchaseRevenue", 1323)).toBe("1,323");
  });

  it("parses back to its amount within half a minor unit, in any currency", () => {
    const amount = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(amount, fc.constantFrom(...CURRENCIES), fc.boolean(), (value, currency, change) => {
        const text = cell(change ? "purchaseRevenue_change" : "purchaseRevenue", value, currency);
        const digits = new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions()
          .maximumFractionDigits as number;
        expect(decimalsOf(text)).toBe(digits);
        expect(Math.abs(amountOf(text) - value)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-6);
        // Never the bare number: the currency is in the cell.
        expect(text).not.toMatch(/^[\u2212+]?[\d,.]+$/);
      }),
      { seed: 20261203, numRuns: 500 },
    );
  });
});
