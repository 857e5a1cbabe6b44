import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstOfEachByHand } from "../helpers/first-of-each.js";
import { firstText, gaOverMcp } from "../helpers/ga-mcp.js";

/**
 * Run Reports' limit "n per dimension" (issue 27; trial s34: a day's top 10 pages and each site's top 20 were
 * ranked by the model from whole reports). Invariant, over generated dimensions, metrics, orders and n on the
 * Google sandbox through MCP: the rows are those of the same report read whole (limit 10,000) in the same
 * order, each group's first n kept; the totals are GA's, unchanged; the summary says how many of how many.
 */
type Row = Record<string, string | number | null>;
type Data = { rows: Row[]; totals: Row[]; row_count: number };
const data = (r: { structuredContent?: unknown }) => r.structuredContent as Data;

const PROPERTY = "412345671";
const RANGE = [{ start_date: "2026-11-03", end_date: "2026-11-16" }];

describe('limit "n per dimension" on Run Reports', () => {
  const ga = gaOverMcp();
  const report = (args: Record<string, unknown>) =>
    ga.call("google_analytics_run_reports", { property: PROPERTY, date_ranges: RANGE, ...args });

  it("keeps each group's first n rows of the whole report in the same order, with GA's totals (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          { dimensions: ["date", "pagePath"], per: ["date"] },
          { dimensions: ["deviceCategory", "country"], per: ["deviceCategory"] },
          {
            dimensions: ["sessionDefaultChannelGroup", "deviceCategory", "country"],
            per: ["sessionDefaultChannelGroup", "deviceCategory"],
          },
        ),
        fc.constantFrom(["sessions"], ["screenPageViews", "activeUsers"]),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        async (shape, metrics, ordered, n) => {
          // Without order_by: each group in turn, by the first metric, most first.
          const order_by = ordered ? `-${metrics[0]},${shape.dimensions.join(",")}` : undefined;
          const effective = order_by ?? `${shape.per.join(",")},-${metrics[0]}`;
          const base = { metrics, dimensions: shape.dimensions };
          const whole = await report({ ...base, order_by: effective, limit: 10_000 });
          expect(whole.isError, firstText(whole)).toBeFalsy();
          const each = await report({
            ...base,
            ...(order_by ? { order_by } : {}),
            limit: `${n} per ${shape.per.join(",")}`,
          });
          expect(each.isError, firstText(each)).toBeFalsy();
          const expected = firstOfEachByHand(data(whole).rows, shape.per, n);
          // Rows equal on the sort's keys, group by group (the order among equal keys is the sort's tie-break).
          const keyed = (rows: Row[]) => rows.map((row) => [...shape.per, ...metrics].map((f) => row[f]));
          expect(keyed(data(each).rows)).toEqual(keyed(expected));
          expect(data(each).row_count).toBe(expected.length);
          expect(data(each).totals).toEqual(data(whole).totals);
          const first = n === 1 ? "the first row" : `the first ${n} rows`;
          const said = `limit ${n} per ${shape.per.join(",")} (order_by ${effective}): ${first} of each ${shape.per.join(" and ")}, ${expected.length.toLocaleString("en-US")} of the report's ${data(whole).rows.length.toLocaleString("en-US")} rows`;
          // A limit that cuts nothing says nothing.
          if (expected.length < data(whole).rows.length) expect(firstText(each)).toContain(said);
          else expect(firstText(each)).not.toContain(`limit ${n} per`);
        },
      ),
      { numRuns: 10 },
    );
  });

  it("with a filter, says what the totals cover once, over the report's rows, not the rows kept (trial s36, N529)", async () => {
    const base = {
      metrics: ["sessions"],
      dimensions: ["deviceCategory", "country"],
      filter: 'deviceCategory in ("desktop", "mobile")',
    };
    const whole = data(await report({ ...base, limit: 10_000 }));
    const each = await report({ ...base, limit: "2 per deviceCategory" });
    const said = JSON.stringify(each.structuredContent);
    expect(data(each).row_count).toBeLessThan(whole.row_count);
    expect(firstText(each)).toContain(`totals are GA's, over all ${whole.row_count.toLocaleString("en-US")}`);
    expect(said).not.toContain(`over all ${data(each).row_count} rows`);
  });

  it("states the metric filter's figures of the whole report, and ties of a share column on its metric (review s43)", async () => {
    const base = {
      metrics: ["screenPageViews"],
      dimensions: ["date", "pagePath"],
      filter: "screenPageViews > 100",
    };
    const whole = firstText(await report({ ...base, limit: 10_000 }));
    const each = firstText(await report({ ...base, limit: "3 per date" }));
    const filterSaid =
      /The metric filter screenPageViews > 100 kept [\d,]+ of the [\d,]+ rows GA has without it, leaving out [\d,]+/;
    expect(each.match(filterSaid)?.[0]).toBe(whole.match(filterSaid)?.[0]);
    expect(whole).toMatch(filterSaid);
    // A share sorts as its metric: the next row ties the last kept only where their sessions are equal.
    const shares = { metrics: ["sessions%"], dimensions: ["country", "deviceCategory"] };
    const all = data(await report({ ...shares, order_by: "country,-sessions", limit: 10_000 })).rows;
    const groups = new Map<unknown, number[]>();
    for (const row of all)
      groups.set(row.country, [...(groups.get(row.country) ?? []), Number(row.sessions)]);
    const tied = [...groups.values()].filter((list) => list.length > 2 && list[1] === list[2]).length;
    const cut = firstText(await report({ ...shares, limit: "2 per country" }));
    if (tied > 0)
      expect(cut).toContain(`in ${tied} group${tied === 1 ? "" : "s"} (by country) the next row ties`);
    else expect(cut).not.toContain("the next row ties");
  });

  it("refuses a dimension the report lacks, two date ranges and realtime, each naming what works", async () => {
    const stray = await report({
      metrics: ["sessions"],
      dimensions: ["date", "pagePath"],
      limit: "3 per country",
    });
    expect(stray.isError).toBe(true);
    expect(firstText(stray)).toContain(
      'limit "3 per country" takes a dimension of this report, and country is not one: date, pagePath.',
    );
    expect(firstText(stray)).toContain('limit "10 per date" with order_by "-sessions"');
    // Doing what it says answers.
    const fixed = await report({
      metrics: ["sessions"],
      dimensions: ["date", "pagePath"],
      limit: "10 per date",
      order_by: "-sessions",
    });
    expect(fixed.isError, firstText(fixed)).toBeFalsy();
    const two = await report({
      metrics: ["sessions"],
      dimensions: ["date", "pagePath"],
      date_ranges: ["last7days", "last14days"],
      limit: "3 per date",
    });
    expect(firstText(two)).toContain("takes one date range");
    // A funnel is refused first: adding the dimension it names would not help (review s43, 6).
    const funnel = await report({
      funnel: { steps: ["session_start", "add_to_cart", "purchase"], breakdown: "deviceCategory" },
      limit: "1 per deviceCategory",
    });
    expect(firstText(funnel)).toContain("is for reports of dates, not a funnel or realtime");
    // Every dimension named: each group one row, nothing cut.
    const every = await report({
      metrics: ["sessions"],
      dimensions: ["date", "pagePath"],
      limit: "3 per date, pagePath",
    });
    expect(firstText(every)).toContain(
      "names every dimension of the report, so each group is one row and nothing is cut",
    );
    expect(firstText(every)).toContain('limit "3 per date"');
    const odd = await report({ metrics: ["sessions"], dimensions: ["date"], limit: "lots" });
    expect(firstText(odd)).toContain('"lots" is not a limit');
    // "100" is still the number 100.
    const hundred = await report({ metrics: ["sessions"], dimensions: ["date", "pagePath"], limit: "5" });
    expect(data(hundred).rows).toHaveLength(5);
  });
});
