import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { runToolStep } from "../../../src/tools/run.js";
import { contextFor, FakeGa, STANDARD_METADATA } from "../../helpers/ga-fake-connector.js";

const ID = "google_analytics_run_reports";

async function refusal(ga: FakeGa, input: unknown): Promise<ValidationError> {
  const error = await runToolStep(ID, input, contextFor(ga)).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe("Run Reports", () => {
  it("builds the Data API request: split filters, orderBys, int64 strings, totals, quota", async () => {
    const ga = new FakeGa();
    ga.onRunReport = () => ({
      dimensionHeaders: [{ name: "date" }, { name: "country" }],
      metricHeaders: [
        { name: "sessions", type: "TYPE_INTEGER" },
        { name: "bounceRate", type: "TYPE_FLOAT" },
      ],
      rows: [
        {
          dimensionValues: [{ value: "20260105" }, { value: "France" }],
          metricValues: [{ value: "40" }, { value: "0.5" }],
        },
      ],
      totals: [
        {
          dimensionValues: [{ value: "RESERVED_TOTAL" }, { value: "RESERVED_TOTAL" }],
          metricValues: [{ value: "40" }, { value: "0.5" }],
        },
      ],
      rowCount: 1,
      metadata: { currencyCode: "EUR", timeZone: "Europe/Paris" },
      propertyQuota: {
        tokensPerHour: { consumed: 5, remaining: 39_990 },
        tokensPerDay: { consumed: 5, remaining: 199_990 },
      },
    });
    const result = await runToolStep(
      ID,
      {
        property: "properties/123",
        metrics: ["sessions", "bounceRate"],
        dimensions: ["date", "country"],
        date_ranges: [{ start_date: "2026-01-01", end_date: "2026-01-31" }],
        filter: 'country in ("France", "Germany") and sessions > 10',
        order_by: "-sessions,date",
        limit: 50,
      },
      contextFor(ga),
    );
    const [, body] = ga.callsOf("runReport")[0]?.args ?? [];
    expect(body).toEqual({
      dateRanges: [{ startDate: "2026-01-01", endDate: "2026-01-31" }],
      dimensions: [{ name: "date" }, { name: "country" }],
      metrics: [{ name: "sessions" }, { name: "bounceRate" }],
      dimensionFilter: { filter: { fieldName: "country", inListFilter: { values: ["France", "Germany"] } } },
      metricFilter: {
        filter: {
          fieldName: "sessions",
          numericFilter: { operation: "GREATER_THAN", value: { int64Value: "10" } },
        },
      },
      orderBys: [
        { desc: true, metric: { metricName: "sessions" } },
        { dimension: { dimensionName: "date" } },
      ],
      limit: "50",
      metricAggregations: ["TOTAL"],
      returnPropertyQuota: true,
    });
    expect(ga.callsOf("checkCompatibility")[0]?.args[1]).toMatchObject({
      compatibilityFilter: "INCOMPATIBLE",
    });
    expect(result.data).toMatchObject({
      property: "properties/123",
      rows: [{ date: "20260105", country: "France", sessions: 40, bounceRate: 0.5 }],
      row_count: 1,
      totals: [{ sessions: 40, bounceRate: 0.5 }],
      quota: { tokens_per_hour: { remaining: 39_990 }, tokens_per_day: { remaining: 199_990 } },
      metadata: { currency_code: "EUR", time_zone: "Europe/Paris" },
    });
    expect(result.summary).toMatch(/1 row of 1.*39,990 quota tokens left this hour/);
  });

  it("stops an unknown metric with did-you-mean before spending any report quota", async () => {
    const ga = new FakeGa();
    const error = await refusal(ga, { property: "123", metrics: ["sesions"], dimensions: ["contry"] });
    expect(error.field).toBe("metrics[0]");
    expect(error.message).toMatch(/"sesions" is not a metric.*did you mean "sessions"/);
    expect(error.message).toMatch(/dimensions\[0\]: "contry".*did you mean "country"/);
    expect(ga.callsOf("checkCompatibility")).toHaveLength(0);
    expect(ga.callsOf("runReport")).toHaveLength(0);
  });

  it("explains INCOMPATIBLE fields from checkCompatibility and runs nothing", async () => {
    const ga = new FakeGa();
    ga.onCompatibility = () => ({
      dimensionCompatibilities: [
        { dimensionMetadata: { apiName: "itemName" }, compatibility: "INCOMPATIBLE" },
        { dimensionMetadata: { apiName: "date" }, compatibility: "COMPATIBLE" },
      ],
      metricCompatibilities: [{ metricMetadata: { apiName: "sessions" }, compatibility: "INCOMPATIBLE" }],
    });
    const error = await refusal(ga, {
      property: "123",
      metrics: ["sessions"],
      dimensions: ["itemName", "date"],
    });
    expect(error.message).toMatch(/dimensions itemName and metrics sessions are incompatible/);
    expect(error.message).not.toMatch(/date/);
    expect(ga.callsOf("runReport")).toHaveLength(0);
  });

  it("matches a field asked for by its deprecated name (conversions) against GA's current name (keyEvents)", async () => {
    const ga = new FakeGa();
    ga.onCompatibility = () => ({
      metricCompatibilities: [{ metricMetadata: { apiName: "keyEvents" }, compatibility: "INCOMPATIBLE" }],
    });
    const error = await refusal(ga, { property: "123", metrics: ["conversions"], dimensions: ["country"] });
    expect(error.message).toMatch(/keyEvents/);
    expect(ga.callsOf("runReport")).toHaveLength(0);
  });

  it("reads the property once for a report with dates, and resolves calendar presets in its time zone", async () => {
    const ga = new FakeGa();
    ga.onRequest = () => ({ name: "properties/123", timeZone: "Pacific/Kiritimati" });
    await runToolStep(
      ID,
      { property: "123", metrics: ["sessions"], date_ranges: ["last7days"] },
      contextFor(ga),
    );
    // Its time zone and createTime (report-data-start.ts), one read; realtime reads none.
    expect(ga.callsOf("propertyFacts")).toHaveLength(1);
    await runToolStep(ID, { property: "123", metrics: ["activeUsers"], realtime: true }, contextFor(ga));
    expect(ga.callsOf("propertyFacts")).toHaveLength(1);
    await runToolStep(
      ID,
      { property: "123", metrics: ["sessions"], date_ranges: ["thisYear"] },
      contextFor(ga),
    );
    expect(ga.callsOf("propertyFacts")[1]?.args).toEqual(["123"]);
    const [, body] = ga.callsOf("runReport").at(-1)?.args ?? [];
    // UTC+14: the property's year may already have turned; either way the range is that zone's year.
    const year = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati", year: "numeric" }).format(
      new Date(),
    );
    expect(body).toMatchObject({ dateRanges: [{ startDate: `${year}-01-01` }] });
  });

  it("ignores INCOMPATIBLE fields the request does not use (they only could not be added)", async () => {
    const ga = new FakeGa();
    ga.onCompatibility = () => ({
      dimensionCompatibilities: [
        { dimensionMetadata: { apiName: "itemName" }, compatibility: "INCOMPATIBLE" },
        { dimensionMetadata: { apiName: "country" }, compatibility: "COMPATIBLE" },
      ],
      metricCompatibilities: [{ metricMetadata: { apiName: "itemRevenue" }, compatibility: "INCOMPATIBLE" }],
    });
    await runToolStep(
      ID,
      { property: "123", metrics: ["sessions"], dimensions: ["country"] },
      contextFor(ga),
    );
    expect(ga.callsOf("runReport")).toHaveLength(1);
  });

  it("skips the compatibility check for a single field and returns an empty report as a normal result", async () => {
    const ga = new FakeGa();
    ga.onRunReport = () => ({
      metricHeaders: [{ name: "sessions", type: "TYPE_INTEGER" }],
      kind: "analyticsData#runReport",
    });
    const result = await runToolStep(
      ID,
      { property: "123", metrics: ["sessions"], date_ranges: ["lastMonth"] },
      contextFor(ga),
    );
    expect(ga.callsOf("checkCompatibility")).toHaveLength(0);
    expect(result.data).toMatchObject({ rows: [], row_count: 0, totals: [] });
    const hints = (result.data as { hints: string[] }).hints;
    expect(hints).toContainEqual(expect.stringMatching(/No rows matched.*not an error/));
    expect(hints).toContainEqual(expect.stringMatching(/Calendar presets were resolved to UTC dates/));
  });

  it("refuses a mixed or before any call, and a G- id before touching the connector", async () => {
    const ga = new FakeGa();
    expect(
      (
        await refusal(ga, {
          property: "123",
          metrics: ["sessions"],
          filter: 'country == "FR" or sessions > 3',
        })
      ).message,
    ).toMatch(/under "or"/);
    expect(ga.callsOf("runReport")).toHaveLength(0);
    const fresh = new FakeGa();
    expect((await refusal(fresh, { property: "G-12AB", metrics: ["sessions"] })).field).toBe("property");
    expect(fresh.calls).toHaveLength(0);
  });

  it("says how to page when more rows exist, and notes data still being processed", async () => {
    const ga = new FakeGa();
    ga.onRunReport = () => ({
      dimensionHeaders: [{ name: "country" }],
      metricHeaders: [{ name: "sessions" }],
      rows: [{ dimensionValues: [{ value: "France" }], metricValues: [{ value: "1" }] }],
      rowCount: 30,
    });
    const result = await runToolStep(
      ID,
      {
        property: "123",
        metrics: ["sessions"],
        dimensions: ["country"],
        limit: 1,
        offset: 4,
        date_ranges: ["last7days"],
      },
      contextFor(ga),
    );
    const hints = (result.data as { hints: string[] }).hints.join("\n");
    expect(hints).toMatch(/Showing rows 5–5 of 30: call again with offset 5/);
    expect(hints).toMatch(/last 48 hours/);
    expect(ga.callsOf("runReport")[0]?.args[1]).toMatchObject({ offset: "4", limit: "1" });
  });

  it("runs realtime reports with minute ranges and trusts realtime-only names", async () => {
    const ga = new FakeGa();
    ga.onRealtime = () => ({
      dimensionHeaders: [{ name: "minutesAgo" }],
      metricHeaders: [{ name: "activeUsers" }],
    });
    await runToolStep(
      ID,
      {
        property: "123",
        metrics: ["activeUsers"],
        dimensions: ["minutesAgo"],
        realtime: true,
        minute_ranges: [{ start_minutes_ago: 10 }],
        filter: 'minutesAgo == "05"',
      },
      contextFor(ga),
    );
    expect(ga.callsOf("runReport")).toHaveLength(0);
    expect(ga.callsOf("checkCompatibility")).toHaveLength(0);
    expect(ga.callsOf("runRealtimeReport")[0]?.args[1]).toMatchObject({
      minuteRanges: [{ startMinutesAgo: 10, endMinutesAgo: 0 }],
      dimensionFilter: { filter: { fieldName: "minutesAgo" } },
    });
    expect(ga.callsOf("runRealtimeReport")[0]?.args[1]).not.toHaveProperty("dateRanges");
    expect(
      (
        await refusal(ga, {
          property: "123",
          metrics: ["activeUsers"],
          realtime: true,
          date_ranges: ["today"],
        })
      ).field,
    ).toBe("date_ranges");
  });

  it("accepts a raw GA FilterExpression and refuses names listed twice", async () => {
    const ga = new FakeGa();
    const raw = { notExpression: { filter: { fieldName: "country", emptyFilter: {} } } };
    await runToolStep(ID, { property: "123", metrics: ["sessions"], filter: raw }, contextFor(ga));
    expect(ga.callsOf("runReport")[0]?.args[1]).toMatchObject({ dimensionFilter: raw });
    expect(ga.callsOf("runReport")[0]?.args[1]).not.toHaveProperty("metricFilter");
    const error = await refusal(ga, { property: "123", metrics: ["sessions"], dimensions: ["date", "date"] });
    expect(error.field).toBe("dimensions");
    expect(error.message).toMatch(/"date" is listed twice/);
    const bad = await refusal(ga, {
      property: "123",
      metrics: ["sessions"],
      filter: { filter: { fieldName: "x" } },
    });
    expect(bad.field).toBe("filter");
  });

  it("refuses order_by fields outside the report", async () => {
    const error = await refusal(new FakeGa(), {
      property: "123",
      metrics: ["sessions"],
      order_by: "-country",
    });
    expect(error.field).toBe("order_by[0]");
  });

  it("reads the field list again before refusing a name, and takes the name when it is there now", async () => {
    const ga = new FakeGa();
    const input = { property: "123", metrics: ["sessions"], dimensions: ["customEvent:tier"] };
    const refused = await refusal(ga, input);
    expect(refused.message).toContain('"customEvent:tier" is not a dimension of this property');
    expect(ga.callsOf("refreshMetadata")).toHaveLength(1);
    expect(ga.callsOf("runReport")).toHaveLength(0);
    ga.refreshed = {
      ...STANDARD_METADATA,
      dimensions: [...(STANDARD_METADATA.dimensions ?? []), { apiName: "customEvent:tier" }],
    };
    await runToolStep(ID, input, contextFor(ga));
    expect(ga.callsOf("refreshMetadata")).toHaveLength(2);
    expect(ga.callsOf("runReport")).toHaveLength(1);
    // Known names never read the list again.
    await runToolStep(ID, input, contextFor(ga));
    expect(ga.callsOf("refreshMetadata")).toHaveLength(2);
  });

  it("refuses a funnel over three date ranges, or two with next actions, before anything is sent", async () => {
    for (const [funnel, date_ranges] of [
      [{ steps: ["session_start", "purchase"] }, ["last7days", "last28days", "last90days"]],
      [{ steps: ["session_start", "purchase"], next_action: "eventName" }, ["last7days", "last28days"]],
    ] as const) {
      const ga = new FakeGa();
      const error = await refusal(ga, { property: "123", funnel, date_ranges: [...date_ranges] });
      expect(error.field).toBe("date_ranges");
      expect(error.hint).toBe(
        "Give one date range, or two to compare the funnel's steps (without next_action).",
      );
      expect(ga.calls).toEqual([]);
    }
  });
});
