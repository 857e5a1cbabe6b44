import { describe, expect, it } from "vitest";
import { refused, sentFor } from "../../helpers/recording-connector.js";
import {
  API_CALL,
  API_CALL_BASE,
  KEY_EVENT_BASE,
  KEY_EVENTS,
  MARKETO,
  MARKETO_BASE,
  PROPERTIES,
  PROPERTY_BASE,
  REPORT,
  REPORT_BASE,
} from "../../helpers/step-inputs.js";

/**
 * No input silently ignored: an unknown field is an error naming the nearest accepted one (nothing is sent),
 * and the other spellings that are accepted mean exactly what the schema's own spelling means.
 */

describe("an alias and the schema's name with different values are refused, naming both", () => {
  it.each([
    [
      REPORT,
      {
        ...REPORT_BASE,
        date_ranges: ["last7days"],
        dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }],
      },
      "dateRanges",
      /both date_ranges and dateRanges are given, with different values; give only date_ranges/,
    ],
    [REPORT, { ...REPORT_BASE, propertyId: "456" }, "propertyId", /both property and propertyId/],
    [
      REPORT,
      { ...REPORT_BASE, order_by: "-sessions", orderBys: [{ metric: { metricName: "sessions" } }] },
      "orderBys",
      /both order_by and orderBys/,
    ],
    [
      REPORT,
      {
        ...REPORT_BASE,
        filter: "sessions > 3",
        dimensionFilter: { filter: { fieldName: "country", emptyFilter: {} } },
      },
      "dimensionFilter",
      /both filter and dimensionFilter are given/,
    ],
    [
      MARKETO,
      { ...MARKETO_BASE, query_parameters: { id: 1 }, queryParameters: { id: 2 } },
      "queryParameters",
      /both query_parameters and queryParameters/,
    ],
    [
      MARKETO,
      { ...MARKETO_BASE, queryParameters: { id: 1 }, query: { id: 2 } },
      "query",
      /both queryParameters and query/,
    ],
    [KEY_EVENTS, { ...KEY_EVENT_BASE, eventName: "purchase" }, "eventName", /both event_name and eventName/],
    [PROPERTIES, { ...PROPERTY_BASE, parent: "accounts/78" }, "parent", /both analytics_account and parent/],
    [
      API_CALL,
      { ...API_CALL_BASE, method: "GET", Method: "POST" },
      "Method",
      /unknown field; did you mean method\?/,
    ],
  ])("%s %j", async (id, input, field, message) => {
    const error = await refused(id, input);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it("the same value under both names is accepted", async () => {
    const sent = await sentFor(MARKETO, {
      ...MARKETO_BASE,
      query_parameters: { id: 1 },
      queryParameters: { id: 1 },
    });
    expect(sent).toMatchObject([{ query: { id: 1 } }]);
    await sentFor(REPORT, {
      ...REPORT_BASE,
      date_ranges: [{ start_date: "2026-10-01", end_date: "2026-10-31" }],
      dateRanges: [{ startDate: "2026-10-01", endDate: "2026-10-31" }],
    });
  });
});
