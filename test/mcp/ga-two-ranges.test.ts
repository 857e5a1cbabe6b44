/**
 * A two-range report paged through MCP: every page holds whole merged rows (both ranges' values), the pages
 * put together are the unpaged answer row for row whatever the order, and the summary's largest changes are
 * the whole report's on every page. A combination GA has no row for in one range reads 0 there (−100 %),
 * or null under a metric filter; periods of different length, or running to today, are said to be.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

type Row = Record<string, string | number | null>;
interface Report {
  rows: Row[];
  row_count: number;
  next_offset?: number;
  totals: Row[];
  comparison?: { from: string; to: string };
  hints: string[];
}
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const data = (r: CallToolResult) => r.structuredContent as unknown as Report;
const summary = (r: CallToolResult) => text(r).split("\n")[0] ?? "";

// The request of the issue: sessions by channel, the last 28 days against the 28 before.
const CHANNELS = {
  property: "412345671",
  metrics: ["sessions"],
  dimensions: ["sessionDefaultChannelGroup"],
  date_ranges: ["last28days", { start_date: "56daysAgo", end_date: "29daysAgo" }],
};

describe("a two-range report, paged", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const report = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: args,
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    return result;
  };
  /** Every page from offset 0, following next_offset. */
  const pages = async (args: Record<string, unknown>, limit: number) => {
    const read: CallToolResult[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page = await report({ ...args, limit, offset });
      read.push(page);
      offset = data(page).next_offset;
    }
    return read;
  };

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("pages over combinations: limit 4 then offset 4 and 8 give whole rows, and together the unpaged answer", async () => {
    const whole = await report({ ...CHANNELS, limit: 1000 });
    const all = data(whole).rows;
    expect(all.length).toBeGreaterThan(4);
    const [later, earlier] = Object.keys(all[0] ?? {}).filter((key) => key.startsWith("sessions["));
    const read: Row[] = [];
    for (const offset of [0, 4, 8]) {
      const page = data(await report({ ...CHANNELS, limit: 4, offset }));
      expect(page.row_count).toBe(all.length);
      // Each merged row has both ranges' numbers and its change: no half row.
      for (const row of page.rows) {
        expect(typeof row[later as string], JSON.stringify(row)).toBe("number");
        expect(typeof row[earlier as string], JSON.stringify(row)).toBe("number");
        expect(typeof row.sessions_change).toBe("number");
      }
      read.push(...page.rows);
    }
    expect(read).toEqual(all);
    expect(new Set(read.map((row) => row.sessionDefaultChannelGroup)).size).toBe(read.length);
  });

  it("says the largest changes of the whole report on every page", async () => {
    const movers = (r: CallToolResult) => /Largest changes in sessions.*$/.exec(summary(r))?.[0];
    const whole = await report({ ...CHANNELS, limit: 1000 });
    const top = [...data(whole).rows].sort(
      (a, b) => Math.abs(Number(b.sessions_change)) - Math.abs(Number(a.sessions_change)),
    )[0];
    expect(movers(whole)).toContain(`: ${top?.sessionDefaultChannelGroup} `);
    const paged = await pages(CHANNELS, 2);
    expect(paged.length).toBeGreaterThan(2);
    for (const page of paged) {
      expect(movers(page)).toBe(
        movers(whole)?.replace("in sessions ", `in sessions over all ${data(whole).rows.length} rows `),
      );
    }
  });

  for (const order_by of [
    "-sessions",
    "sessionDefaultChannelGroup",
    "-sessions_change",
    "sessions_change_pct",
  ]) {
    it(`puts the pages together into the unpaged answer when sorted by ${order_by}`, async () => {
      const args = { ...CHANNELS, order_by };
      const whole = data(await report({ ...args, limit: 1000 })).rows;
      const paged = (await pages(args, 3)).flatMap((page) => data(page).rows);
      expect(paged).toEqual(whole);
      const column = order_by.replace(/^-/, "");
      const key =
        column === "sessions" ? Object.keys(whole[0] ?? {}).find((k) => k.startsWith("sessions[")) : column;
      const values = whole.map((row) => row[key as string]);
      const sorted = [...values].sort((a, b) =>
        typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : 1,
      );
      expect(values).toEqual(order_by.startsWith("-") ? sorted.reverse() : sorted);
    });
  }

  it("reads 0 where GA has no row for a combination in one range (−100 %), and null under a metric filter", async () => {
    // Each weekday is in one range only (days 3 and 2 ago, and 12 and 11 ago, five weekdays earlier):
    // every merged row misses the other range.
    const args = {
      property: "412345671",
      metrics: ["sessions"],
      dimensions: ["dayOfWeek"],
      date_ranges: [
        { start_date: "3daysAgo", end_date: "2daysAgo", name: "now" },
        { start_date: "12daysAgo", end_date: "11daysAgo", name: "before" },
      ],
    };
    const result = data(await report(args));
    expect(result.rows).toHaveLength(4);
    for (const row of result.rows) {
      if (row["sessions[before]"] === 0) {
        expect(row.sessions_change).toBe(row["sessions[now]"]);
        expect(row.sessions_change_pct).toBeNull();
      } else {
        expect(row["sessions[now]"]).toBe(0);
        expect(row.sessions_change_pct).toBe(-100);
      }
    }
    expect(result.hints.join(" ")).toContain(
      "GA leaves out a row whose metrics are all 0, so their values there are 0",
    );
    const filtered = data(await report({ ...args, filter: "sessions > 0" }));
    for (const row of filtered.rows) {
      expect([row["sessions[now]"], row["sessions[before]"]]).toContain(null);
      expect(row.sessions_change).toBeNull();
    }
    expect(filtered.hints.join(" ")).toContain("the metric filter may have removed it there");
  });

  it("says when the periods differ in length, and the aligned comparison it names compares like for like", async () => {
    const result = await report({
      property: "412345671",
      metrics: ["sessions"],
      date_ranges: ["thisMonth", "lastMonth"],
    });
    const note = /The (periods differ in length|comparison is not final)[^.]*\./.exec(summary(result))?.[0];
    // thisMonth runs to today: either its length differs from lastMonth's, or (on a month's last day) it is unfinished.
    expect(note, summary(result)).toBeDefined();
    const aligned = /compare the same days of each: date_ranges (\[.*?\])\./.exec(summary(result))?.[1];
    if (!aligned) return;
    const again = await report({
      property: "412345671",
      metrics: ["sessions"],
      date_ranges: JSON.parse(aligned),
    });
    expect(summary(again)).not.toContain("The periods differ in length");
    const days = (JSON.parse(aligned) as { start_date: string; end_date: string }[]).map(
      (range) => (Date.parse(range.end_date) - Date.parse(range.start_date)) / 86_400_000,
    );
    expect(days[0]).toBe(days[1]);
  });
});

describe("thisMonth against lastMonth on the 1st", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // Only Date is faked (timers run): 2026-12-01 15:00 UTC is 10:00 on the 1st in New York, the property's zone.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 11, 1, 15), shouldAdvanceTime: true });
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
    vi.useRealTimers();
  });

  it("says one day so far against 30, and that no day of it is whole yet (review s29, finding 8)", async () => {
    const result = (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: { property: "412345671", metrics: ["sessions"], date_ranges: ["thisMonth", "lastMonth"] },
    })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    expect(summary(result)).toContain(
      "The periods differ in length: 2026-11-01…2026-11-30 has 30 days, 2026-12-01 1 day (2026-12-01 runs to " +
        "today, which GA is still collecting); from the length alone, a count at an even daily rate changes by " +
        "-96.7 %. No day of it is whole yet: compare once today is over.",
    );
  });
});
