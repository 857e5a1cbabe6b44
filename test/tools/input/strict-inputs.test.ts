import { describe, expect, it } from "vitest";
import { normaliseInput } from "../../../src/tools/input/normalise.js";
import { getToolStep } from "../../../src/tools/registry.js";
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

describe("an unknown field is refused with the nearest accepted name", () => {
  it.each([
    [MARKETO, { ...MARKETO_BASE, query_paramters: { id: 1 } }, "query_paramters", "query_parameters"],
    [MARKETO, { method: "GET", path: "/rest/v1/leads.json" }, "path", "endpoint"],
    [MARKETO, { ...MARKETO_BASE, params: { id: 1 } }, "params", "query_parameters"],
    [MARKETO, { ...MARKETO_BASE, paginate: true, maxPage: 3 }, "maxPage", "max_pages"],
    [REPORT, { ...REPORT_BASE, dateRange: ["last7days"] }, "dateRange", "date_ranges"],
    [REPORT, { ...REPORT_BASE, metric: ["sessions"] }, "metric", "metrics"],
    [REPORT, { ...REPORT_BASE, sort: "-sessions" }, "sort", "order_by"],
    [
      REPORT,
      { ...REPORT_BASE, date_ranges: [{ start_date: "2026-01-01", end_date: "2026-01-31", nmae: "jan" }] },
      "date_ranges[0].nmae",
      "name",
    ],
    [
      REPORT,
      { ...REPORT_BASE, realtime: true, minute_ranges: [{ start_minutes_ago: 5, endMinuteAgo: 0 }] },
      "minute_ranges[0].endMinuteAgo",
      "end_minutes_ago",
    ],
    [
      REPORT,
      { ...REPORT_BASE, order_by: [{ field: "sessions", descending: true }] },
      "order_by[0].descending",
      "desc",
    ],
    [KEY_EVENTS, { ...KEY_EVENT_BASE, countingMethd: "ONCE_PER_EVENT" }, "countingMethd", "counting_method"],
    [KEY_EVENTS, { property: "123", eventname: "sign_up" }, "eventname", "event_name"],
    [PROPERTIES, { ...PROPERTY_BASE, timezone: "UTC" }, "timezone", "time_zone"],
    [PROPERTIES, { ...PROPERTY_BASE, industry: "SHOPPING" }, "industry", "industry_category"],
    [API_CALL, { ...API_CALL_BASE, queryParams: { pageSize: 5 } }, "queryParams", "query_parameters"],
    [API_CALL, { ...API_CALL_BASE, api_name: "admin" }, "api_name", "api"],
  ])("%s %j", async (id, input, field, nearest) => {
    const error = await refused(id, input);
    expect(error.field).toBe(field);
    expect(error.message).toContain(`did you mean ${nearest}?`);
    expect(error.message).toMatch(/Accepted here: .*\bnothing was sent/);
  });

  it("names every unknown field at once, and not the field an unknown one stands for as missing", async () => {
    const error = await refused(MARKETO, { method: "GET", url: "/rest/v1/leads.json", qs: { a: 1 } });
    expect(error.field).toBe("url");
    expect(error.message).toMatch(/url: unknown field; did you mean endpoint\?/);
    expect(error.message).toMatch(/qs: unknown field; did you mean query_parameters\?/);
    expect(error.message).not.toMatch(/endpoint: required/);
  });

  it("a flood of unknown keys is refused in one cheap pass: the first five named, the rest counted", async () => {
    const input: Record<string, unknown> = { ...MARKETO_BASE };
    for (let i = 0; i < 10_000; i += 1) input[`k${i}`] = 1;
    const top = await refused(MARKETO, input);
    expect(top.field).toBe("k0");
    expect(top.message).toMatch(/k4: unknown field\. .*; input: 9995 more problem\(s\)\./);
    // Items past a list's maximum are not normalised one by one (400,000 presets took 5 s).
    const flood = {
      ...REPORT_BASE,
      metrics: Array.from({ length: 20_000 }, () => ({ name: "sessions", x: 1 })),
      date_ranges: Array.from({ length: 400_000 }, () => "lastweek"),
    };
    // What keeps it cheap, without timing it (a timed test fails on a loaded machine; npm run bench times
    // things): items past a list's maximum come out of the normalising walk untouched ("lastweek" is folded
    // to GA's "lastWeek" only where the walk went).
    const step = getToolStep(REPORT);
    const walked = normaliseInput(step.input({ accounts: [] }), flood, step.aliases).value as {
      date_ranges: unknown[];
    };
    expect(walked.date_ranges[0]).toBe("lastWeek");
    expect(walked.date_ranges).toHaveLength(400_000);
    expect(walked.date_ranges.slice(1_000).every((item) => item === "lastweek")).toBe(true);
    const items = await refused(REPORT, flood);
    expect(items.field).toBe("metrics[0].x");
    expect(items.message).toMatch(/metrics\[4\]\.x: unknown field; .*; input: \d+ more problem\(s\)/);
  });

  it.each([
    [
      MARKETO,
      '{"method":"GET","endpoint":"/rest/v1/lists.json","query":{"__proto__":"x","id":1}}',
      "query_parameters",
    ],
    [
      MARKETO,
      '{"method":"POST","endpoint":"/rest/v1/leads.json","body":{"__proto__":{"a":1},"input":[]}}',
      "body",
    ],
    [
      API_CALL,
      '{"method":"GET","endpoint":"v1beta/accountSummaries","queryParameters":{"__proto__":"x"}}',
      "query_parameters",
    ],
    [
      API_CALL,
      '{"method":"POST","endpoint":"v1beta/properties/1:runReport","body":{"__proto__":"x"}}',
      "body",
    ],
  ])("%s %s: a __proto__ key, which a map would drop, is refused", async (id, json, field) => {
    const error = await refused(id, JSON.parse(json));
    expect(error.field).toBe(`${field}.__proto__`);
    expect(error.message).toMatch(/a key named __proto__ cannot be passed/);
  });

  it("says what to do for GA request fields Run Reports does not support, and for headers", async () => {
    const keep = await refused(REPORT, { ...REPORT_BASE, keepEmptyRows: true });
    expect(keep.field).toBe("keepEmptyRows");
    expect(keep.message).toMatch(/google_analytics_api_call \(POST v1beta\/properties\/<id>:runReport\)/);
    const headers = await refused(API_CALL, { ...API_CALL_BASE, headers: { "x-goog-user-project": "p" } });
    expect(headers.message).toMatch(/headers cannot be given/);
    const property = await refused(API_CALL, { ...API_CALL_BASE, propertyId: "123" });
    expect(property.message).toMatch(
      /put the property in endpoint, e\.g\. v1beta\/properties\/123:runReport/,
    );
  });
});

describe("Google's and the seed's spellings mean what the schema's spelling means", () => {
  const sameAs = async (id: string, alias: unknown, canonical: unknown) => {
    const viaAlias = await sentFor(id, alias);
    expect(viaAlias.length).toBeGreaterThan(0);
    expect(viaAlias).toEqual(await sentFor(id, canonical));
  };

  it("Run Reports: a RunReportRequest as Google writes it", async () => {
    await sameAs(
      REPORT,
      {
        property: "properties/123",
        dateRanges: [
          { startDate: "2026-01-01", endDate: "2026-01-31", name: "jan" },
          { startDate: "2025-01-01", endDate: "2025-01-31", name: "jan_before" },
        ],
        dimensions: [{ name: "country" }, { name: "date" }],
        metrics: [{ name: "sessions" }, { name: "activeUsers" }],
        orderBys: [
          { metric: { metricName: "sessions" }, desc: true },
          { dimension: { dimensionName: "date", orderType: "NUMERIC" } },
          { dimension: { dimensionName: "country", orderType: "ORDER_TYPE_UNSPECIFIED" }, desc: false },
        ],
        dimensionFilter: { filter: { fieldName: "country", stringFilter: { value: "France" } } },
        limit: "250",
        offset: "500",
        returnPropertyQuota: true,
      },
      {
        property: "123",
        date_ranges: [
          { start_date: "2026-01-01", end_date: "2026-01-31", name: "jan" },
          { start_date: "2025-01-01", end_date: "2025-01-31", name: "jan_before" },
        ],
        dimensions: ["country", "date"],
        metrics: ["sessions", "activeUsers"],
        order_by: [
          { field: "sessions", desc: true },
          { field: "date", order_type: "NUMERIC" },
          { field: "country", desc: false },
        ],
        filter: { filter: { fieldName: "country", stringFilter: { value: "France" } } },
        limit: 250,
        offset: 500,
      },
    );
  });

  it("Run Reports: propertyId (also a number), minuteRanges, lower-case presets, orderBy", async () => {
    await sameAs(
      REPORT,
      {
        propertyId: 123,
        metrics: ["activeUsers"],
        realtime: true,
        minuteRanges: [{ startMinutesAgo: 10, endMinutesAgo: 2, name: "recent" }],
        orderBy: "-activeUsers",
      },
      {
        property: "123",
        metrics: ["activeUsers"],
        realtime: true,
        minute_ranges: [{ start_minutes_ago: 10, end_minutes_ago: 2, name: "recent" }],
        order_by: "-activeUsers",
      },
    );
    await sameAs(
      REPORT,
      { ...REPORT_BASE, date_ranges: ["LAST7DAYS", "lastmonth"] },
      { ...REPORT_BASE, date_ranges: ["last7days", "lastMonth"] },
    );
  });

  it("Run Reports: GA's orderType in any case, as order_type is", async () => {
    const base = { ...REPORT_BASE, dimensions: ["date", "country"] };
    const canonical = {
      ...base,
      order_by: [
        { field: "date", order_type: "NUMERIC" },
        { field: "country", desc: true, order_type: "CASE_INSENSITIVE_ALPHANUMERIC" },
      ],
    };
    await sameAs(
      REPORT,
      {
        ...base,
        orderBys: [
          { dimension: { dimensionName: "date", orderType: "numeric" } },
          { dimension: { dimensionName: "country", orderType: "case_insensitive_alphanumeric" }, desc: true },
        ],
      },
      canonical,
    );
    await sameAs(
      REPORT,
      {
        ...base,
        order_by: [
          { field: "date", order_type: "numeric" },
          { field: "country", desc: true, order_type: "Case_Insensitive_Alphanumeric" },
        ],
      },
      canonical,
    );
  });

  it("Run Reports: dimensionFilter and metricFilter together are one filter joined with and", async () => {
    const country = { filter: { fieldName: "country", stringFilter: { value: "France" } } };
    const sessions = {
      filter: {
        fieldName: "sessions",
        numericFilter: { operation: "GREATER_THAN", value: { int64Value: "5" } },
      },
    };
    await sameAs(
      REPORT,
      { ...REPORT_BASE, dimensions: ["country"], dimensionFilter: country, metricFilter: sessions },
      { ...REPORT_BASE, dimensions: ["country"], filter: { andGroup: { expressions: [country, sessions] } } },
    );
    await sameAs(
      REPORT,
      {
        ...REPORT_BASE,
        dimensions: ["country"],
        dimensionFilter: 'country == "France"',
        metricFilter: "sessions > 5",
      },
      { ...REPORT_BASE, dimensions: ["country"], filter: '(country == "France") and (sessions > 5)' },
    );
    // Each is parsed on its own and the expressions are combined, so the forms can be mixed.
    await sameAs(
      REPORT,
      { ...REPORT_BASE, dimensions: ["country"], dimensionFilter: country, metricFilter: "sessions > 5" },
      { ...REPORT_BASE, dimensions: ["country"], filter: { andGroup: { expressions: [country, sessions] } } },
    );
  });

  it("Run Reports: a dimensionFilter or metricFilter that does not parse on its own is refused under its name", async () => {
    const base = { ...REPORT_BASE, dimensions: ["country"] };
    const unbalanced = await refused(REPORT, {
      ...base,
      dimensionFilter: 'country == "France") or (country == "Spain"',
      metricFilter: "sessions > 5",
    });
    expect(unbalanced.field).toBe("dimensionFilter");
    const metric = await refused(REPORT, {
      ...base,
      dimensionFilter: 'country == "France"',
      metricFilter: "sessions >",
    });
    expect(metric.field).toBe("metricFilter");
    const long = await refused(REPORT, {
      ...base,
      dimensionFilter: `country == "${"x".repeat(3_000)}"`,
      metricFilter: "sessions > 5",
    });
    expect(long.field).toBe("dimensionFilter");
  });

  it("Create Key Events: propertyId, eventName, countingMethod in any case, skipCollectionCheck", async () => {
    await sameAs(
      KEY_EVENTS,
      {
        propertyId: 123,
        eventName: "sign_up",
        countingMethod: "once_per_session",
        skipCollectionCheck: true,
      },
      { ...KEY_EVENT_BASE, counting_method: "ONCE_PER_SESSION" },
    );
  });

  it("Create properties: the Admin API's Property fields (parent, displayName, timeZone, …)", async () => {
    await sameAs(
      PROPERTIES,
      {
        parent: "accounts/77",
        displayName: "Shop",
        timeZone: "Europe/Paris",
        currencyCode: "eur",
        industryCategory: "shopping",
      },
      { ...PROPERTY_BASE, currency_code: "EUR", industry_category: "SHOPPING" },
    );
  });

  it("both API Call steps: queryParameters or query, and lower-case methods", async () => {
    const endpoint = "/rest/v1/lists/1001/leads.json";
    const lists = { method: "DELETE", endpoint, query_parameters: { id: [1, 2] } };
    await sameAs(MARKETO, { method: "delete", endpoint, queryParameters: { id: [1, 2] } }, lists);
    await sameAs(MARKETO, { method: "Delete", endpoint, query: { id: [1, 2] } }, lists);
    await sameAs(
      MARKETO,
      { ...MARKETO_BASE, paginate: true, maxPages: 3, maxItems: 50 },
      { ...MARKETO_BASE, paginate: true, max_pages: 3, max_items: 50 },
    );
    const summaries = { ...API_CALL_BASE, query_parameters: { pageSize: 5 } };
    await sameAs(
      API_CALL,
      { method: "get", endpoint: API_CALL_BASE.endpoint, queryParameters: { pageSize: 5 } },
      summaries,
    );
    await sameAs(
      API_CALL,
      { method: "get", endpoint: API_CALL_BASE.endpoint, query: { pageSize: 5 } },
      summaries,
    );
  });

  it("`query` that is not an object is not taken for query_parameters", async () => {
    const error = await refused(MARKETO, { ...MARKETO_BASE, query: "filterType=email" });
    expect(error.field).toBe("query");
    expect(error.message).toMatch(/did you mean query_parameters\?/);
  });
});
