/**
 * Review s35 of `next` (marketo-next.test.ts): what a read with next says and counts where it is cut, through MCP
 * on the sandbox. A paged read whose matching records pass what one answer keeps still read every page: its
 * figures are the whole read's, and only the records kept are cut. An export cut by max_items pairs over every
 * row it read. A field of next or previous without them is refused before anything is sent.
 */
import { describe, expect, it } from "vitest";
import {
  activityExport,
  marketoOverMcp,
  NO_CALL_WINDOW,
  runningClock,
  SEEDED_AT,
} from "../helpers/marketo-mcp.js";

type Activity = {
  id?: number;
  marketoGUID?: string;
  leadId: number | string;
  activityDate: string;
  activityType: string;
  next?: Record<string, unknown> | null;
};
interface Read {
  result: Activity[];
  complete: boolean;
  calls_used: number;
  computed?: { read: number; matched: number };
}

// Kept results of at most 20 KB: a read of a few hundred records passes it.
const mkto = marketoOverMcp(
  { leadCount: 300, seed: 42, now: runningClock(SEEDED_AT), rateLimit: 1_000_000 },
  undefined,
  {
    ...NO_CALL_WINDOW,
    MARTECH_STEPS_RESULT_MAX_BYTES: "20000",
  },
);
const READ = { method: "GET", endpoint: "/rest/v1/activities.json", paginate: true, max_pages: 200 };
const QUERY = {
  sinceDatetime: "2026-11-01T00:00:00Z",
  activityTypeIds: "Send Email,Email Delivered,Open Email",
};

describe("next, where its answer is cut", () => {
  it("a read whose matching records pass what an answer keeps gives the whole read's figures (review s35, 1)", async () => {
    const where = 'activityType = "Email Delivered"';
    const plain = await mkto.ok<Read>({
      ...READ,
      query_parameters: QUERY,
      max_items: 100_000,
      where,
      count_by: "activityType",
    });
    const paired = await mkto.ok<Read>({
      ...READ,
      query_parameters: QUERY,
      max_items: 100_000,
      where,
      next: "Open Email",
    });
    expect(paired.data.computed?.read).toBe(plain.data.computed?.read);
    expect(paired.data.computed?.matched).toBe(plain.data.computed?.matched);
    const kept = (await mkto.results(paired)).length;
    expect(kept).toBeLessThan(paired.data.computed?.matched ?? 0);
    expect(paired.data.complete).toBe(false);
    expect(paired.first).toContain(
      `the answer holds the first ${kept.toLocaleString("en-US")} of the ${plain.data.computed?.matched.toLocaleString("en-US")} matching records (the figures are of them all)`,
    );
    expect(paired.first).not.toContain("the read stopped before its end");
  });

  it("an export cut by max_items pairs each kept row over every row read (review s35, 2), and names the pair", {
    timeout: 60_000,
  }, async () => {
    const EXPORT = activityExport("2026-10-06T00:00:00Z", "2026-12-01T00:00:00Z", [
      "Send Email",
      "Open Email",
    ]);
    const whole = await mkto.ok<Read>({ ...EXPORT, next: "Send Email:any" });
    const rows = await mkto.results(whole);
    const first = rows.slice(0, 100);
    const cut = await mkto.ok<Read>({ ...EXPORT, next: "Send Email:any", max_items: 100 });
    const kept = await mkto.results(cut);
    expect(kept.map((row) => row.next?.marketoGUID ?? null)).toEqual(
      first.map((row) => row.next?.marketoGUID ?? null),
    );
    // Some kept row's next is among the rows past the cut: the case that was lost.
    const past = new Set(rows.slice(100).map((row) => row.marketoGUID));
    expect(kept.some((row) => past.has(String(row.next?.marketoGUID)))).toBe(true);
  });

  it("a per read cut by max_items says a record with no next may have one unread (review s35, 6)", async () => {
    const cut = await mkto.ok<Read>({
      ...READ,
      query_parameters: QUERY,
      max_items: 200,
      next: "Open Email",
      where: 'activityType = "Send Email" and next_hours is empty',
      per: "leadId",
    });
    expect(cut.first).toContain("the read stopped before its end");
    expect(cut.first).toContain("a record with no next may have one after the last read");
  });

  it("refuses a field of next or previous without them before any call, and its hint works (review s35, 9)", async () => {
    const where = 'activityType = "Send Email" and next_hours <= 24';
    const left = async () =>
      (await mkto.ok<{ daily_calls_remaining: number }>({ method: "GET", endpoint: "/rest/v1/lists.json" }))
        .data.daily_calls_remaining;
    const before = await left();
    const refused = await mkto.call({ ...READ, query_parameters: QUERY, where });
    expect(refused.result.isError).toBe(true);
    expect(refused.first).toContain("next_hours is a field of next, which this call does not give");
    // Only the lists read that tells the calls left: nothing of the refused read was sent.
    expect(before - (await left())).toBe(1);
    const hint = /Add next with the activity type to pair, e.g. next "([^"]+)"/.exec(refused.text)?.[1];
    expect(hint).toBe("Fill Out Form");
    const fixed = await mkto.ok<Read>({
      ...READ,
      query_parameters: { ...QUERY, activityTypeIds: `${QUERY.activityTypeIds},Fill Out Form` },
      where,
      next: hint,
    });
    expect(fixed.data.complete).toBe(true);
    const previous = await mkto.call({
      ...READ,
      query_parameters: QUERY,
      count_by: "previous.activityType",
      next: "Open Email",
    });
    expect(previous.first).toContain("previous.activityType is a field of previous");
  });

  it("with limit, counts every match before it and answers whole; a sort past the bytes says the read was whole (review s36, 1, 3)", async () => {
    const where = 'activityType = "Email Delivered"';
    const plain = await mkto.ok<Read>({
      ...READ,
      query_parameters: QUERY,
      max_items: 100_000,
      where,
      count_by: "activityType",
    });
    const matched = plain.data.computed?.matched ?? 0;
    const five = await mkto.ok<Read & { computed?: { before_limit?: number } }>({
      ...READ,
      query_parameters: QUERY,
      max_items: 100_000,
      where,
      next: "Open Email",
      limit: 5,
    });
    expect(five.data.result).toHaveLength(5);
    expect(five.data.computed?.before_limit).toBe(matched);
    expect(five.data.complete).toBe(true);
    expect(five.first).toContain(
      `limit 5: the first 5 of the ${matched.toLocaleString("en-US")} records in read order`,
    );
    const sorted = await mkto.call({
      ...READ,
      query_parameters: QUERY,
      max_items: 100_000,
      where,
      next: "Open Email",
      order_by: "-next_hours",
    });
    expect(sorted.result.isError).toBe(true);
    expect(sorted.first).toContain(
      `the ${matched.toLocaleString("en-US")} that match among all ${plain.data.computed?.read.toLocaleString("en-US")} records read (the whole read, its calls spent)`,
    );
  });

  it("a cut read past the bytes never says it is whole (review s36, 4)", async () => {
    const cut = await mkto.ok<Read>({ ...READ, query_parameters: QUERY, max_items: 200, next: "Open Email" });
    expect(cut.first).toContain("the read stopped before its end");
    expect(cut.first).toMatch(
      /the answer holds the first [\d,]+ of the [\d,]+ matching records among those read/,
    );
    expect(cut.first).not.toContain("of them all");
  });

  it("refuses an answer's cursor given as next or as Marketo's token, and a bare next in where, before any call (review s36, 7, 10)", async () => {
    const plain = await mkto.ok<Read & { next_cursor?: string }>({
      ...READ,
      query_parameters: QUERY,
      max_items: 100,
    });
    const cursor = plain.data.next_cursor ?? "";
    expect(cursor).not.toBe("");
    const refused = await mkto.call({ ...READ, query_parameters: { ...QUERY, nextPageToken: cursor } });
    expect(refused.first).toContain("it holds an answer's next_cursor, which goes back as cursor");
    const followed = await mkto.ok<Read>({ ...READ, query_parameters: QUERY, max_items: 100, cursor });
    expect(followed.data.result.length).toBeGreaterThan(0);
    const bare = await mkto.call({ ...READ, query_parameters: QUERY, where: "next is empty" });
    expect(bare.first).toContain("next is a field of next, which this call does not give");
  });
});
