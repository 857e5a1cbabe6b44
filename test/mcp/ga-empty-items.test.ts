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

it("keeps the plain sentence for an empty report without item fields", async () => {
  const empty = await report(["sessions"], ["country"], 'country == "Atlantis"');
  expect(rows(empty)).toEqual([]);
  expect(text(empty)).toContain(
    "No rows matched: the property has no data for these dates and filters (this is not an error).",
  );
});
