/**
 * What the Marketo room adds to /metrics: its limit codes and token source (for the shared counters' help),
 * and the call window and daily quota of its instances, read at scrape time from the shared state, so on
 * Redis every replica reports the instance's own figures. With several instances, the busiest window and the
 * smallest quota left are what needs watching. Limits (rate window 606, concurrency 615, daily quota):
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/rest-api#limits
 */
import { serviceWindows } from "../../telemetry.js";
import type { RoomMetrics } from "../types.js";

export const MARKETO_METRICS: RoomMetrics = {
  limitRefusals: "Marketo 606 (rate window) and 615 (concurrency)",
  tokenSource: "an identity service (Marketo)",
  gauges: [
    {
      name: "martech_steps_marketo_window_use_ratio",
      help: "Share of Marketo's rolling call window in use now (the busiest instance this process talks to).",
      async read() {
        const usages = await serviceWindows("marketo");
        return usages.length > 0
          ? Math.max(...usages.map((u) => u.windowCalls / u.callsPerWindow))
          : undefined;
      },
    },
    {
      name: "martech_steps_marketo_daily_quota_remaining",
      help: "Marketo API calls left today by this server's count (the instance with the fewest left).",
      async read() {
        const usages = await serviceWindows("marketo");
        return usages.length > 0 ? Math.min(...usages.map((u) => u.remaining)) : undefined;
      },
    },
  ],
};
