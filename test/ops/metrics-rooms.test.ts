import { afterAll, describe, expect, it } from "vitest";
import { CONNECTION_KINDS, connectionRoom } from "../../src/connections/registry.js";
import { processMetrics } from "../../src/ops/metrics.js";
import { registerWindow, setTelemetrySink, type WindowUsage } from "../../src/telemetry.js";

/*
 * What a service adds to /metrics comes from its connection room (`metrics`: its limit codes, its token
 * source, its gauges), and src/ops/metrics.ts names no service. The text a scraper reads is unchanged by
 * the move: these help lines and gauges are what the Marketo-named code printed before.
 */

afterAll(() => setTelemetrySink(undefined));

/** The windows registered here, held so that the telemetry's weak references keep them until the scrape. */
const held: object[] = [];

/** The HELP line of one metric. */
async function help(name: string): Promise<string | undefined> {
  const text = await processMetrics().metrics();
  return text.split("\n").find((line) => line.startsWith(`# HELP ${name} `));
}

describe("the rooms' part of /metrics", () => {
  it("the shared counters' help lists each room's limit codes and token source, in registry order", async () => {
    expect(await help("martech_steps_upstream_limit_refusals_total")).toBe(
      "# HELP martech_steps_upstream_limit_refusals_total Answers that refused a request for a limit: Marketo 606 (rate window) and 615 (concurrency), GA4 HTTP 429.",
    );
    expect(await help("martech_steps_tokens_fetched_total")).toBe(
      "# HELP martech_steps_tokens_fetched_total Access tokens requested from an identity service (Marketo) or Google's token endpoint.",
    );
  });

  it("every room gauge is served with its help and the room's service label, read at scrape time", async () => {
    const gauges = CONNECTION_KINDS.flatMap((kind) =>
      (connectionRoom(kind).metrics.gauges ?? []).map((gauge) => ({
        ...gauge,
        service: connectionRoom(kind).service,
      })),
    );
    expect(gauges.map((gauge) => gauge.name)).toEqual([
      "martech_steps_marketo_window_use_ratio",
      "martech_steps_marketo_daily_quota_remaining",
    ]);
    // Two instances: the busiest window and the fewest calls left are what the gauges show.
    const sources: Array<{ usage(): Promise<WindowUsage> }> = [
      { usage: async () => ({ windowCalls: 20, callsPerWindow: 100, remaining: 49_000 }) },
      { usage: async () => ({ windowCalls: 50, callsPerWindow: 100, remaining: 49_900 }) },
    ];
    registerWindow("marketo", "metrics-rooms-a", sources[0]!);
    registerWindow("marketo", "metrics-rooms-b", sources[1]!);
    // Another service's window with the same instance name is not Marketo's.
    const other = { usage: async () => ({ windowCalls: 99, callsPerWindow: 100, remaining: 1 }) };
    registerWindow("google_analytics", "metrics-rooms-a", other);
    held.push(...sources, other);
    const text = await processMetrics().metrics();
    for (const gauge of gauges) {
      expect(text).toContain(`# HELP ${gauge.name} ${gauge.help}\n# TYPE ${gauge.name} gauge\n`);
    }
    expect(text).toContain('martech_steps_marketo_window_use_ratio{service="marketo"} 0.5\n');
    expect(text).toContain('martech_steps_marketo_daily_quota_remaining{service="marketo"} 49000\n');
  });
});
