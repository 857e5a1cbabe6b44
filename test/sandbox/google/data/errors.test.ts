import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EDIT_ONLY_TOKEN,
  FOREIGN,
  type Sandbox,
  SHOP,
  startSandbox,
} from "../../../helpers/ga-data-sandbox.js";

const RUN = `/v1beta/properties/${SHOP}:runReport`;
const VALID = {
  dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
  dimensions: [{ name: "country" }],
  metrics: [{ name: "sessions" }],
};

describe("Data API errors (google.rpc.Status)", () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await startSandbox();
  });
  afterAll(() => s.close());

  const expectError = async (
    call: Promise<{ status: number; json: Record<string, unknown> }>,
    code: number,
    status: string,
    message?: string | RegExp,
  ) => {
    const { status: http, json } = await call;
    expect(http).toBe(code);
    const error = json.error as { code: number; status: string; message: string };
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    if (typeof message === "string") expect(error.message).toBe(message);
    else if (message) expect(error.message).toMatch(message);
    return error;
  };

  it("unknown dimension and metric: 400 with the real wording and the schema link", async () => {
    await expectError(
      s.post(RUN, { ...VALID, dimensions: [{ name: "foo" }] }),
      400,
      "INVALID_ARGUMENT",
      "Field foo is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema",
    );
    await expectError(
      s.post(RUN, { ...VALID, metrics: [{ name: "conversionz" }] }),
      400,
      "INVALID_ARGUMENT",
      /^Field conversionz is not a valid metric\./,
    );
  });

  it("incompatible requests are 400: realtime-only dimension, metric filter on a dimension, item × session", async () => {
    await expectError(
      s.post(RUN, { ...VALID, dimensions: [{ name: "minutesAgo" }] }),
      400,
      "INVALID_ARGUMENT",
      /minutesAgo.*runRealtimeReport/,
    );
    await expectError(
      s.post(RUN, {
        ...VALID,
        metricFilter: { filter: { fieldName: "country", stringFilter: { value: "France" } } },
      }),
      400,
      "INVALID_ARGUMENT",
      /Field country is a dimension; metricFilter accepts only metrics/,
    );
    await expectError(
      s.post(RUN, { ...VALID, dimensions: [{ name: "itemName" }] }),
      400,
      "INVALID_ARGUMENT",
      /^Please remove sessions to make the request compatible\./,
    );
  });

  it("rejects bad request values: limit, dates, too many fields, property mismatch, unknown JSON names", async () => {
    await expectError(
      s.post(RUN, { ...VALID, limit: "0" }),
      400,
      "INVALID_ARGUMENT",
      /limit must be positive/,
    );
    await expectError(
      s.post(RUN, { ...VALID, limit: -5 }),
      400,
      "INVALID_ARGUMENT",
      /limit must be positive/,
    );
    await expectError(s.post(RUN, { ...VALID, offset: "abc" }), 400, "INVALID_ARGUMENT", /offset/);
    await expectError(
      s.post(RUN, { ...VALID, dateRanges: [{ startDate: "yesterday", endDate: "7daysAgo" }] }),
      400,
      "INVALID_ARGUMENT",
      /startDate cannot be after endDate/,
    );
    await expectError(
      s.post(RUN, { ...VALID, dateRanges: [{ startDate: "2025-02-30", endDate: "today" }] }),
      400,
      "INVALID_ARGUMENT",
      /2025-02-30/,
    );
    const five = Array.from({ length: 5 }, () => ({ startDate: "today", endDate: "today" }));
    await expectError(s.post(RUN, { ...VALID, dateRanges: five }), 400, "INVALID_ARGUMENT", /4 dateRanges/);
    const ten = [
      "date",
      "year",
      "month",
      "day",
      "week",
      "country",
      "countryId",
      "continent",
      "platform",
      "hostName",
    ];
    await expectError(
      s.post(RUN, { ...VALID, dimensions: ten.map((name) => ({ name })) }),
      400,
      "INVALID_ARGUMENT",
      /9 dimensions/,
    );
    await expectError(
      s.post(RUN, { ...VALID, property: "properties/1" }),
      400,
      "INVALID_ARGUMENT",
      /does not match/,
    );
    const ok = await s.post(RUN, { ...VALID, property: `properties/${SHOP}` });
    expect(ok.status).toBe(200);
    await expectError(
      s.post(RUN, { ...VALID, dimension: [{ name: "country" }] }),
      400,
      "INVALID_ARGUMENT",
      'Invalid JSON payload received. Unknown name "dimension": Cannot find field.',
    );
    await expectError(s.post(RUN, "{not json"), 400, "INVALID_ARGUMENT", /^Invalid JSON payload received/);
    await expectError(
      s.post(RUN, { ...VALID, orderBys: [{ metric: { metricName: "eventCount" } }] }),
      400,
      "INVALID_ARGUMENT",
      /metricName 'eventCount' must be one of the metrics in the request/,
    );
  });

  it("401 without or with an unknown token, with a WWW-Authenticate challenge", async () => {
    await expectError(
      s.post(RUN, VALID, null),
      401,
      "UNAUTHENTICATED",
      /^Request had invalid authentication credentials/,
    );
    await expectError(s.post(RUN, VALID, "ya29.unknown"), 401, "UNAUTHENTICATED");
    const response = await fetch(`${s.base}${RUN}`, { method: "POST", body: JSON.stringify(VALID) });
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("403 for unknown, unreachable or non-numeric properties and for tokens without a Data API scope", async () => {
    const denied = "User does not have sufficient permissions for this property.";
    await expectError(s.post("/v1beta/properties/999999:runReport", VALID), 403, "PERMISSION_DENIED", denied);
    await expectError(
      s.post(`/v1beta/properties/${FOREIGN}:runReport`, VALID),
      403,
      "PERMISSION_DENIED",
      denied,
    );
    await expectError(s.get(`/v1beta/properties/${FOREIGN}/metadata`), 403, "PERMISSION_DENIED", denied);
    await expectError(
      s.post("/v1beta/properties/abc:runReport", VALID),
      400,
      "INVALID_ARGUMENT",
      /^Invalid property ID: abc/,
    );
    const error = await expectError(
      s.post(RUN, VALID, EDIT_ONLY_TOKEN),
      403,
      "PERMISSION_DENIED",
      "Request had insufficient authentication scopes.",
    );
    expect(JSON.stringify(error)).toContain("ACCESS_TOKEN_SCOPE_INSUFFICIENT");
  });

  it("404 NOT_FOUND for unknown paths and methods", async () => {
    await expectError(s.post(`/v1beta/properties/${SHOP}:runReports`, VALID), 404, "NOT_FOUND");
    await expectError(s.get(RUN), 404, "NOT_FOUND");
    await expectError(s.get("/v1/properties/1/metadata"), 404, "NOT_FOUND");
  });
});
