/**
 * The day's usage, read after Marketo answered a call. By then the call has run: a failure to read the
 * usage (the shared state in Redis stopped or unreachable) must not turn the answer into an error,
 * since a caller retries an error and would send a write a second time. The answer keeps Marketo's data
 * and says the usage is missing; the cause goes to the log for whoever runs the server.
 */
import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { ToolContext } from "../types.js";

/** Below this share of the daily quota left, each call warns the person watching (MCP log). */
const LOW_DAILY_SHARE = 0.1;

/** Said in the answer's warnings and summary when the usage could not be read. */
export const USAGE_UNREAD =
  "Marketo answered this call, but the day's API usage could not be read afterwards (the shared limits " +
  "state did not answer), so daily_calls_remaining is left out. The call ran: do not send it again.";

/** Calls left today, or the note that says why they are unknown. */
export type DailyUsage = { remaining: number } | { note: string };

export async function dailyUsage(marketo: MarketoConnector, ctx: ToolContext): Promise<DailyUsage> {
  let usage: Awaited<ReturnType<MarketoConnector["usage"]>>;
  try {
    usage = await marketo.usage();
  } catch (error) {
    ctx.log?.({
      level: "warning",
      message: `The day's Marketo API usage could not be read after the call was answered: ${error instanceof Error ? error.message : String(error)}`,
    });
    return { note: USAGE_UNREAD };
  }
  if (usage.remaining <= usage.dailyQuota * LOW_DAILY_SHARE) {
    ctx.log?.({
      level: "warning",
      message: `Only ${usage.remaining} of ${usage.dailyQuota} Marketo API calls are left today (the day ends at midnight America/Chicago).`,
      data: { daily_calls_remaining: usage.remaining, daily_quota: usage.dailyQuota },
    });
  }
  return { remaining: usage.remaining };
}
