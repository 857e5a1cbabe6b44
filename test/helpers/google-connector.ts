import nock from "nock";
import { afterEach, beforeEach } from "vitest";
import type { GoogleTokenSource } from "../../src/auth/google/token-source.js";
import {
  GoogleAnalyticsConnector,
  type GoogleAnalyticsConnectorDeps,
} from "../../src/connectors/google/connector.js";
import { MemoryState } from "../../src/state/memory.js";
import { ENDPOINTS } from "./google-auth.js";

export const DATA = ENDPOINTS.dataApiUrl;
export const ADMIN = ENDPOINTS.adminApiUrl;
export const NOW = Date.UTC(2025, 5, 1, 10, 17, 5);

/** A token source that hands out ya29.token-<n> and moves to the next one when its token is invalidated. */
export function fakeTokens(label = "main"): GoogleTokenSource & { invalidated: string[] } {
  let n = 1;
  const invalidated: string[] = [];
  return {
    label,
    invalidated,
    getToken: async () => `ya29.token-${n}`,
    invalidate(token: string) {
      invalidated.push(token);
      if (token === `ya29.token-${n}`) n += 1;
    },
    tokenRequests: () => n,
  };
}

export function setup(overrides: Partial<GoogleAnalyticsConnectorDeps> = {}) {
  const sleeps: number[] = [];
  const tokens = fakeTokens();
  const connector = new GoogleAnalyticsConnector({
    tokens,
    endpoints: ENDPOINTS,
    state: new MemoryState(),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    now: () => NOW,
    ...overrides,
  });
  return { connector, sleeps, tokens };
}

export function status(code: number, statusName: string, message: string, details?: unknown[]) {
  return { error: { code, message, status: statusName, ...(details ? { details } : {}) } };
}

/** No real network in these tests: every request must meet a nock interceptor. */
export function offline(): void {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
}

export const REPORT_PATH = "/v1beta/properties/123:runReport";
export const REPORT_BODY = {
  dateRanges: [{ startDate: "7daysAgo", endDate: "yesterday" }],
  metrics: [{ name: "sessions" }],
};
