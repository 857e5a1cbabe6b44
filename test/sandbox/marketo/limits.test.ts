import { afterEach, describe, expect, it } from "vitest";
import { errorCode, type Harness, startHarness } from "../../helpers/marketo-sandbox.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PATH = "/rest/v1/leads/describe.json";

describe("Marketo sandbox instance limits", () => {
  it("answers 606 past the rolling window's limit and recovers once the window has passed", async () => {
    // The sandbox's clock, moved by hand: on a loaded machine seven calls sent together could still spread
    // over more than 500 ms of real time, and some land in a fresh window (a CI run saw it).
    let clock = 1_000_000;
    h = await startHarness({ leadCount: 10, rateLimit: 5, rateWindowMs: 500, now: () => clock });
    const harness = h;
    const bodies = await Promise.all(Array.from({ length: 7 }, () => harness.call(PATH)));
    expect(bodies.filter((b) => b.success).length).toBe(5);
    const refused = bodies.filter((b) => errorCode(b) === "606");
    expect(refused.length).toBe(2);
    expect(refused[0]?.errors?.[0]?.message).toBe("Max rate limit '5' exceeded with in '0.5' secs");
    clock += 600;
    expect((await h.call(PATH)).success).toBe(true);
    expect(h.sb.stats().rejected["606"]).toBe(2);
  });

  it("uses a rolling window, not a fixed one (no boundary burst)", async () => {
    let clock = 1_000_000;
    h = await startHarness({ leadCount: 10, rateLimit: 5, rateWindowMs: 500, now: () => clock });
    const burst = async (n: number) => {
      const codes: (string | undefined)[] = [];
      for (let i = 0; i < n; i++) codes.push(errorCode(await (h as Harness).call(PATH)));
      return codes;
    };
    expect(await burst(3)).toEqual([undefined, undefined, undefined]);
    clock += 300;
    expect(await burst(3)).toEqual([undefined, undefined, "606"]);
    // 550 ms after the first calls: those 3 left the window, the 2 made at +300 ms are still in it.
    clock += 250;
    expect(await burst(4)).toEqual([undefined, undefined, undefined, "606"]);
  });

  it("answers 615 when more than maxConcurrent calls are in flight", async () => {
    h = await startHarness({ leadCount: 10, latencyMs: 800 });
    const harness = h;
    const bodies = await Promise.all(Array.from({ length: 12 }, () => harness.call(PATH)));
    const refused = bodies.filter((b) => errorCode(b) === "615");
    expect(bodies.filter((b) => b.success).length).toBe(10);
    expect(refused.length).toBe(2);
    expect(refused[0]?.errors?.[0]?.message).toBe("Concurrent access limit '10' reached");
    const stats = h.sb.stats();
    expect(stats.maxInFlight).toBe(10);
    expect(stats.rejected["615"]).toBe(2);
    expect(stats.inFlight).toBe(0);
  });

  it("answers 607 once the daily quota is used, and does not count 601/602 against it", async () => {
    h = await startHarness({ leadCount: 10, dailyQuota: 3 });
    expect(errorCode(await h.call(PATH, { headers: { authorization: "Bearer nope" } }))).toBe("601");
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 5; i++) codes.push(errorCode(await h.call(PATH)));
    expect(codes).toEqual([undefined, undefined, undefined, "607", "607"]);
    const stats = h.sb.stats();
    expect(stats.rejected["607"]).toBe(2);
    expect(stats.apiCalls).toBe(6);
    expect(stats.callsByPath[PATH]).toBe(6);
  });

  it("resets the daily quota at midnight in Chicago and reports each day's calls", async () => {
    // 05:59:30 UTC on 4 March 2025 is 23:59:30 CST on the 3rd (UTC−6 in winter).
    let clock = Date.parse("2025-03-04T05:59:30Z");
    h = await startHarness({ leadCount: 10, dailyQuota: 2, now: () => clock, tokenTtlSeconds: 86_400 });
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) codes.push(errorCode(await h.call(PATH)));
    expect(codes).toEqual([undefined, undefined, "607"]);
    clock += 60_000;
    expect(errorCode(await h.call(PATH))).toBeUndefined();
    const week = await h.call("/rest/v1/stats/usage/last7days.json");
    expect(week.result?.slice(0, 2)).toEqual([
      { date: "2025-03-04", total: 2, users: [expect.any(Object)] },
      { date: "2025-03-03", total: 2, users: [expect.any(Object)] },
    ]);
  });

  it("reports today's admitted calls in stats/usage.json", async () => {
    h = await startHarness({ leadCount: 10, apiUserEmail: "ops@acme.example" });
    await h.call(PATH);
    await h.call(PATH);
    const usage = await h.call("/rest/v1/stats/usage.json");
    expect(usage.result).toEqual([
      {
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        total: 3,
        users: [{ userId: "ops@acme.example", count: 3 }],
      },
    ]);
  });
});
