/**
 * A downloaded CSV is named for what it holds (console/src/download-words.ts; trial s9, finding 11: an
 * export of leads saved as records-2026-11-23-to-2026-11-29.csv), and one row of it is said in the
 * singular ("the 1 activity").
 */
import { describe, expect, it } from "vitest";
import { downloadName, downloadWords, kindOf } from "../../console/src/download-words.js";

const EXPORT = {
  method: "POST",
  endpoint: "/bulk/v1/leads/export/create.json",
  body: { filter: { createdAt: { startAt: "2026-11-23T00:00:00Z", endAt: "2026-11-29T23:59:59Z" } } },
};
const same = (column: string) => column;

describe("a download's name and words", () => {
  it("name an export's file by its rows: leads or activities, with its period", () => {
    expect(downloadName({ kind: "records" }, undefined, EXPORT, same, "leads")).toBe(
      "leads-2026-11-23-to-2026-11-29.csv",
    );
    expect(downloadName({ kind: "records" }, undefined, EXPORT, same, "activities")).toBe(
      "activities-2026-11-23-to-2026-11-29.csv",
    );
    // Without a noun it is the kept result's kind, as before.
    expect(downloadName({ kind: "records" }, undefined, EXPORT, same)).toBe(
      "records-2026-11-23-to-2026-11-29.csv",
    );
  });

  it("name a report's file by every measure (up to three), each period, and its filter", () => {
    const data = {
      date_ranges: [
        { start_date: "2026-11-26", end_date: "2026-12-02" },
        { start_date: "2026-11-19", end_date: "2026-11-25" },
      ],
    };
    const compared = {
      metrics: ["sessions", "ecommercePurchases", "purchaseRevenue"],
      dimensions: ["sessionDefaultChannelGroup"],
    };
    expect(downloadName({ kind: "rows" }, data, compared, same)).toBe(
      "sessions-ecommercepurchases-and-purchaserevenue-by-sessiondefaultchannelgroup-2026-11-26-to-2026-12-02-vs-2026-11-19-to-2026-11-25.csv",
    );
    const one = { date_ranges: data.date_ranges.slice(0, 1) };
    const filtered = { metrics: ["a", "b", "c", "d"], dimensions: [], filter: 'deviceCategory == "mobile"' };
    expect(downloadName({ kind: "rows" }, one, filtered, same)).toBe(
      "a-and-3-more-filtered-2026-11-26-to-2026-12-02.csv",
    );
  });

  it("name a funnel's file by its first and last steps, in words, and its period", () => {
    const data = { date_ranges: [{ start_date: "2026-11-03", end_date: "2026-12-02" }] };
    const input = { funnel: { steps: ["view_item", "add_to_cart", "purchase"] } };
    expect(downloadName({ kind: "rows" }, data, input, same, "rows")).toBe(
      "funnel-view-item-to-purchase-2026-11-03-to-2026-12-02.csv",
    );
    // A property's own event as it is.
    const own = { funnel: { steps: ["trial_signup", "plan_chosen"] } };
    expect(downloadName({ kind: "rows" }, data, own, same, "rows")).toBe(
      "funnel-trial-signup-to-plan-chosen-2026-11-03-to-2026-12-02.csv",
    );
  });

  it("say one row in the singular", () => {
    expect(kindOf(1, "activities")).toBe("activity");
    expect(kindOf(1, "leads")).toBe("lead");
    expect(kindOf(2, "activities")).toBe("activities");
    expect(downloadWords("activities", 1, 0, false)).toBe("the 1 activity");
  });
});
