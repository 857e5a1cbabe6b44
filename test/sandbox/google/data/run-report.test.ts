import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dims,
  EMPTY,
  nums,
  rowsOf,
  type Sandbox,
  SHOP,
  startSandbox,
  sum,
} from "../../../helpers/ga-data-sandbox.js";

const LAST_WEEK = [{ startDate: "7daysAgo", endDate: "yesterday" }];
const RUN = `/v1beta/properties/${SHOP}:runReport`;

describe("runReport", () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.close());

  const report = async (body: Record<string, unknown>) => {
    const { status, json } = await s.post(RUN, body);
    expect(status, JSON.stringify(json)).toBe(200);
    return json;
  };

  it("sessions by country over 7daysAgo..yesterday sum to the TOTAL row and the ungrouped report", async () => {
    const json = await report({
      dateRanges: LAST_WEEK,
      dimensions: [{ name: "country" }],
      metrics: [{ name: "sessions" }, { name: "activeUsers" }],
      metricAggregations: ["TOTAL", "MAXIMUM", "MINIMUM"],
    });
    const rows = rowsOf(json);
    expect(rows.length).toBeGreaterThan(5);
    expect(json.rowCount).toBe(rows.length);
    expect(rows.flatMap(dims)).toContain("France");
    const totals = json.totals as {
      dimensionValues: { value: string }[];
      metricValues: { value: string }[];
    }[];
    expect(totals).toHaveLength(1);
    expect(totals[0]?.dimensionValues).toEqual([{ value: "RESERVED_TOTAL" }]);
    const sessions = rows.map((r) => nums(r)[0] ?? 0);
    expect(Number(totals[0]?.metricValues?.[0]?.value)).toBe(sum(sessions));
    const maximums = json.maximums as typeof totals;
    expect(Number(maximums[0]?.metricValues?.[0]?.value)).toBe(Math.max(...sessions));
    expect((json.minimums as typeof totals)[0]?.dimensionValues[0]?.value).toBe("RESERVED_MIN");
    const overall = await report({ dateRanges: LAST_WEEK, metrics: [{ name: "sessions" }] });
    expect(nums(rowsOf(overall)[0] ?? {})).toEqual([sum(sessions)]);
    // proto3 JSON: no dimensions → no dimensionHeaders and no dimensionValues at all.
    expect(overall.dimensionHeaders).toBeUndefined();
    expect(rowsOf(overall)[0]?.dimensionValues).toBeUndefined();
    // Headers, string values, metadata and kind as in the discovery document.
    expect(json.dimensionHeaders).toEqual([{ name: "country" }]);
    expect(json.metricHeaders).toEqual([
      { name: "sessions", type: "TYPE_INTEGER" },
      { name: "activeUsers", type: "TYPE_INTEGER" },
    ]);
    expect(typeof rows[0]?.metricValues?.[0]?.value).toBe("string");
    expect(json.metadata).toEqual({ currencyCode: "USD", timeZone: "America/Los_Angeles" });
    expect(json.kind).toBe("analyticsData#runReport");
    expect(json.propertyQuota).toBeUndefined();
  });

  it("date values are YYYYMMDD and cover exactly the 7 days before today in the property's zone", async () => {
    const json = await report({
      dateRanges: LAST_WEEK,
      dimensions: [{ name: "date" }],
      metrics: [{ name: "eventCount" }],
      orderBys: [{ dimension: { dimensionName: "date" } }],
    });
    // NOW is 2025-06-15 11:00 in Los Angeles: 7daysAgo = 2025-06-08, yesterday = 2025-06-14.
    expect(rowsOf(json).map((r) => dims(r)[0])).toEqual([
      "20250608",
      "20250609",
      "20250610",
      "20250611",
      "20250612",
      "20250613",
      "20250614",
    ]);
  });

  it("string, inList, numeric, between and and/or/not filters change the rows as they should", async () => {
    const byCountry = async (dimensionFilter?: unknown, metricFilter?: unknown) => {
      const json = await report({
        dateRanges: LAST_WEEK,
        dimensions: [{ name: "country" }],
        metrics: [{ name: "sessions" }],
        ...(dimensionFilter ? { dimensionFilter } : {}),
        ...(metricFilter ? { metricFilter } : {}),
      });
      return new Map(rowsOf(json).map((r) => [dims(r)[0] ?? "", nums(r)[0] ?? 0]));
    };
    const all = await byCountry();
    const f = (filter: Record<string, unknown>) => ({ filter: { fieldName: "country", ...filter } });
    expect([...(await byCountry(f({ stringFilter: { value: "france" } }))).keys()]).toEqual(["France"]);
    expect([
      ...(await byCountry(f({ stringFilter: { value: "france", caseSensitive: true } }))).keys(),
    ]).toEqual([]);
    const united = await byCountry(f({ stringFilter: { matchType: "BEGINS_WITH", value: "United" } }));
    expect([...united.keys()].sort()).toEqual(["United Kingdom", "United States"]);
    const regexp = await byCountry(f({ stringFilter: { matchType: "FULL_REGEXP", value: "(Fr|Germ).*" } }));
    expect([...regexp.keys()].sort()).toEqual(["France", "Germany"]);
    const inList = await byCountry(f({ inListFilter: { values: ["Japan", "France", "Atlantis"] } }));
    expect(inList).toEqual(
      new Map([
        ["France", all.get("France")],
        ["Japan", all.get("Japan")],
      ]),
    );
    const not = await byCountry({ notExpression: f({ inListFilter: { values: ["Japan", "France"] } }) });
    expect(not.size).toBe(all.size - 2);
    const or = await byCountry({
      orGroup: {
        expressions: [f({ stringFilter: { value: "Japan" } }), f({ stringFilter: { value: "Spain" } })],
      },
    });
    expect([...or.keys()].sort()).toEqual(["Japan", "Spain"]);
    const and = await byCountry({
      andGroup: {
        expressions: [
          f({ stringFilter: { matchType: "CONTAINS", value: "an" } }),
          { filter: { fieldName: "continent", stringFilter: { value: "Europe" } } },
        ],
      },
    });
    const europe = ["France", "Germany", "United Kingdom", "Spain", "Italy", "Netherlands"];
    const expected = [...all.keys()].filter((k) => k.toLowerCase().includes("an") && europe.includes(k));
    expect(expected.length).toBeGreaterThan(1);
    expect([...and.keys()].sort()).toEqual(expected.sort());
    // Metric filters apply after aggregation (HAVING), numeric values as int64 strings or doubles.
    const threshold = [...all.values()].sort((a, b) => a - b)[Math.floor(all.size / 2)] ?? 0;
    const big = await byCountry(undefined, {
      filter: {
        fieldName: "sessions",
        numericFilter: { operation: "GREATER_THAN", value: { int64Value: String(threshold) } },
      },
    });
    expect(big.size).toBe([...all.values()].filter((v) => v > threshold).length);
    expect([...big.values()].every((v) => v > threshold)).toBe(true);
    const between = await byCountry(undefined, {
      filter: {
        fieldName: "sessions",
        betweenFilter: { fromValue: { doubleValue: 100 }, toValue: { int64Value: "300" } },
      },
    });
    expect([...between.keys()].sort()).toEqual(
      [...all]
        .filter(([, v]) => v >= 100 && v <= 300)
        .map(([k]) => k)
        .sort(),
    );
  });

  it("orders by metric descending and by dimension alphanumerically (code points)", async () => {
    const base = {
      dateRanges: LAST_WEEK,
      dimensions: [{ name: "pageTitle" }],
      metrics: [{ name: "screenPageViews" }],
    };
    const byMetric = rowsOf(
      await report({ ...base, orderBys: [{ metric: { metricName: "screenPageViews" }, desc: true }] }),
    );
    const views = byMetric.map((r) => nums(r)[0] ?? 0);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(views[0]).toBeGreaterThan(views.at(-1) ?? 0);
    const byName = rowsOf(
      await report({ ...base, orderBys: [{ dimension: { dimensionName: "pageTitle" } }] }),
    );
    const titles = byName.map((r) => dims(r)[0] ?? "");
    expect(titles).toEqual([...titles].sort());
    expect(titles.indexOf("API reference")).toBeLessThan(titles.indexOf("About us")); // "P" < "b"
    const ci = rowsOf(
      await report({
        ...base,
        orderBys: [{ dimension: { dimensionName: "pageTitle", orderType: "CASE_INSENSITIVE_ALPHANUMERIC" } }],
      }),
    ).map((r) => dims(r)[0] ?? "");
    expect(ci.indexOf("About us")).toBeLessThan(ci.indexOf("API reference"));
  });

  it("pages with limit/offset (int64 strings) while rowCount stays the full count", async () => {
    const base = {
      dateRanges: LAST_WEEK,
      dimensions: [{ name: "pagePath" }, { name: "deviceCategory" }],
      metrics: [{ name: "eventCount" }],
    };
    const full = await report(base);
    const page = await report({ ...base, limit: "5", offset: "3" });
    expect(rowsOf(page)).toEqual(rowsOf(full).slice(3, 8));
    expect(page.rowCount).toBe(full.rowCount);
    expect(full.rowCount).toBeGreaterThan(8);
    const tail = await report({ ...base, offset: 1_000 });
    expect(tail.rows).toBeUndefined();
    expect(tail.rowCount).toBe(full.rowCount);
  });

  it("two date ranges add a dateRange dimension named date_range_0/1 or by the request", async () => {
    const json = await report({
      dateRanges: [
        { startDate: "14daysAgo", endDate: "8daysAgo" },
        { startDate: "7daysAgo", endDate: "yesterday", name: "this_week" },
      ],
      dimensions: [{ name: "deviceCategory" }],
      metrics: [{ name: "sessions" }],
      metricAggregations: ["TOTAL"],
    });
    expect(json.dimensionHeaders).toEqual([{ name: "deviceCategory" }, { name: "dateRange" }]);
    const ranges = new Set(rowsOf(json).map((r) => dims(r)[1]));
    expect(ranges).toEqual(new Set(["date_range_0", "this_week"]));
    const totals = json.totals as { dimensionValues: { value: string }[] }[];
    expect(totals.map((t) => t.dimensionValues.map((d) => d.value))).toEqual([
      ["RESERVED_TOTAL", "date_range_0"],
      ["RESERVED_TOTAL", "this_week"],
    ]);
  });

  it("a property with no data returns headers and metadata but no rows and no rowCount", async () => {
    const { status, json } = await s.post(`/v1beta/properties/${EMPTY}:runReport`, {
      dateRanges: LAST_WEEK,
      dimensions: [{ name: "country" }],
      metrics: [{ name: "sessions" }],
      metricAggregations: ["TOTAL"],
    });
    expect(status).toBe(200);
    expect(json).toEqual({
      dimensionHeaders: [{ name: "country" }],
      metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
      metadata: { currencyCode: "EUR", timeZone: "Europe/Paris" },
      kind: "analyticsData#runReport",
    });
  });

  it("keyEvents counts the events currently marked as key events", async () => {
    const base = {
      dateRanges: LAST_WEEK,
      dimensions: [{ name: "eventName" }],
      metrics: [{ name: "eventCount" }, { name: "keyEvents" }],
    };
    const counts = async () =>
      new Map(rowsOf(await report(base)).map((r) => [dims(r)[0] ?? "", nums(r) as [number, number]]));
    s.world.keyEvents.set(SHOP, ["purchase"]);
    const before = await counts();
    expect(before.get("purchase")?.[1]).toBe(before.get("purchase")?.[0]);
    expect(before.get("sign_up")?.[1]).toBe(0);
    s.world.keyEvents.set(SHOP, ["purchase", "sign_up"]);
    const after = await counts();
    expect(after.get("sign_up")?.[1]).toBe(after.get("sign_up")?.[0]);
    expect(after.get("sign_up")?.[0]).toBeGreaterThan(0);
    const total = rowsOf(await report({ dateRanges: LAST_WEEK, metrics: [{ name: "keyEvents" }] }));
    expect(Number(total[0]?.metricValues?.[0]?.value)).toBe(
      (after.get("purchase")?.[0] ?? 0) + (after.get("sign_up")?.[0] ?? 0),
    );
    s.world.keyEvents.set(SHOP, ["purchase"]);
  });

  it("converts revenue to the requested currency and is deterministic", async () => {
    const body = { dateRanges: LAST_WEEK, metrics: [{ name: "totalRevenue" }] };
    const usd = await report(body);
    const eur = await report({ ...body, currencyCode: "EUR" });
    expect((eur.metadata as { currencyCode: string }).currencyCode).toBe("EUR");
    const dollars = Number(rowsOf(usd)[0]?.metricValues?.[0]?.value);
    expect(dollars).toBeGreaterThan(0);
    expect(Number(rowsOf(eur)[0]?.metricValues?.[0]?.value)).toBeCloseTo(dollars * 0.92, 0);
    const rich = {
      dateRanges: [{ startDate: "90daysAgo", endDate: "today" }],
      dimensions: [{ name: "date" }, { name: "sessionSourceMedium" }],
      metrics: [{ name: "sessions" }, { name: "engagementRate" }, { name: "totalRevenue" }],
    };
    const first = await s.post(RUN, rich);
    const second = await s.post(RUN, rich);
    expect(JSON.stringify(second.json)).toBe(JSON.stringify(first.json));
  });
});
