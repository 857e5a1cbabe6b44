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

const P = `/v1beta/properties/${SHOP}`;
const LAST_MONTH = [{ startDate: "28daysAgo", endDate: "yesterday" }];

describe("realtime, batch, pivot, metadata and checkCompatibility", () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.close());

  it("runRealtimeReport: last 30 minutes, realtime fields, no metadata, its own kind, stable within a minute", async () => {
    const body = {
      dimensions: [{ name: "minutesAgo" }],
      metrics: [{ name: "activeUsers" }, { name: "eventCount" }],
    };
    const { status, json } = await s.post(`${P}:runRealtimeReport`, body);
    expect(status).toBe(200);
    expect(json.kind).toBe("analyticsData#runRealtimeReport");
    expect(json.metadata).toBeUndefined();
    expect(json.metricHeaders).toEqual([
      { name: "activeUsers", type: "TYPE_INTEGER" },
      { name: "eventCount", type: "TYPE_INTEGER" },
    ]);
    const minutes = rowsOf(json).map((r) => dims(r)[0] ?? "");
    expect(minutes.length).toBe(30);
    expect(minutes.every((m) => /^\d\d$/.test(m) && Number(m) <= 29)).toBe(true);
    expect(JSON.stringify((await s.post(`${P}:runRealtimeReport`, body)).json)).toBe(JSON.stringify(json));
    const two = await s.post(`${P}:runRealtimeReport`, {
      metrics: [{ name: "eventCount" }],
      minuteRanges: [
        { startMinutesAgo: 29, endMinutesAgo: 15 },
        { startMinutesAgo: 14, endMinutesAgo: 0, name: "recent" },
      ],
    });
    expect(two.json.dimensionHeaders).toEqual([{ name: "dateRange" }]);
    const perRange = rowsOf(two.json).map((r) => nums(r)[0] ?? 0);
    expect(sum(perRange)).toBe(sum(rowsOf(json).map((r) => nums(r)[1] ?? 0)));
    const wrong = await s.post(`${P}:runRealtimeReport`, {
      dimensions: [{ name: "date" }],
      metrics: [{ name: "activeUsers" }],
    });
    expect(wrong.status).toBe(400);
    expect((wrong.json.error as { message: string }).message).toMatch(/realtime-api-schema/);
    const tooOld = await s.post(`${P}:runRealtimeReport`, { minuteRanges: [{ startMinutesAgo: 45 }] });
    expect(tooOld.status).toBe(400);
    const empty = await s.post(`/v1beta/properties/${EMPTY}:runRealtimeReport`, {
      metrics: [{ name: "activeUsers" }],
    });
    expect(empty.json.rows).toBeUndefined();
  });

  it("batchRunReports runs 2 reports equal to the single calls; more than 5 is a 400", async () => {
    const a = { dateRanges: LAST_MONTH, dimensions: [{ name: "country" }], metrics: [{ name: "sessions" }] };
    const b = {
      dateRanges: LAST_MONTH,
      dimensions: [{ name: "eventName" }],
      metrics: [{ name: "eventCount" }],
    };
    const { status, json } = await s.post(`${P}:batchRunReports`, { requests: [a, b] });
    expect(status).toBe(200);
    expect(json.kind).toBe("analyticsData#batchRunReports");
    const reports = json.reports as Record<string, unknown>[];
    expect(reports).toHaveLength(2);
    expect(reports[0]).toEqual((await s.post(`${P}:runReport`, a)).json);
    expect(reports[1]).toEqual((await s.post(`${P}:runReport`, b)).json);
    const six = await s.post(`${P}:batchRunReports`, { requests: Array(6).fill(a) });
    expect(six.status).toBe(400);
    const bad = await s.post(`${P}:batchRunReports`, {
      requests: [a, { ...b, metrics: [{ name: "nope" }] }],
    });
    expect((bad.json.error as { message: string }).message).toMatch(
      /^requests\[1\]: Field nope is not a valid metric/,
    );
  });

  it("runPivotReport: pivot headers with rowCount, cells of the selected combinations, column totals", async () => {
    const body = {
      dateRanges: LAST_MONTH,
      dimensions: [{ name: "country" }, { name: "deviceCategory" }],
      metrics: [{ name: "sessions" }],
      pivots: [
        { fieldNames: ["country"], limit: 3, orderBys: [{ metric: { metricName: "sessions" }, desc: true }] },
        { fieldNames: ["deviceCategory"], limit: "5", metricAggregations: ["TOTAL"] },
      ],
    };
    const { status, json } = await s.post(`${P}:runPivotReport`, body);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.kind).toBe("analyticsData#runPivotReport");
    const headers = json.pivotHeaders as {
      pivotDimensionHeaders: { dimensionValues: { value: string }[] }[];
      rowCount: number;
    }[];
    const countries = headers[0]?.pivotDimensionHeaders.map((h) => h.dimensionValues[0]?.value);
    const flat = await s.post(`${P}:runReport`, {
      dateRanges: LAST_MONTH,
      dimensions: [{ name: "country" }],
      metrics: [{ name: "sessions" }],
      orderBys: [{ metric: { metricName: "sessions" }, desc: true }],
    });
    expect(countries).toEqual(
      rowsOf(flat.json)
        .slice(0, 3)
        .map((r) => dims(r)[0]),
    );
    expect(headers[0]?.rowCount).toBe(flat.json.rowCount);
    expect(headers[1]?.rowCount).toBe(3);
    const cells = rowsOf(json);
    expect(new Set(cells.map((r) => dims(r)[0]))).toEqual(new Set(countries));
    const topCountry = sum(cells.filter((r) => dims(r)[0] === countries?.[0]).map((r) => nums(r)[0] ?? 0));
    expect(topCountry).toBe(nums(rowsOf(flat.json)[0] ?? { dimensionValues: [], metricValues: [] })[0]);
    const aggregates = json.aggregates as { dimensionValues: { value: string }[] }[];
    expect(aggregates.every((a) => a.dimensionValues[0]?.value === "RESERVED_TOTAL")).toBe(true);
    const missingLimit = await s.post(`${P}:runPivotReport`, {
      ...body,
      pivots: [{ fieldNames: ["country", "deviceCategory"] }],
    });
    expect(missingLimit.status).toBe(400);
    const batch = await s.post(`${P}:batchRunPivotReports`, { requests: [body] });
    expect(batch.json.kind).toBe("analyticsData#batchRunPivotReports");
    expect((batch.json.pivotReports as unknown[])[0]).toEqual(json);
  });

  it("metadata lists every field the engine accepts, for a property and for universal property 0", async () => {
    const { status, json } = await s.get(`${P}/metadata`);
    expect(status).toBe(200);
    expect(json.name).toBe(`properties/${SHOP}/metadata`);
    const dimensions = json.dimensions as {
      apiName: string;
      customDefinition: boolean;
      uiName: string;
      category: string;
    }[];
    const metrics = json.metrics as { apiName: string; type: string }[];
    const used = [
      "date",
      "country",
      "continent",
      "deviceCategory",
      "sessionSource",
      "sessionMedium",
      "pagePath",
      "eventName",
      "itemName",
    ];
    for (const name of used) expect(dimensions.map((d) => d.apiName)).toContain(name);
    expect(dimensions.every((d) => d.customDefinition === false && d.uiName && d.category)).toBe(true);
    expect(metrics.find((m) => m.apiName === "totalRevenue")?.type).toBe("TYPE_CURRENCY");
    // Every listed field really works in a report (cohort fields need a cohortSpec, which is refused).
    for (const d of dimensions.filter(
      (x) => !x.apiName.startsWith("item") && !x.apiName.startsWith("cohort"),
    )) {
      const r = await s.post(`${P}:runReport`, {
        dateRanges: LAST_MONTH,
        dimensions: [{ name: d.apiName }],
        metrics: [{ name: "eventCount" }],
        limit: 1,
      });
      expect(r.status, d.apiName).toBe(200);
    }
    const report = await s.post(`${P}:runReport`, {
      dateRanges: LAST_MONTH,
      metrics: metrics
        .filter((m) => !m.apiName.startsWith("item"))
        .slice(0, 10)
        .map((m) => ({ name: m.apiName })),
    });
    expect(report.status).toBe(200);
    const universal = await s.get("/v1beta/properties/0/metadata");
    expect(universal.json.name).toBe("properties/0/metadata");
    expect(universal.json.dimensions).toEqual(json.dimensions);
  });

  it("checkCompatibility marks item-scoped fields incompatible with session metrics and honours compatibilityFilter", async () => {
    const { status, json } = await s.post(`${P}:checkCompatibility`, { metrics: [{ name: "sessions" }] });
    expect(status).toBe(200);
    const dimensions = json.dimensionCompatibilities as {
      dimensionMetadata: { apiName: string };
      compatibility: string;
    }[];
    const verdict = (name: string) =>
      dimensions.find((d) => d.dimensionMetadata.apiName === name)?.compatibility;
    expect(verdict("country")).toBe("COMPATIBLE");
    expect(verdict("itemName")).toBe("INCOMPATIBLE");
    const onlyBad = await s.post(`${P}:checkCompatibility`, {
      dimensions: [{ name: "itemName" }],
      compatibilityFilter: "INCOMPATIBLE",
    });
    const metrics = onlyBad.json.metricCompatibilities as {
      metricMetadata: { apiName: string };
      compatibility: string;
    }[];
    expect(metrics.every((m) => m.compatibility === "INCOMPATIBLE")).toBe(true);
    expect(metrics.map((m) => m.metricMetadata.apiName)).toContain("sessions");
    expect(metrics.map((m) => m.metricMetadata.apiName)).not.toContain("itemRevenue");
    const viaFilter = await s.post(`${P}:checkCompatibility`, {
      dimensionFilter: { filter: { fieldName: "itemName", stringFilter: { value: "Hoodie" } } },
      compatibilityFilter: "COMPATIBLE",
    });
    const compatible = (
      viaFilter.json.metricCompatibilities as { metricMetadata: { apiName: string } }[]
    ).map((m) => m.metricMetadata.apiName);
    expect(compatible).toContain("itemRevenue");
    expect(compatible).toContain("itemsPurchased");
    expect(compatible.every((name) => /^(items?[A-Z]|grossItem)/.test(name))).toBe(true);
    const items = await s.post(`${P}:runReport`, {
      dateRanges: LAST_MONTH,
      dimensions: [{ name: "itemName" }],
      metrics: [{ name: "itemRevenue" }],
    });
    expect(rowsOf(items.json).length).toBeGreaterThan(0);
  });
});
