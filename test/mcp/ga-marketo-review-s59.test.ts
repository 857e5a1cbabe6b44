/**
 * Review s59 of 7bcb42a4..496611f4 (a fresh reviewer's tests, one per finding:
 * bench/agent-trials/2026-12-07-s48/reviews/review-s59-findings.md), each failing before its fix.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, gaReports } from "../helpers/ga-reports.js";
import { seededMarketo } from "../helpers/marketo-mcp.js";

type Row = Record<string, string | number | null>;
const rows = (r: CallToolResult) => (r.structuredContent as { rows: Row[] }).rows;
const allText = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const week = [{ start_date: "2026-11-30", end_date: "2026-12-06", name: "week" }];
const twoRanges = [
  { start_date: "2026-11-30", end_date: "2026-12-06", name: "week" },
  { start_date: "2026-11-02", end_date: "2026-11-29", name: "before" },
];
const two = "423456787,423456789";

describe("review s59: google_analytics_run_reports", () => {
  const report = gaReports("423456787");

  it('F1: order_by "-Property,-sessions" over several properties groups the rows by property, as "-property,-sessions" does', async () => {
    const args = {
      property: two,
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions"],
      date_ranges: week,
      limit: 100,
    };
    const lower = await report({ ...args, order_by: "-property,-sessions" });
    const upper = await report({ ...args, order_by: "-Property,-sessions" });
    expect(upper.isError, firstText(upper)).toBeFalsy();
    const sites = rows(upper).map((row) => String(row.property));
    // Each property's rows in turn (the key is taken out of each property's request case-insensitively).
    expect(sites).toEqual([...sites].sort().reverse());
    expect(rows(upper)).toEqual(rows(lower));
  });

  it('F2: limit "2 per property,<the only dimension>" is refused with a hint that, followed, is refused again', async () => {
    const args = {
      property: two,
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions"],
      date_ranges: week,
      order_by: "-sessions",
    };
    const refused = await report({ ...args, limit: "2 per property,sessionDefaultChannelGroup" });
    expect(refused.isError).toBe(true);
    const text = allText(refused);
    // The limit as written, and a hint that does not name it again.
    expect(text).toContain('limit "2 per property,sessionDefaultChannelGroup" names every dimension');
    const suggested = /Give limit a number: limit (\d+) keeps the first \d+ rows of each property/.exec(
      text,
    )?.[1];
    expect(suggested, text).toBe("2");
    const followed = await report({ ...args, limit: Number(suggested) });
    expect(followed.isError, `hint "${suggested}" followed: ${firstText(followed)}`).toBeFalsy();
    expect(rows(followed)).toHaveLength(4);
  });

  it('F3: limit "2 per Property" is refused ("Property is not one") while order_by takes "Property"', async () => {
    const r = await report({
      property: two,
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions"],
      date_ranges: week,
      order_by: "-sessions",
      limit: "2 per Property",
    });
    expect(r.isError, firstText(r)).toBeFalsy();
    expect(rows(r)).toHaveLength(4);
  });

  it('F4: two ranges sort by a share\'s columns ("-sessions%_change"), which every merged row prints', async () => {
    const args = {
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions", "sessions%"],
      date_ranges: twoRanges,
      limit: 100,
    };
    const plain = await report(args);
    expect(plain.isError, firstText(plain)).toBeFalsy();
    expect(Object.keys(rows(plain)[0] ?? {})).toContain("sessions%_change");
    const sorted = await report({ ...args, order_by: "-sessions%_change" });
    expect(sorted.isError, firstText(sorted)).toBeFalsy();
    const values = rows(sorted).map((row) => Number(row["sessions%_change"]));
    expect(values).toEqual([...values].sort((a, b) => b - a));
  });

  it("F5: a two-range sort refused after GA answered lists dateRange as a name to sort by, which is then refused", async () => {
    const args = {
      dimensions: ["sessionDefaultChannelGroup"],
      metrics: ["sessions/day"],
      date_ranges: twoRanges,
      limit: 5,
    };
    const refused = await report({ ...args, order_by: "-sessions/day[wek]" });
    expect(refused.isError).toBe(true);
    const text = allText(refused);
    expect(text).toMatch(/Sort by one of .*sessions\/day_change/);
    expect(text).not.toMatch(/Sort by one of [^(]*\bdateRange\b/);
    // A name it offers, followed, answers.
    const followed = await report({ ...args, order_by: "-sessions/day[week]" });
    expect(followed.isError, firstText(followed)).toBeFalsy();
  });
});

describe("review s59: marketo_api_call", () => {
  const mkto = seededMarketo(200);

  it("F6: a :columns table's p90 of a date is refused with a hint that says a row's p90 is of a number field only", async () => {
    const answer = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: [1001], fields: "id,leadSource,leadStatus,createdAt" },
      paginate: true,
      count_by: "leadSource,leadStatus:columns",
      sum: "createdAt:p90",
    });
    expect(answer.result.isError).toBe(true);
    // Without :columns, each row's p90 of createdAt is a date now (the change): the hint should say so.
    expect(answer.text).not.toContain("of a number field");
    const followed = await mkto.call({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: [1001], fields: "id,leadSource,leadStatus,createdAt" },
      paginate: true,
      count_by: "leadSource,leadStatus",
      sum: "createdAt:p90",
    });
    expect(followed.result.isError, followed.first).toBeFalsy();
    expect(answer.text).toContain("(of numbers or dates), leave :columns out");
  });

  it("F6: the -mean refusal on dates offers -median, which sorts by it", async () => {
    const read = (order_by: string) =>
      mkto.call<{ result: Row[] }>({
        method: "GET",
        endpoint: "/rest/v1/lists/{listId}/leads.json",
        query_parameters: { listId: [1001], fields: "id,leadSource,createdAt" },
        paginate: true,
        count_by: "leadSource",
        sum: "createdAt",
        order_by,
      });
    const refused = await read("-mean");
    expect(refused.result.isError).toBe(true);
    const offered = /or "([^"]+)"\./.exec(refused.first)?.[1];
    expect(offered).toBe("-median");
    const followed = await read(offered as string);
    expect(followed.result.isError, followed.first).toBeFalsy();
    const medians = followed.data.result.map((row) => Date.parse(String(row.median)));
    expect(medians).toEqual([...medians].sort((a, b) => b - a));
  });

  it("a sum of date differences is said to 4 decimals, with no floating-point noise", async () => {
    const answer = await mkto.ok<{ result: Row[]; computed?: { sum?: number } }>({
      method: "GET",
      endpoint: "/rest/v1/lists/{listId}/leads.json",
      query_parameters: { listId: [1001], fields: "id,leadSource,createdAt,updatedAt" },
      paginate: true,
      count_by: "leadSource",
      sum: "updatedAt - createdAt",
    });
    const sums = [...answer.data.result.map((row) => Number(row.sum)), Number(answer.data.computed?.sum)];
    for (const sum of sums) expect(String(sum)).toMatch(/^-?\d+(\.\d{1,4})?$/);
  });
});
