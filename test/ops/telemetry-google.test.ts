import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { type Service, setTelemetrySink } from "../../src/telemetry.js";
import { DATA, offline, REPORT_BODY, REPORT_PATH, setup, status } from "../helpers/google-connector.js";

offline();

/** Every report the telemetry receives, as text. */
function recorder(): string[] {
  const seen: string[] = [];
  setTelemetrySink({
    stepCall: (step, outcome) => seen.push(`step ${step} ${outcome}`),
    upstream: (service: Service, code) => seen.push(`upstream ${service} ${code}`),
    limitRefused: (service, code) => seen.push(`refused ${service} ${code}`),
    retried: (service) => seen.push(`retried ${service}`),
    limiterWait: (service, seconds) => seen.push(`wait ${service} ${seconds >= 0}`),
    tokenFetched: (service) => seen.push(`token ${service}`),
  });
  return seen;
}

afterEach(() => setTelemetrySink(undefined));

describe("GA4 telemetry", () => {
  it("reports each answer's status, the 429 and its retry, and the wait for a property slot", async () => {
    const seen = recorder();
    nock(DATA)
      .post(REPORT_PATH)
      .reply(429, status(429, "RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota."))
      .post(REPORT_PATH)
      .reply(200, { rowCount: 2 });
    await expect(setup().connector.runReport("123", REPORT_BODY)).resolves.toEqual({ rowCount: 2 });
    expect(seen.filter((s) => !s.startsWith("token"))).toEqual([
      "wait google_analytics true",
      "upstream google_analytics 429",
      "refused google_analytics 429",
      "retried google_analytics",
      "wait google_analytics true",
      "upstream google_analytics 200",
    ]);
  });

  it("reports a request that got no answer as network_error", async () => {
    const seen = recorder();
    nock(DATA).post(REPORT_PATH).replyWithError({ code: "ECONNRESET" }).post(REPORT_PATH).reply(200, {});
    await setup().connector.runReport("123", REPORT_BODY);
    expect(seen).toContain("upstream google_analytics network_error");
    expect(seen).toContain("upstream google_analytics 200");
  });
});
