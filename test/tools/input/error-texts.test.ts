import { describe, expect, it } from "vitest";
import { runToolStep } from "../../../src/tools/run.js";
import { recording, refused } from "../../helpers/recording-connector.js";

/** Union and type errors list the accepted forms and show what was received (shortened, never a secret). */

const REPORT = "google_analytics_run_reports";
const MARKETO = "marketo_api_call";
const BASE = { property: "123", metrics: ["sessions"] };
const LEADS = { method: "GET", endpoint: "/rest/v1/leads.json" };

describe("error texts", () => {
  it("a date range in neither form lists the presets and the object form, and quotes what came", async () => {
    const typo = await refused(REPORT, { ...BASE, date_ranges: ["yesterdy"] });
    expect(typo.field).toBe("date_ranges[0]");
    expect(typo.message).toMatch(
      /expected a preset \(today, yesterday, last7days, .*lastYear\) or \{start_date, end_date, name\?\}; received a string "yesterdy"/,
    );
    const object = await refused(REPORT, {
      ...BASE,
      date_ranges: [{ from: "2026-01-01", to: "2026-01-31" }],
    });
    expect(object.message).toMatch(
      /or \{start_date, end_date, name\?\}; received an object \{"from":"2026-01-01"/,
    );
  });

  it("a value inside a form names its own field and what it received", async () => {
    const error = await refused(REPORT, {
      ...BASE,
      dateRanges: [{ startDate: "2026/10/01", endDate: "2026-10-31" }],
    });
    expect(error.field).toBe("date_ranges[0].start_date");
    expect(error.message).toMatch(
      /use YYYY-MM-DD, NdaysAgo, yesterday or today; received a string "2026\/10\/01"/,
    );
  });

  it("metrics given as a string suggest the list, without follow-up noise", async () => {
    const one = await refused(REPORT, { property: "123", metrics: "sessions" });
    expect(one.field).toBe("metrics");
    expect(one.message).toMatch(
      /expected a list, received a string "sessions": write it as a list, e\.g\. \["sessions"\]/,
    );
    const two = await refused(REPORT, { property: "123", metrics: "sessions, activeUsers" });
    expect(two.message).toContain('["sessions","activeUsers"]');
    expect(two.message).not.toMatch(/Too big|characters/);
  });

  it("an enum error lists the accepted values and what came", async () => {
    const error = await refused(MARKETO, { ...LEADS, method: "PUT" });
    expect(error.message).toMatch(
      /Invalid method: expected one of GET, POST, DELETE; received a string "PUT"/,
    );
    const counting = await refused("google_analytics_create_key_events", {
      property: "1",
      event_name: "x",
      counting_method: "per_session",
    });
    expect(counting.message).toMatch(
      /expected one of ONCE_PER_EVENT, ONCE_PER_SESSION; received a string "per_session"/,
    );
  });

  it("a required enum that is missing says so and lists the values, unless an unknown key stands for it", async () => {
    const missing = await refused(MARKETO, { endpoint: "/rest/v1/leads.json" });
    expect(missing.message).toBe(
      "Invalid method: required (one of GET, POST, DELETE). Fix the input and call again; nothing was sent.",
    );
    const cased = await refused(MARKETO, { Method: "GET", endpoint: "/rest/v1/leads.json" });
    expect(cased.message).not.toMatch(/method: required/);
  });

  it("a received value and a filter are quoted with every control character escaped", async () => {
    const method = await refused(MARKETO, { ...LEADS, method: "P\u009b31m\u007fUT" });
    expect(method.message).toContain('received a string "P\\u009b31m\\u007fUT"');
    const filter = await refused(REPORT, { ...BASE, filter: 'country == "x" \u009b' });
    expect(filter.message).toMatch(/near "\\u009b"/);
  });

  it("null is received as null, not as 'null null'", async () => {
    const map = await refused(MARKETO, { ...LEADS, query_parameters: null });
    expect(map.message).toMatch(/Invalid query_parameters: expected an object, received null\./);
    const union = await refused(REPORT, { ...BASE, date_ranges: [null] });
    expect(union.message).toMatch(/\{start_date, end_date, name\?\}; received null\./);
  });

  it("order_by, filter and query values in no accepted form say which forms are accepted", async () => {
    expect((await refused(REPORT, { ...BASE, order_by: 5 })).message).toMatch(
      /expected "-sessions,date" .* or \[\{field, desc\?, order_type\?\}\]; received a number 5/,
    );
    expect((await refused(REPORT, { ...BASE, filter: true })).message).toMatch(
      /expected a filter expression such as country == "France", or a GA FilterExpression object; received a boolean true/,
    );
    const query = await refused(MARKETO, { ...LEADS, query_parameters: { fields: { a: 1 } } });
    expect(query.field).toBe("query_parameters.fields");
    expect(query.message).toMatch(
      /expected a string or a number or true or false or a list; received an object/,
    );
  });

  it("an unknown field with no near name still lists what is accepted", async () => {
    const error = await refused(MARKETO, { ...LEADS, xyzzy: 1 });
    expect(error.message).toBe(
      "Invalid xyzzy: unknown field. Accepted here: method, endpoint, query_parameters, body, file, time_zone, paginate, " +
        "max_pages, max_items, run_to_completion, where, order_by, count_by, keep_counted, min_count, count_by_ignore_case, count_distinct, sum, per, previous, next, lead_fields, join, limit, cursor. Fix the input and call again; nothing was sent.",
    );
  });

  it("an answer's next_cursor, given back under its own name, is pointed to cursor, not next (review s35, 5)", async () => {
    const cursor = await refused(MARKETO, { ...LEADS, next_cursor: "c3.abc" });
    expect(cursor.message).toMatch(/Invalid next_cursor: unknown field; did you mean cursor\?/);
    const token = await refused(MARKETO, { ...LEADS, nextPageToken: "ABC" });
    expect(token.message).toMatch(/did you mean query_parameters\?/);
  });

  it("a number written as a string says to drop the quotes", async () => {
    const error = await refused(MARKETO, { ...LEADS, paginate: true, max_pages: "20" });
    expect(error.message).toMatch(
      /max_pages: expected a number, received a string "20": write 20 without quotes/,
    );
  });

  it("what was received is shortened, and never shown under a secret-looking name", async () => {
    const long = await refused(REPORT, { ...BASE, date_ranges: ["x".repeat(500)] });
    const quoted = /received a string ("x+…)/.exec(long.message)?.[1] ?? "";
    expect(quoted.length).toBeLessThanOrEqual(60);
    const secret = "abc-very-secret-value";
    const hidden = await refused(MARKETO, {
      ...LEADS,
      query_parameters: { access_token: { value: secret } },
    });
    expect(hidden.field).toBe("query_parameters.access_token");
    expect(hidden.message).toContain("(value not shown)");
    expect(JSON.stringify(hidden.toJSON())).not.toContain(secret);
  });

  it("GA forms Run Reports cannot honour are refused with where to send them", async () => {
    const error = await refused(REPORT, {
      property: "123",
      metrics: [{ name: "sessions", expression: "sessions*2" }],
      dimensions: [{ name: "country", dimensionExpression: { lowerCase: { dimensionName: "country" } } }],
      orderBys: [{ pivot: { metricName: "sessions" } }],
      returnPropertyQuota: false,
    });
    expect(error.field).toBe("returnPropertyQuota");
    expect(error.message).toMatch(
      /metrics\[0\]\.expression: custom metric expressions are not supported here; use google_analytics_api_call/,
    );
    expect(error.message).toMatch(
      /dimensions\[0\]\.dimensionExpression: dimension expressions are not supported/,
    );
    expect(error.message).toMatch(/order_by\[0\]\.pivot: pivot ordering belongs to pivot reports/);
    expect(error.message).toMatch(
      /returnPropertyQuota: google_analytics_run_reports always returns the property quota/,
    );
  });

  it("a GA orderBy in no valid shape says which two shapes GA has", async () => {
    const error = await refused(REPORT, { ...BASE, orderBys: [{ metric: { name: "sessions" } }] });
    expect(error.field).toBe("order_by[0]");
    expect(error.message).toMatch(
      /expected GA's \{metric: \{metricName\}, desc\?\} or \{dimension: \{dimensionName, orderType\?\}, desc\?\}/,
    );
  });

  it("order_type applies to dimensions only", async () => {
    const { context, ga } = recording();
    const error = await runToolStep(
      REPORT,
      { ...BASE, order_by: [{ field: "sessions", order_type: "NUMERIC" }] },
      context,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ field: "order_by[0].order_type" });
    expect(ga.callsOf("runReport")).toHaveLength(0);
  });
});
