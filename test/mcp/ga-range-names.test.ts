/**
 * A period's label is any text Google takes (console review s8, finding 2: "25 Nov – 1 Dec" was refused as
 * "not date_range_/RESERVED_…"): a person's labels run, and name the merged report's columns; what is refused
 * (Google's two prefixes, and [ or ], which the columns' names use) is said in words.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

const text = firstText;

const ga = gaOverMcp();

const compare = async (first: string, second: string) =>
  (await ga.client.callTool({
    name: "google_analytics_run_reports",
    arguments: {
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["sessionDefaultChannelGroup"],
      date_ranges: [
        { start_date: "2026-11-25", end_date: "2026-12-01", name: first },
        { start_date: "2026-11-18", end_date: "2026-11-24", name: second },
      ],
    },
  })) as CallToolResult;

it("runs a comparison labelled as a person writes dates, and its columns carry the labels", async () => {
  const answer = await compare("25 Nov – 1 Dec", "18 – 24 Nov");
  expect(answer.isError, text(answer)).toBeFalsy();
  const rows = (answer.structuredContent as { rows: Record<string, unknown>[] }).rows;
  expect(Object.keys(rows[0] ?? {})).toEqual(
    expect.arrayContaining(["sessions[25 Nov – 1 Dec]", "sessions[18 – 24 Nov]"]),
  );
});

it.each([
  ["RESERVED_week", "ok"],
  ["week [1]", "ok"],
])("refuses %s in words that say what a label may be", async (label, other) => {
  const answer = await compare(label, other);
  expect(answer.isError).toBe(true);
  expect(text(answer)).toContain(
    "a label of 1 to 64 characters, without [ or ], not beginning with date_range_ or RESERVED_",
  );
});
