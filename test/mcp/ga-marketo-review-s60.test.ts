/**
 * Review s60 of 496611f4..9fcca043 (a fresh reviewer's tests, one per finding:
 * bench/agent-trials/2026-12-07-s49/reviews/review-s60-findings.md), each failing before its fix.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaReports } from "../helpers/ga-reports.js";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Row = Record<string, unknown>;
interface Answer {
  result: Row[];
}
const read = (extra: Row) => ({
  method: "GET",
  endpoint: "/rest/v1/lists/{listId}/leads.json",
  query_parameters: { listId: [1001, 1002], fields: "id,leadScore,npsScore,leadSource,createdAt" },
  paginate: true,
  ...extra,
});

describe("review s60: count_by bands between edges", () => {
  const mkto = seededMarketo(600);

  it('F1: limit "1 per leadScore:(0,50)" names the band column as the rows print it, yet is refused (split at its comma)', async () => {
    const args = read({ count_by: "leadSource,leadScore:(0,50)", order_by: "-count" });
    const plain = await mkto.call<Answer>({ ...args, limit: "1 per leadScore:(0,50)" });
    expect(plain.result.isError, plain.first).toBeFalsy();
    const quoted = await mkto.call<Answer>({ ...args, limit: '1 per "leadScore:(0,50)"' });
    expect(quoted.result.isError, quoted.first).toBeFalsy();
    expect(plain.data.result).toHaveLength(2);
  });

  it('F2: order_by "-leadScore:(50)" is refused as "not a field to sort by", while "-leadScore:25" sorts', async () => {
    const width = await mkto.call<Answer>(read({ count_by: "leadScore:25", order_by: "-leadScore:25" }));
    expect(width.result.isError, width.first).toBeFalsy();
    const edges = await mkto.call<Answer>(read({ count_by: "leadScore:(50)", order_by: "-leadScore:(50)" }));
    expect(edges.result.isError, edges.first).toBeFalsy();
    expect(edges.data.result.map((row) => row["leadScore:(50)"])).toEqual(["50 or more", "under 50"]);
  });

  it('F3: rows of the "under" band are not sorted by the next column (every other band\'s are)', async () => {
    const answer = await mkto.ok<Answer>(read({ count_by: "leadScore:(10,20),leadSource", limit: 100 }));
    const bands = ["under 10", "10 to <20", "20 or more"];
    for (const band of bands) {
      const sources = answer.data.result
        .filter((row) => row["leadScore:(10,20)"] === band)
        .map((row) => String(row.leadSource));
      expect(sources.length).toBeGreaterThan(1);
      expect(sources, band).toEqual([...sources].sort());
    }
  });

  it("F4: a band of edges over a field that is no number: the hint offers :1 (equal bands), not the edges", async () => {
    const refused = await mkto.call<Answer>(read({ count_by: "createdAt:(0,7)" }));
    expect(refused.result.isError).toBe(true);
    expect(refused.text).not.toContain("with :1 (leadScore)");
  });

  it('F5: the summary of one or two edges says "…" after the last band, as if more followed', async () => {
    const answer = await mkto.ok<Answer>(read({ count_by: "leadScore:(50)" }));
    expect(answer.first).toContain("leadScore:(50) is the band");
    expect(answer.first).not.toContain("50 or more, …");
    const two = await mkto.ok<Answer>(read({ count_by: "leadScore:(0,7)" }));
    expect(two.first).not.toContain("7 or more, …");
  });
});

const week = [{ start_date: "2026-11-30", end_date: "2026-12-06", name: "week" }];
describe("review s60: google_analytics_run_reports", () => {
  const report = gaReports("423456787");

  it('F6: the metrics description names "sessions%in_country", which, asked for as a metric, is refused with no word of the fix', async () => {
    const r: CallToolResult = await report({
      dimensions: ["country", "sessionDefaultChannelGroup"],
      metrics: ["sessions%in_country"],
      date_ranges: week,
      limit: 5,
    });
    // Either it answers, or the refusal says how to get the column: "sessions%" with country first.
    const text = r.isError ? firstText(r) : "answered";
    expect(text).toMatch(/^answered$|first dimension|comes with "sessions%"|ask "sessions%"/);
    // Done as it says, the column is there.
    const done = await report({
      dimensions: ["country", "sessionDefaultChannelGroup"],
      metrics: ["sessions", "sessions%"],
      date_ranges: week,
      limit: 5,
    });
    expect(Object.keys((done.structuredContent as { rows: Row[] }).rows[0] ?? {})).toContain(
      "sessions%in_country",
    );
  });

  it('F7: on one property, limit "2 per property,<its dimension>" is refused with a hint of "the first 2 rows of each property"', async () => {
    const r = await report({
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions"],
      date_ranges: week,
      order_by: "-sessions",
      limit: "2 per property,sessionDefaultChannelGroup",
    });
    expect(r.isError).toBe(true);
    expect(firstText(r)).not.toContain("of each property");
    expect(firstText(r)).toContain("Give limit a number: limit 2 keeps the first 2 rows;");
  });
});
