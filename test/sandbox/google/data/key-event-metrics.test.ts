import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dims,
  nums,
  rowsOf,
  type Sandbox,
  SHOP,
  startSandbox,
  sum,
} from "../../../helpers/ga-data-sandbox.js";

const LAST_WEEK = [{ startDate: "7daysAgo", endDate: "yesterday" }];
const RUN = `/v1beta/properties/${SHOP}:runReport`;
const SHOP_EVENTS = ["view_item", "add_to_cart", "begin_checkout", "purchase", "sign_up"];

describe("key-event-specific metrics (keyEvents:<name>, sessionKeyEventRate:<name>, userKeyEventRate:<name>)", () => {
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
  const metricNames = async () => {
    const { json } = await s.get(`/v1beta/properties/${SHOP}/metadata`);
    return ((json.metrics as { apiName: string }[]) ?? []).map((m) => m.apiName);
  };

  it("the property's metadata lists the three metrics of each of its key events, and only of those", async () => {
    s.world.keyEvents.set(SHOP, ["purchase"]);
    const before = await metricNames();
    expect(before).toEqual(
      expect.arrayContaining([
        "keyEvents:purchase",
        "sessionKeyEventRate:purchase",
        "userKeyEventRate:purchase",
      ]),
    );
    expect(before).not.toContain("keyEvents:sign_up");
    s.world.keyEvents.set(SHOP, ["purchase", "sign_up"]);
    expect(await metricNames()).toContain("sessionKeyEventRate:sign_up");
    s.world.keyEvents.set(SHOP, ["purchase"]);
  });

  it("keyEvents:<name> by channel is the keyEvents metric filtered on that eventName; the rates are its sessions' and users' shares", async () => {
    s.world.keyEvents.set(SHOP, ["purchase", "sign_up"]);
    const byChannel = (json: Record<string, unknown>) =>
      new Map(rowsOf(json).map((r) => [dims(r)[0] ?? "", nums(r)]));
    const named = byChannel(
      await report({
        dateRanges: LAST_WEEK,
        dimensions: [{ name: "sessionDefaultChannelGroup" }],
        metrics: [
          { name: "keyEvents:sign_up" },
          { name: "sessionKeyEventRate:sign_up" },
          { name: "userKeyEventRate:sign_up" },
          { name: "sessions" },
          { name: "totalUsers" },
        ],
      }),
    );
    const filtered = byChannel(
      await report({
        dateRanges: LAST_WEEK,
        dimensions: [{ name: "sessionDefaultChannelGroup" }],
        metrics: [{ name: "keyEvents" }, { name: "sessions" }, { name: "totalUsers" }],
        dimensionFilter: { filter: { fieldName: "eventName", stringFilter: { value: "sign_up" } } },
      }),
    );
    expect(filtered.size).toBeGreaterThan(2);
    for (const [channel, [events, withIt, usersWithIt]] of filtered) {
      const [count, sessionRate, userRate, sessions, users] = named.get(channel) ?? [];
      expect(count, channel).toBe(events);
      expect(sessionRate, channel).toBeCloseTo((withIt ?? 0) / (sessions ?? 1), 6);
      expect(userRate, channel).toBeCloseTo((usersWithIt ?? 0) / (users ?? 1), 6);
    }
    s.world.keyEvents.set(SHOP, ["purchase"]);
  });

  it("over any set of key events, their keyEvents:<name> add up to keyEvents, per row and in the TOTAL", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(SHOP_EVENTS, { minLength: 1 }),
        fc.constantFrom("country", "deviceCategory", "date"),
        async (keyEvents, dimension) => {
          s.world.keyEvents.set(SHOP, keyEvents);
          const json = await report({
            dateRanges: LAST_WEEK,
            dimensions: [{ name: dimension }],
            metrics: [{ name: "keyEvents" }, ...keyEvents.map((name) => ({ name: `keyEvents:${name}` }))],
            metricAggregations: ["TOTAL"],
          });
          for (const row of rowsOf(json)) {
            const [all = 0, ...each] = nums(row);
            expect(sum(each)).toBe(all);
          }
          const [total] = json.totals as { metricValues: { value: string }[] }[];
          const [all = 0, ...each] = (total?.metricValues ?? []).map((m) => Number(m.value));
          expect(sum(each)).toBe(all);
          expect(all).toBe(sum(rowsOf(json).map((r) => nums(r)[0] ?? 0)));
        },
      ),
      { numRuns: 8 },
    );
    s.world.keyEvents.set(SHOP, ["purchase"]);
  });

  it("answers a deprecated conversions:<name> as keyEvents:<name>, and refuses an event that is not a key event", async () => {
    const one = async (name: string) =>
      nums(rowsOf(await report({ dateRanges: LAST_WEEK, metrics: [{ name }] }))[0] ?? {})[0];
    expect(await one("conversions:purchase")).toBe(await one("keyEvents:purchase"));
    const { status, json } = await s.post(RUN, {
      dateRanges: LAST_WEEK,
      metrics: [{ name: "keyEvents:sign_up" }],
    });
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toContain("keyEvents:sign_up is not a valid metric");
  });
});
