/**
 * A money metric's columns say their currency (console/src/report-columns.ts columnTitle; newcomer trial
 * 2026-12-02-s7, finding 9: "Purchase revenue 1,323", the USD only in the raw JSON): the plain column, a
 * period's and the change in money, not the change in %; a count's column as it was.
 */
import { describe, expect, it } from "vitest";
import { columnTitle } from "../../console/src/report-columns.js";

const UI = { purchaseRevenue: "Purchase revenue", ecommercePurchases: "Ecommerce purchases" };
const usd = (metric: string) => (metric === "purchaseRevenue" ? "USD" : undefined);

describe("a money column's title", () => {
  it("says the currency of a money metric's columns", () => {
    expect(columnTitle("purchaseRevenue", UI, usd)).toBe("Purchase revenue (USD)");
    expect(columnTitle("purchaseRevenue[last 28 days]", UI, usd)).toBe(
      "Purchase revenue (last 28 days, USD)",
    );
    expect(columnTitle("purchaseRevenue_change", UI, usd)).toBe("Purchase revenue change (USD)");
    expect(columnTitle("purchaseRevenue_change_pct", UI, usd)).toBe("Purchase revenue change (%)");
  });

  it("leaves a count's columns, and a report without a currency, as they were", () => {
    expect(columnTitle("ecommercePurchases", UI, usd)).toBe("Ecommerce purchases");
    expect(columnTitle("ecommercePurchases[last 28 days]", UI, usd)).toBe(
      "Ecommerce purchases (last 28 days)",
    );
    expect(columnTitle("purchaseRevenue", UI)).toBe("Purchase revenue");
  });
});
