import { describe, expect, it } from "vitest";
import { zeroItemsNote } from "../../../src/tools/ga/report-zero-items.js";

const headers = (...names: string[]) => ({ metricHeaders: names.map((name) => ({ name })) });

describe("the note on an item metric 0 throughout", () => {
  it("says the events may carry no items when no item metric has a value", () => {
    const flat = {
      rows: [{ itemCategory: "A", itemsAddedToCart: 0, eventCount: 5 }],
      totals: [{ itemsAddedToCart: 0, eventCount: 5 }],
      rowCount: 1,
    };
    expect(zeroItemsNote(flat, headers("itemsAddedToCart", "eventCount"))).toContain(
      "most likely means the property's events carry no items",
    );
  });

  it("names the event that did not come when another item metric has values (trial s27, N357)", () => {
    const flat = {
      rows: [{ itemCategory: "A", itemRefundAmount: 0, itemRevenue: 120 }],
      totals: [{ itemRefundAmount: 0, itemRevenue: 120 }],
      rowCount: 1,
    };
    const note = zeroItemsNote(flat, headers("itemRefundAmount", "itemRevenue"));
    expect(note).toContain("while itemRevenue is not");
    expect(note).toContain("no refund event carried items");
    expect(note).not.toContain("carry no items");
  });
});
