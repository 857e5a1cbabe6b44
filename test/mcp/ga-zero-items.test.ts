/**
 * Trial s18, N179: itemsAddedToCart read 0 in every row by item category, with a blank ratio beside it, and no
 * word; the agent spent two calls to learn that add_to_cart events come in without items. The summary says so
 * exactly when an item metric is 0 in every row and in total, names the ratio it leaves without a value, and
 * its check (eventCount by eventName) shows the events do come in.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const data = (r: CallToolResult) => r.structuredContent as unknown as { rows: Row[]; totals: Row[] };
const summary = (r: CallToolResult) => firstText(r).split("\n")[0] ?? "";
const ga = gaOverMcp();
const RANGE = [{ start_date: "2026-10-01", end_date: "2026-12-03" }];
const report = async (args: Record<string, unknown>) => {
  const result = await ga.call("google_analytics_run_reports", {
    property: "Retail Web Store",
    date_ranges: RANGE,
    ...args,
  });
  expect(result.isError, firstText(result)).toBeFalsy();
  return result;
};

describe("an item metric that is 0 throughout", () => {
  it("is said to be uncollected items, with its ratio, and the events it names do come in", async () => {
    const result = await report({
      metrics: ["itemsAddedToCart", "itemsPurchased", "itemsPurchased/itemsAddedToCart"],
      dimensions: ["itemCategory"],
    });
    const rows = data(result).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.itemsAddedToCart === 0)).toBe(true);
    expect(summary(result)).toContain(
      "itemsAddedToCart is 0 in every row and in total while itemsPurchased is not: items come in with other events, " +
        "so no add_to_cart event carried items (eventCount by eventName shows whether add_to_cart events come in at all)",
    );
    expect(summary(result)).toContain("itemsPurchased/itemsAddedToCart therefore has no value");
    expect(summary(result)).not.toContain("itemsPurchased is 0");
    const events = data(
      await report({
        metrics: ["eventCount"],
        dimensions: ["eventName"],
        filter: 'eventName == "add_to_cart"',
      }),
    ).rows;
    expect(Number(events[0]?.eventCount)).toBeGreaterThan(0);
  });

  it("beside item revenue, names the event that did not come: no refund (trial s27, N357)", async () => {
    const result = await report({
      metrics: ["itemRefundAmount", "itemRevenue"],
      dimensions: ["itemCategory"],
    });
    expect(summary(result)).toContain(
      "itemRefundAmount is 0 in every row and in total while itemRevenue is not: items come in with other events, " +
        "so no refund event carried items",
    );
    expect(summary(result)).not.toContain("carry no items");
    const refunds = data(
      await report({ metrics: ["eventCount"], dimensions: ["eventName"], filter: 'eventName == "refund"' }),
    ).rows;
    expect(refunds).toHaveLength(0);
  });

  it("is not said of an item metric with a value", async () => {
    const result = await report({ metrics: ["itemsPurchased"], dimensions: ["itemCategory"] });
    expect(summary(result)).not.toContain("0 in every row");
  });
});

describe("shipping, tax and refunds that are 0 throughout", () => {
  it("are said to be values not sent, not free shipping (trial s27, N359)", async () => {
    const result = await report({
      metrics: ["purchaseRevenue", "shippingAmount", "taxAmount"],
      dimensions: ["country"],
    });
    const rows = data(result).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.shippingAmount === 0 && row.taxAmount === 0)).toBe(true);
    expect(summary(result)).toContain(
      "shippingAmount, taxAmount are 0 in every row and in total: GA fills shippingAmount from the shipping parameter of purchase events",
    );
    const sold = await report({ metrics: ["purchaseRevenue"], dimensions: ["country"] });
    expect(summary(sold)).not.toContain("0 in every row");
  });
});
