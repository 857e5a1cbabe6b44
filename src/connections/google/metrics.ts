/**
 * What the Google room adds to /metrics: the limit answer it counts (the Data API's HTTP 429 when a
 * property's tokens run out: https://developers.google.com/analytics/devguides/reporting/data/v1/quotas)
 * and where its tokens come from, for the shared counters' help. It has no gauges: GA's quota is per
 * property and is reported in each answer instead.
 */
import type { RoomMetrics } from "../types.js";

export const GOOGLE_METRICS: RoomMetrics = {
  limitRefusals: "GA4 HTTP 429",
  tokenSource: "Google's token endpoint",
};
