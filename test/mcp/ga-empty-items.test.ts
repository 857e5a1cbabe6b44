/**
 * Issue 27 (trial s7, N13): a report of item fields that matches no rows says that GA fills item fields only
 * from the items of ecommerce events, not that the property has no data, and its advice (eventCount by
 * eventName for the same dates) is done here and shows the events the property did collect.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

type Row = Record<string, string | number | null>;
const text = firstText;
const rows = (r: CallToolResult) => (r.structuredContent as { rows: Row[] }).rows;

const ga = gaOverMcp();

const report = async (metrics: string[], dimensions: string[], filter?: string) =>
  (await ga.client.callTool({
    name: "google_analytics_run_reports",
    arguments: {
      property: "412345671",
      metrics,
      dimensions,
      date_ranges: ["last28days"],
      ...(filter ? { filter } : {}),
    },
  })) as CallToolResult;

it("says an empty item report is about items, and its advice shows what the property collected", async () => {
  // An item that was never sold: no rows, as with events sent without items.
  const empty = await report(["itemsPurchased"], ["itemName"], 'itemName == "No such item"');
  expect(empty.isError, text(empty)).toBeFalsy();
  expect(rows(empty)).toEqual([]);
  expect(text(empty)).toContain(
    "No rows matched. The report asks for item fields (itemsPurchased, itemName), which GA fills only from the items sent with ecommerce events",
  );
  expect(text(empty)).not.toContain("the property has no data");
  const advice = /run metric (\w+) by dimension (\w+) for the same dates/.exec(text(empty));
  expect(advice).not.toBeNull();
  const [, metric = "", dimension = ""] = advice ?? [];
  const events = await report([metric], [dimension]);
  expect(events.isError, text(events)).toBeFalsy();
  expect(rows(events).length).toBeGreaterThan(0);
  expect(rows(events).every((row) => Number(row[metric]) > 0)).toBe(true);
});

it("says an empty filtered report matches no row of these dates, which do have data without the filter", async () => {
  // Trial s10, N59: "the property has no data for these dates and filters" read as no data at all.
  const empty = await report(
    ["sessions"],
    ["landingPage"],
    'sessionDefaultChannelGroup == "Paid Social" and deviceCategory == "mobile"',
  );
  expect(empty.isError, text(empty)).toBeFalsy();
  expect(rows(empty)).toEqual([]);
  expect(text(empty)).not.toContain("the property has no data");
  const said =
    /No rows matched: no row matches these filters on these dates \(this is not an error\)\. The property does have data then: without the filters, sessions is ([\d,]+) on the same dates/.exec(
      text(empty),
    );
  expect(said, text(empty)).not.toBeNull();
  // The number said is the same dates' sessions without the filter.
  const all = await report(["sessions"], []);
  expect(Number(said?.[1]?.replaceAll(",", ""))).toBe(rows(all)[0]?.sessions);
});

it("says when the same dates have no data without the filter either", async () => {
  const args = {
    property: "412345671",
    metrics: ["sessions"],
    dimensions: ["country"],
    date_ranges: [{ start_date: "2015-01-01", end_date: "2015-01-31" }],
    filter: 'country == "Atlantis"',
  };
  const empty = (await ga.client.callTool({
    name: "google_analytics_run_reports",
    arguments: args,
  })) as CallToolResult;
  expect(rows(empty)).toEqual([]);
  expect(text(empty)).toContain(
    "No rows matched: no row matches these filters on these dates, and without the filters these dates have no sessions either (this is not an error).",
  );
});
