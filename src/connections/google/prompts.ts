/** The Google Analytics room's MCP prompts (src/mcp/prompts.ts serves every room's). */
import type { RoomPrompt } from "../types.js";

export const GOOGLE_PROMPTS: readonly RoomPrompt[] = [
  {
    name: "weekly_traffic_report",
    title: "Weekly traffic report",
    description:
      "Sessions, users and engagement of a GA4 property over the last 7 days, by day and by channel.",
    arguments: [
      { name: "property", description: 'The GA4 property: "properties/123456789" or its number.' },
      {
        name: "account",
        description: "The connected Google account to use (label); optional.",
        optional: true,
      },
    ],
    text: ({ property, account }) =>
      [
        `Write a short weekly traffic report for Google Analytics property ${property}.`,
        `Call google_analytics_run_reports twice${account ? ` with account "${account}"` : ""}, date_ranges ["last7days"]:`,
        '1. dimensions ["date"], metrics ["sessions", "totalUsers", "engagementRate"], order_by "date";',
        '2. dimensions ["sessionDefaultChannelGroup"], metrics ["sessions", "totalUsers"], order_by "-sessions".',
        "Report the totals, the best and worst day, and the top channels, and mention any hint the tool returned (sampling, data still being processed).",
      ].join("\n"),
  },
];
