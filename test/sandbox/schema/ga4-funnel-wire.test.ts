/**
 * The sandbox's runFunnelReport (Data API v1alpha) answers in the shape of Google's reference. There is no
 * v1alpha discovery document among the stored definitions (test/fixtures/real-api has v1beta only), so the
 * response schema is written here from the reference,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport
 * (Response body: funnelTable, funnelVisualization, propertyQuota, kind; FunnelSubReport: dimensionHeaders,
 * metricHeaders, rows, metadata; FunnelResponseMetadata: samplingMetadatas), with the messages v1alpha
 * shares with v1beta (DimensionHeader, MetricHeader, Row, PropertyQuota, SamplingMetadata...) taken from
 * the v1beta discovery document. Objects are closed, as for the discovery shapes.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { ANALYST, accessToken, call, loopbackOnly, withSandbox } from "../../helpers/google-sandbox.js";

loopbackOnly();

const SHARED = [
  "DimensionHeader",
  "MetricHeader",
  "Row",
  "DimensionValue",
  "MetricValue",
  "PropertyQuota",
  "QuotaStatus",
  "SamplingMetadata",
];

/** A discovery schema as a closed JSON Schema ($ref "Name" → #/definitions/Name). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "id") continue;
    if (key === "$ref") out.$ref = `#/definitions/${String(value)}`;
    else if (key === "properties")
      out.properties = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, closed(v)]));
    else out[key] = closed(value);
  }
  if (out.properties !== undefined) out.additionalProperties = false;
  return out;
}

function funnelValidator() {
  const v1beta = JSON.parse(
    readFileSync(new URL("../../fixtures/real-api/ga4-data.json", import.meta.url), "utf8"),
  ) as { definitions: Record<string, unknown> };
  const definitions: Record<string, unknown> = Object.fromEntries(
    SHARED.map((name) => [name, closed(v1beta.definitions[name])]),
  );
  definitions.FunnelSubReport = closed({
    type: "object",
    properties: {
      dimensionHeaders: { type: "array", items: { $ref: "DimensionHeader" } },
      metricHeaders: { type: "array", items: { $ref: "MetricHeader" } },
      rows: { type: "array", items: { $ref: "Row" } },
      metadata: {
        type: "object",
        properties: { samplingMetadatas: { type: "array", items: { $ref: "SamplingMetadata" } } },
      },
    },
  });
  const response = closed({
    type: "object",
    properties: {
      funnelTable: { $ref: "FunnelSubReport" },
      funnelVisualization: { $ref: "FunnelSubReport" },
      propertyQuota: { $ref: "PropertyQuota" },
      kind: { type: "string", enum: ["analyticsData#runFunnelReport"] },
    },
  }) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  // Discovery number formats are checked by type only, as test/helpers/wire/schemas.ts does.
  for (const name of ["int32", "int64"]) ajv.addFormat(name, true);
  return ajv.compile({ ...response, definitions });
}

const SHOP = "412345671";
const steps = (...events: string[]) =>
  events.map((eventName) => ({ name: eventName, filterExpression: { funnelEventFilter: { eventName } } }));

describe("runFunnelReport (v1alpha) on the sandbox", () => {
  const sandbox = withSandbox({ now: () => Date.parse("2025-03-03T12:00:00.000Z") });
  const validate = funnelValidator();
  const post = async (body: unknown, version = "v1alpha") => {
    const s = sandbox();
    const token = await accessToken(s, ANALYST);
    return call(`${s.dataApiUrl}/${version}/properties/${SHOP}:runFunnelReport`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  };

  it("answers in the reference's shape, standard and trended, with breakdown, next action and quota", async () => {
    const dateRanges = [{ startDate: "2025-02-01", endDate: "2025-02-28" }];
    const bodies = [
      {
        dateRanges,
        funnel: { steps: steps("session_start", "view_item", "purchase") },
        returnPropertyQuota: true,
      },
      {
        dateRanges,
        funnel: { isOpenFunnel: true, steps: steps("view_item", "add_to_cart") },
        funnelBreakdown: { breakdownDimension: { name: "deviceCategory" }, limit: 2 },
        funnelNextAction: { nextActionDimension: { name: "eventName" }, limit: 3 },
      },
      {
        dateRanges,
        funnel: { steps: steps("session_start", "purchase") },
        funnelVisualizationType: "TRENDED_FUNNEL",
      },
    ];
    const [plain, detailed, trended] = await Promise.all(bodies.map((b) => post(b)));
    for (const reply of [plain, detailed, trended]) {
      expect(reply!.status, JSON.stringify(reply!.body)).toBe(200);
      expect(validate(reply!.body), JSON.stringify(validate.errors)).toBe(true);
    }
    const table = plain!.body.funnelTable as {
      dimensionHeaders: unknown[];
      metricHeaders: { name: string }[];
      rows: { dimensionValues: { value: string }[] }[];
    };
    expect(table.dimensionHeaders).toEqual([{ name: "funnelStepName" }]);
    expect(table.metricHeaders.map((h) => h.name)).toEqual([
      "activeUsers",
      "completionRate",
      "abandonments",
      "abandonmentRate",
    ]);
    expect(table.rows.map((r) => r.dimensionValues[0]!.value)).toEqual([
      "1. session_start",
      "2. view_item",
      "3. purchase",
    ]);
    expect(plain!.body.propertyQuota).toBeDefined();
    expect(detailed!.body.propertyQuota).toBeUndefined();
    const breakdown = detailed!.body.funnelTable as { dimensionHeaders: unknown[]; rows: unknown[] };
    expect(breakdown.dimensionHeaders).toEqual([{ name: "funnelStepName" }, { name: "deviceCategory" }]);
    expect(breakdown.rows).toHaveLength(2 * (1 + 2)); // RESERVED_TOTAL and the 2 largest values per step
    const next = detailed!.body.funnelVisualization as { dimensionHeaders: unknown[]; rows: unknown[] };
    expect(next.dimensionHeaders).toEqual([{ name: "funnelStepName" }, { name: "eventName" }]);
    expect(next.rows).toHaveLength(2 * 3);
    const days = trended!.body.funnelVisualization as { dimensionHeaders: unknown[]; rows: unknown[] };
    expect(days.dimensionHeaders).toEqual([{ name: "date" }, { name: "funnelStepName" }]);
    expect(days.rows).toHaveLength(2 * 28);
  });

  it("dimensionFilter narrows every step: a device filter gives that device's breakdown row", async () => {
    const dateRanges = [{ startDate: "2025-02-01", endDate: "2025-02-28" }];
    const funnel = { steps: steps("session_start", "view_item", "add_to_cart") };
    const rowsOf = (reply: { body: Record<string, unknown> }) =>
      (
        reply.body.funnelTable as {
          rows: { dimensionValues: { value: string }[]; metricValues: { value: string }[] }[];
        }
      ).rows;
    const byDevice = rowsOf(
      await post({ dateRanges, funnel, funnelBreakdown: { breakdownDimension: { name: "deviceCategory" } } }),
    );
    const desktop = rowsOf(
      await post({
        dateRanges,
        funnel,
        dimensionFilter: { filter: { fieldName: "deviceCategory", stringFilter: { value: "desktop" } } },
      }),
    );
    const expected = byDevice
      .filter((r) => r.dimensionValues[1]!.value === "desktop")
      .map((r) => r.metricValues);
    expect(expected).toHaveLength(3);
    expect(desktop.map((r) => r.metricValues)).toEqual(expected);
  });

  it("breaks a step down into at most 5 values when no limit is given (FunnelBreakdown.limit's default)", async () => {
    const dateRanges = [{ startDate: "2025-02-01", endDate: "2025-02-28" }];
    const reply = await post({
      dateRanges,
      funnel: { steps: steps("session_start") },
      funnelBreakdown: { breakdownDimension: { name: "country" } },
    });
    const rows = (reply.body.funnelTable as { rows: { dimensionValues: { value: string }[] }[] }).rows;
    expect(rows.map((r) => r.dimensionValues[1]?.value).filter((v) => v !== "RESERVED_TOTAL")).toHaveLength(
      5,
    );
  });

  it("refuses invalid requests with 400 INVALID_ARGUMENT naming the field, and v1beta has no runFunnelReport", async () => {
    const dateRanges = [{ startDate: "2025-02-01", endDate: "2025-02-28" }];
    const cases: [unknown, RegExp][] = [
      [{ dateRanges }, /funnel is required/],
      [{ dateRanges, funnel: { steps: [] } }, /funnel\.steps must hold at least one step/],
      [
        { dateRanges, funnel: { steps: [{ name: "a" }] } },
        /funnel\.steps\[0\]\.filterExpression is required/,
      ],
      [
        { dateRanges, funnel: { steps: [{ name: "a", filterExpression: { funnelEventFilter: {} } }] } },
        /eventName is required/,
      ],
      [
        { dateRanges, funnel: { steps: steps("purchase") }, funnelVisualizationType: "PIE" },
        /funnelVisualizationType/,
      ],
      [
        {
          dateRanges,
          funnel: { steps: steps("purchase") },
          funnelBreakdown: { breakdownDimension: { name: "nope" } },
        },
        /Field nope is not a valid dimension/,
      ],
      [{ dateRanges, funnel: { steps: steps("purchase") }, metrics: [] }, /metrics/],
      [
        {
          dateRanges,
          funnel: { steps: steps("purchase") },
          funnelBreakdown: { breakdownDimension: { name: "country" }, limit: 16 },
        },
        /funnelBreakdown\.limit cannot exceed 15/,
      ],
    ];
    for (const [body, message] of cases) {
      const reply = await post(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      const error = reply.body.error as { status: string; message: string };
      expect(error.status).toBe("INVALID_ARGUMENT");
      expect(error.message).toMatch(message);
    }
    const beta = await post({ dateRanges, funnel: { steps: steps("purchase") } }, "v1beta");
    expect(beta.status).toBe(404);
  });
});
