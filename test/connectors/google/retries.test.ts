import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { describe, expect, it } from "vitest";
import {
  NetworkError,
  QuotaExceededError,
  RateLimitError,
  UnknownOutcomeError,
  UpstreamError,
} from "../../../src/errors.js";
import { ENDPOINTS } from "../../helpers/google-auth.js";
import {
  ADMIN,
  DATA,
  offline,
  REPORT_BODY,
  REPORT_PATH,
  setup,
  status,
} from "../../helpers/google-connector.js";

offline();

describe("429", () => {
  it("retries 'concurrent requests' after a short backoff, honouring Retry-After", async () => {
    const scope = nock(DATA)
      .post(REPORT_PATH)
      .reply(429, status(429, "RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota."))
      .post(REPORT_PATH)
      .reply(429, status(429, "RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota."), {
        "retry-after": "3",
      })
      .post(REPORT_PATH)
      .reply(200, { rowCount: 2 });
    const { connector, sleeps } = setup();
    await expect(connector.runReport("123", REPORT_BODY)).resolves.toEqual({ rowCount: 2 });
    expect(sleeps).toEqual([750, 3000]);
    scope.done();
  });

  it("turns exhausted concurrency after maxRetries into RateLimitError", async () => {
    nock(DATA)
      .post(REPORT_PATH)
      .times(3)
      .reply(429, status(429, "RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota."));
    const error = await setup({ maxRetries: 2 })
      .connector.runReport("123", REPORT_BODY)
      .catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBeGreaterThan(0);
  });

  it("does not retry tokens per day, and says they return within 24 hours", async () => {
    const scope = nock(DATA)
      .post(REPORT_PATH)
      .reply(
        429,
        status(
          429,
          "RESOURCE_EXHAUSTED",
          "Exhausted property tokens per day. These quota tokens will return in under 24 hours.",
        ),
      );
    const { connector, sleeps } = setup();
    const error = await connector.runReport("123", REPORT_BODY).catch((e) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.message).toMatch(/within 24 hours/);
    expect(error.retryable).toBe(false);
    expect(sleeps).toEqual([]);
    scope.done();
  });

  it("reads Google's project-hour refusal as an hourly quota, not retried", async () => {
    // The wording Google sends when a Cloud project used its share of the property's hour (REAL-API B4).
    nock(DATA)
      .post(REPORT_PATH)
      .reply(429, status(429, "RESOURCE_EXHAUSTED", "Exhausted property tokens for a project per hour."));
    const { connector, sleeps } = setup();
    const error = await connector.runReport("123", REPORT_BODY).catch((e) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.details).toMatchObject({ quota: "hourly" });
    expect(sleeps).toEqual([]);
  });

  it("does not retry tokens per hour, and says it resets at the top of the next hour", async () => {
    nock(DATA)
      .post(REPORT_PATH)
      .reply(429, status(429, "RESOURCE_EXHAUSTED", "Exhausted property tokens per hour."));
    const error = await setup()
      .connector.runReport("123", REPORT_BODY)
      .catch((e) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.resetsAt.toISOString()).toBe("2025-06-01T11:00:00.000Z");
    expect(error.message).toContain("top of the next hour (2025-06-01T11:00:00.000Z)");
  });
});

describe("5xx and lost connections", () => {
  it("retries a report after 503 with capped exponential backoff, honouring Retry-After", async () => {
    const scope = nock(DATA)
      .post(REPORT_PATH)
      .reply(503, status(503, "UNAVAILABLE", "The service is currently unavailable."), { "retry-after": "2" })
      .post(REPORT_PATH)
      .reply(500, status(500, "INTERNAL", "Internal error encountered."))
      .post(REPORT_PATH)
      .reply(503, status(503, "UNAVAILABLE", "The service is currently unavailable."))
      .post(REPORT_PATH)
      .reply(200, { rowCount: 3 });
    const { connector, sleeps } = setup();
    await expect(connector.runReport("123", REPORT_BODY)).resolves.toEqual({ rowCount: 3 });
    // 2 s from Retry-After, then 0.5 s·2^1 and 0.5 s·2^2 with equal jitter (random = 0.5).
    expect(sleeps).toEqual([2000, 750, 1500]);
    scope.done();
  });

  it("reports a Retry-After beyond maxRetryWaitMs instead of waiting", async () => {
    nock(DATA)
      .post(REPORT_PATH)
      .reply(503, status(503, "UNAVAILABLE", "busy"), { "retry-after": "120" });
    const { connector, sleeps } = setup();
    const error = await connector.runReport("123", REPORT_BODY).catch((e) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.retryable).toBe(true);
    expect(sleeps).toEqual([]);
  });

  it.each([
    ["POST", "/v1beta/properties"],
    ["POST", "/v1beta/properties/123/keyEvents"],
    ["POST", "/v1beta/properties/123/dataStreams"],
    ["DELETE", "/v1beta/properties/123/keyEvents/9"],
  ] as const)("never replays %s %s after a 503 or a reset connection", async (method, path) => {
    const scope = nock(ADMIN)
      .intercept(path, method)
      .reply(503, status(503, "UNAVAILABLE", "try later"))
      .intercept(path, method)
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    const { connector, sleeps } = setup();
    const body = method === "POST" ? { eventName: "purchase", countingMethod: "ONCE_PER_EVENT" } : undefined;
    const first = await connector.call({ method, path, body }).catch((e) => e);
    expect(first).toBeInstanceOf(UnknownOutcomeError);
    expect(first.message).toMatch(/may or may not have been applied.*not repeated/);
    const second = await connector.call({ method, path, body }).catch((e) => e);
    expect(second).toBeInstanceOf(UnknownOutcomeError);
    expect(sleeps).toEqual([]);
    scope.done();
  });

  it("a refused connection on a create is a plain NetworkError (nothing was sent)", async () => {
    // A real refused connection: a loopback port nobody listens on any more.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    nock.enableNetConnect(/127\.0\.0\.1/);
    const { connector } = setup({ endpoints: { ...ENDPOINTS, adminApiUrl: `http://127.0.0.1:${port}` } });
    const error = await connector
      .call({ method: "POST", path: "v1beta/properties", body: {} })
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).not.toMatch(/may or may not/);
  });

  it("retries reads after a reset connection, then reports a NetworkError", async () => {
    const scope = nock(ADMIN)
      .get("/v1beta/accounts")
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" })
      .get("/v1beta/accounts")
      .reply(200, { accounts: [] });
    const { connector, sleeps } = setup();
    await expect(connector.call({ method: "GET", path: "v1beta/accounts" })).resolves.toEqual({
      api: "admin",
      body: { accounts: [] },
    });
    expect(sleeps).toEqual([375]);
    scope.done();
    nock(ADMIN)
      .get("/v1beta/accounts")
      .times(2)
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });
    const error = await setup({ maxRetries: 1 })
      .connector.call({ method: "GET", path: "v1beta/accounts" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.retryable).toBe(true);
  });
});
