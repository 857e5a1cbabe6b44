import { describe, expect, it } from "vitest";
import { flattenReport, quotaSummary, responseHints } from "../../../src/tools/ga/report-flatten.js";

describe("flattenReport", () => {
  it("keys rows by header name, with numbers for every metric type and raw strings for dimensions", () => {
    const flat = flattenReport({
      dimensionHeaders: [{ name: "date" }, { name: "country" }],
      metricHeaders: [
        { name: "sessions", type: "TYPE_INTEGER" },
        { name: "bounceRate", type: "TYPE_FLOAT" },
        { name: "totalRevenue", type: "TYPE_CURRENCY" },
        { name: "userEngagementDuration", type: "TYPE_SECONDS" },
      ],
      rows: [
        {
          dimensionValues: [{ value: "20261120" }, { value: "France" }],
          metricValues: [{ value: "15" }, { value: "0.4375" }, { value: "12.5" }, { value: "360" }],
        },
        { dimensionValues: [{ value: "20261119" }, {}], metricValues: [{ value: "3" }, { value: "odd" }] },
      ],
      totals: [
        {
          dimensionValues: [{ value: "RESERVED_TOTAL" }, { value: "RESERVED_TOTAL" }],
          metricValues: [{ value: "18" }, { value: "0.4" }, { value: "12.5" }, { value: "400" }],
        },
      ],
      rowCount: 42,
    });
    expect(flat.rows[0]).toEqual({
      date: "20261120",
      country: "France",
      sessions: 15,
      bounceRate: 0.4375,
      totalRevenue: 12.5,
      userEngagementDuration: 360,
    });
    expect(flat.rows[1]).toEqual({
      date: "20261119",
      country: null,
      sessions: 3,
      bounceRate: "odd",
      totalRevenue: null,
      userEngagementDuration: null,
    });
    expect(flat.totals).toEqual([
      { sessions: 18, bounceRate: 0.4, totalRevenue: 12.5, userEngagementDuration: 400 },
    ]);
    expect(flat.rowCount).toBe(42);
  });

  it("treats a report without rows and rowCount (proto3 defaults) as empty", () => {
    const flat = flattenReport({
      dimensionHeaders: [{ name: "country" }],
      metricHeaders: [{ name: "sessions" }],
    });
    expect(flat).toEqual({ rows: [], totals: [], rowCount: 0 });
  });
});

describe("quota and hints", () => {
  it("keeps hourly and daily tokens and warns when they run low", () => {
    const quota = quotaSummary({
      tokensPerHour: { consumed: 12, remaining: 800 },
      tokensPerDay: { consumed: 12, remaining: 199_000 },
      concurrentRequests: { remaining: 10 },
    });
    expect(quota).toEqual({
      tokens_per_hour: { consumed: 12, remaining: 800 },
      tokens_per_day: { consumed: 12, remaining: 199_000 },
    });
    expect(responseHints(undefined, quota)).toEqual([
      expect.stringMatching(/Only 800 quota tokens are left this hour/),
    ]);
    expect(quotaSummary(undefined)).toBeUndefined();
  });

  it("explains sampling, thresholding, (other) rows and restricted metrics", () => {
    const hints = responseHints(
      {
        samplingMetadatas: [{ samplesReadCount: "1000", samplingSpaceSize: "4000" }],
        subjectToThresholding: true,
        dataLossFromOtherRow: true,
        schemaRestrictionResponse: {
          activeMetricRestrictions: [{ metricName: "totalRevenue", restrictedMetricTypes: ["REVENUE_DATA"] }],
        },
      },
      undefined,
    );
    expect(hints.join("\n")).toMatch(/read 1000 of 4000 events \(25\.0%\)/);
    expect(hints.join("\n")).toMatch(/Thresholding/);
    expect(hints.join("\n")).toMatch(/\(other\)/);
    expect(hints.join("\n")).toMatch(/totalRevenue is restricted.*REVENUE_DATA/);
  });
});
