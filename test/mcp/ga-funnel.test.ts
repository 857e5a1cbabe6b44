/**
 * The funnel mode of google_analytics_run_reports through MCP, on the sandbox's runFunnelReport
 * (Data API v1alpha, https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport).
 * Step counts are checked against plain runReport numbers of the same events and dates.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GoogleFixture, googleFixture } from "../helpers/fixtures.js";
import { mcpSession } from "../helpers/mcp.js";

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
type Row = Record<string, string | number | null>;
interface Report {
  rows: Row[];
  date_ranges?: { start_date: string; end_date: string }[];
  request: Record<string, unknown>;
  hints: string[];
}
const data = (r: CallToolResult) => r.structuredContent as unknown as Report;
const PROPERTY = "412345671";
const SHOP_STEPS = ["session_start", "view_item", "add_to_cart", "begin_checkout", "purchase"];

/** The summary's drop words, recomputed from the rows: the step losing the most users, the steepest rate. */
function dropText(rows: Row[]): string {
  const users = rows.map((r) => Number(r.users));
  const drops = users.slice(1).map((u, i) => ({
    at: `${rows[i]!.step} → ${rows[i + 1]!.step}`,
    lost: users[i]! - u,
    pct: Math.round(((u - users[i]!) / users[i]!) * 1000) / 10,
  }));
  const most = [...drops].sort((a, b) => b.lost - a.lost)[0]!;
  const steep = [...drops].sort((a, b) => a.pct - b.pct)[0]!;
  const n = (x: number) => x.toLocaleString("en-US");
  return most.at === steep.at
    ? `the most users are lost at ${most.at} (${n(most.lost)} users, ${most.pct} %), which is also the steepest drop`
    : `the most users are lost at ${most.at} (${n(most.lost)}, ${most.pct} %), the steepest drop is ${steep.at} (${n(steep.lost)}, ${steep.pct} %)`;
}

describe("Run Reports through MCP: funnels (runFunnelReport)", () => {
  let fixture: GoogleFixture;
  let client: Client;
  let close: () => Promise<void>;
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: "google_analytics_run_reports", arguments: args })) as CallToolResult;
  const report = async (args: Record<string, unknown>) => {
    const result = await call(args);
    expect(result.isError, text(result)).toBeFalsy();
    return result;
  };
  /** Active users per event over the same dates, by plain runReport. */
  const eventUsers = async (dateRange: { start_date: string; end_date: string }) => {
    const rows = data(
      await report({
        property: PROPERTY,
        metrics: ["activeUsers"],
        dimensions: ["eventName"],
        date_ranges: [dateRange],
        limit: 1000,
      }),
    ).rows;
    return new Map(rows.map((r) => [r.eventName as string, Number(r.activeUsers)]));
  };

  beforeAll(async () => {
    fixture = await googleFixture();
    ({ client, close } = await mcpSession(fixture.workspace));
  });
  afterAll(async () => {
    await close();
    await fixture.sandbox.close();
  });

  it("a closed funnel: users never grow, rates add up, and the summary states the conversion and the biggest drop", async () => {
    const result = await report({ property: PROPERTY, funnel: { steps: SHOP_STEPS } });
    const { rows, date_ranges, request } = data(result);
    expect(request.funnel).toMatchObject({ isOpenFunnel: false });
    expect(rows.map((r) => r.step)).toEqual([
      "session_start",
      "view_item",
      "add_to_cart",
      "begin_checkout",
      "purchase",
    ]);
    expect(rows.map((r) => r.step_number)).toEqual([1, 2, 3, 4, 5]);
    const users = rows.map((r) => Number(r.users));
    expect(users[0]).toBeGreaterThan(0);
    for (let i = 1; i < users.length; i++) expect(users[i]).toBeLessThanOrEqual(users[i - 1]!);
    for (let i = 0; i + 1 < rows.length; i++) {
      expect(rows[i]!.abandonments).toBe(users[i]! - users[i + 1]!);
      expect(rows[i]!.completion_rate_pct).toBeCloseTo((users[i + 1]! / users[i]!) * 100, 1);
      expect(Number(rows[i]!.completion_rate_pct) + Number(rows[i]!.abandonment_rate_pct)).toBeCloseTo(
        100,
        0,
      );
    }
    expect(rows[4]).toMatchObject({
      completion_rate_pct: null,
      abandonments: null,
      abandonment_rate_pct: null,
    });
    // The first step's users are the users of session_start over the stated dates (real dates, not presets).
    const range = date_ranges![0]!;
    expect(range.start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const byEvent = await eventUsers(range);
    expect(users[0]).toBe(byEvent.get("session_start"));
    const summary = text(result).split("\n")[0]!;
    expect(summary).toContain(`for ${range.start_date}…${range.end_date}, dates in America/New_York`);
    const pct = Math.round((users[4]! / users[0]!) * 1000) / 10;
    expect(summary).toContain(
      `Closed funnel: of ${users[0]!.toLocaleString("en-US")} active users who did session_start, ` +
        `${users[4]!.toLocaleString("en-US")} (${pct} %) reached purchase`,
    );
    expect(summary).toContain(dropText(rows));
  });

  it("a made-up step event is refused, naming the step and the nearest collected events, before the funnel runs", async () => {
    const refused = await call({ property: PROPERTY, funnel: { steps: ["session_start", "add_to_kart"] } });
    expect(refused.isError).toBe(true);
    const message = text(refused);
    expect(message).toMatch(
      /Invalid funnel\.steps\[1\]: no "add_to_kart" event was collected in \d{4}-\d{2}-\d{2}/,
    );
    expect(message).toContain("so the funnel would count 0 users from this step on");
    const nearest = /the nearest events it collected: ([^.;]+)/.exec(message)?.[1]?.split(", ") ?? [];
    expect(nearest[0]).toBe("add_to_cart");
    // The hint, done: the listing it names holds the nearest event, and the funnel with it runs.
    expect(message).toContain("list them all with dimensions [eventName] and metrics [eventCount]");
    const listed = data(
      await report({ property: PROPERTY, dimensions: ["eventName"], metrics: ["eventCount"] }),
    );
    expect(listed.rows.map((r) => r.eventName)).toContain("add_to_cart");
    const fixed = data(
      await report({ property: PROPERTY, funnel: { steps: ["session_start", nearest[0]!] } }),
    );
    expect(Number(fixed.rows[1]!.users)).toBeGreaterThan(0);
  });
  it("the request in the answer, sent with google_analytics_api_call as the hint says, gives GA's same funnel", async () => {
    const answer = data(await report({ property: PROPERTY, funnel: { steps: SHOP_STEPS.slice(0, 3) } }));
    const endpoint = `v1alpha/properties/${PROPERTY}:runFunnelReport`;
    expect(answer.hints).toContain(
      `request is GA's runFunnelReport body: google_analytics_api_call with POST ${endpoint} and it as body returns GA's raw answer.`,
    );
    const raw = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "POST", endpoint, body: answer.request },
    })) as CallToolResult;
    expect(raw.isError, text(raw)).toBeFalsy();
    const table = JSON.stringify(raw.structuredContent);
    for (const row of answer.rows) expect(table).toContain(`{"value":"${row.users}"}`);
    expect(table).toContain("1. session_start");
  });

  it("an open funnel counts each step's own users, so a later step may hold more than an earlier one", async () => {
    const steps = ["purchase", "view_item"];
    const closed = data(await report({ property: PROPERTY, funnel: { steps } })).rows;
    const open = await report({ property: PROPERTY, funnel: { steps, open: true } });
    const rows = data(open).rows;
    expect(data(open).request.funnel).toMatchObject({ isOpenFunnel: true });
    const byEvent = await eventUsers(data(open).date_ranges![0]!);
    expect(rows.map((r) => r.users)).toEqual([byEvent.get("purchase"), byEvent.get("view_item")]);
    expect(Number(rows[1]!.users)).toBeGreaterThan(Number(rows[0]!.users));
    expect(Number(closed[1]!.users)).toBeLessThanOrEqual(Number(closed[0]!.users));
    expect(text(open).split("\n")[0]).toContain("Open funnel (users may enter at any step)");
  });

  it("a breakdown gives per step the total and a row per value, the values adding up to the total", async () => {
    const result = await report({
      property: PROPERTY,
      funnel: { steps: SHOP_STEPS.slice(0, 3), breakdown: "deviceCategory" },
    });
    const rows = data(result).rows;
    for (const step of ["session_start", "view_item", "add_to_cart"]) {
      const own = rows.filter((r) => r.step === step);
      const total = own.find((r) => r.deviceCategory === "(all)")!;
      const parts = own.filter((r) => r.deviceCategory !== "(all)");
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.reduce((sum, r) => sum + Number(r.users), 0)).toBe(total.users);
    }
    for (const device of new Set(rows.map((r) => r.deviceCategory))) {
      const users = rows.filter((r) => r.deviceCategory === device).map((r) => Number(r.users));
      for (let i = 1; i < users.length; i++) expect(users[i]).toBeLessThanOrEqual(users[i - 1]!);
    }
  });

  it("a breakdown with more values than GA returns says the values shown are the largest, not all", async () => {
    const result = await report({
      property: PROPERTY,
      funnel: { steps: SHOP_STEPS.slice(0, 2), breakdown: "country" },
    });
    const rows = data(result).rows;
    const first = rows.filter((r) => r.step === SHOP_STEPS[0]);
    const total = Number(first.find((r) => r.country === "(all)")?.users);
    const parts = first.filter((r) => r.country !== "(all)").map((r) => Number(r.users));
    expect(parts).toHaveLength(5);
    expect(parts.reduce((a, b) => a + b, 0)).toBeLessThan(total);
    expect(data(result).hints).toContain(
      "GA returns at most 5 values of a breakdown: these are the 5 largest values of country; each step's (all) row " +
        "counts every user, those of other values too, so the values shown may not add up to it.",
    );
    const devices = await report({
      property: PROPERTY,
      funnel: { steps: SHOP_STEPS.slice(0, 2), breakdown: "deviceCategory" },
    });
    expect(data(devices).hints.join(" ")).not.toContain("at most 5 values");
  });

  it("next_action lists what users did after each step, never the step's own event", async () => {
    const result = await report({
      property: PROPERTY,
      funnel: { steps: SHOP_STEPS.slice(0, 3), next_action: "eventName" },
    });
    const { rows, hints } = data(result);
    const next = rows.filter((r) => r.next_eventName !== undefined);
    expect(next.length).toBeGreaterThan(0);
    expect(hints).toContain(`The last ${next.length} rows are the next actions after each step.`);
    expect(rows.slice(-next.length)).toEqual(next);
    const steps = rows.filter((r) => r.step_number !== undefined);
    for (const row of next) {
      expect(row.next_eventName).not.toBe(row.step);
      const step = steps.find((s) => s.step === row.step)!;
      expect(Number(row.users)).toBeLessThanOrEqual(Number(step.users));
    }
  });

  it("invalid funnels are refused naming the field, before any report is sent", async () => {
    const one = await call({ property: PROPERTY, funnel: { steps: ["purchase"] } });
    expect(one.isError).toBe(true);
    expect(text(one)).toMatch(/funnel\.steps/);
    const mixed = await call({ property: PROPERTY, metrics: ["sessions"], funnel: { steps: SHOP_STEPS } });
    expect(mixed.isError).toBe(true);
    expect(text(mixed)).toMatch(/metrics/);
    expect(text(mixed)).toContain("a funnel report does not take it");
    const filtered = await call({
      property: PROPERTY,
      filter: 'country == "France"',
      funnel: { steps: SHOP_STEPS },
    });
    expect(filtered.isError).toBe(true);
    expect(text(filtered)).toMatch(/filter.*a funnel report does not take it/s);
    const device = await call({
      property: PROPERTY,
      funnel: { steps: SHOP_STEPS, breakdown: "devicecategory" },
    });
    expect(device.isError).toBe(true);
    expect(text(device)).toMatch(/funnel\.breakdown/);
    expect(text(device)).toContain("deviceCategory");
    const none = await call({ property: PROPERTY });
    expect(none.isError).toBe(true);
    expect(text(none)).toMatch(/metrics.*at least one metric is required/s);
  });
});
