import type { GetPromptResult, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

function userText(text: string): GetPromptResult {
  return { messages: [{ role: "user", content: { type: "text", text } }] };
}

const WEEKLY_TRAFFIC_REPORT = "weekly_traffic_report";
const FIND_LEAD = "find_lead";
const EMAIL_PERFORMANCE = "email_performance";

/**
 * A few ready-made requests a person can pick in their client; each names the tool steps and
 * arguments to use, so the model starts from a call that works. Returns their names.
 */
export function registerPrompts(server: McpServer): readonly string[] {
  server.registerPrompt(
    WEEKLY_TRAFFIC_REPORT,
    {
      title: "Weekly traffic report",
      description:
        "Sessions, users and engagement of a GA4 property over the last 7 days, by day and by channel.",
      argsSchema: z.object({
        property: z.string().describe('The GA4 property: "properties/123456789" or its number.'),
        account: z.string().optional().describe("The connected Google account to use (label); optional."),
      }),
    },
    ({ property, account }) =>
      userText(
        [
          `Write a short weekly traffic report for Google Analytics property ${property}.`,
          `Call google_analytics_run_reports twice${account ? ` with account "${account}"` : ""}, date_ranges ["last7days"]:`,
          '1. dimensions ["date"], metrics ["sessions", "totalUsers", "engagementRate"], order_by "date";',
          '2. dimensions ["sessionDefaultChannelGroup"], metrics ["sessions", "totalUsers"], order_by "-sessions".',
          "Report the totals, the best and worst day, and the top channels, and mention any hint the tool returned (sampling, data still being processed).",
        ].join("\n"),
      ),
  );
  server.registerPrompt(
    FIND_LEAD,
    {
      title: "Find a lead",
      description:
        "Look up a Marketo lead by email and summarise who it is and which static lists it belongs to.",
      argsSchema: z.object({ email: z.string().describe("The lead's email address.") }),
    },
    ({ email }) =>
      userText(
        [
          `Find the Marketo lead with email ${email}.`,
          'Call marketo_api_call with method "GET", endpoint "/rest/v1/leads.json" and query_parameters ' +
            `{"filterType": "email", "filterValues": "${email}", "fields": "id,email,firstName,lastName,company,createdAt,updatedAt"}.`,
          'If a lead is found, call marketo_api_call with method "GET" and endpoint "/rest/v1/leads/{id}/listMembership.json" (its id) to list its static lists.',
          "Summarise the lead in a few lines; say plainly when no lead has that email.",
        ].join("\n"),
      ),
  );
  server.registerPrompt(
    EMAIL_PERFORMANCE,
    {
      title: "Email performance",
      description: "Sent, delivered, opened and clicked per Marketo email over a date range, in one call.",
      argsSchema: z.object({
        from: z.string().describe("First day, YYYY-MM-DD."),
        to: z.string().describe("Last day, YYYY-MM-DD."),
      }),
    },
    ({ from, to }) =>
      userText(
        [
          `Report Marketo email performance from ${from} to ${to}: per email, sent, delivered, opened and clicked, with open and click rates.`,
          'Call marketo_api_call once with method "POST", endpoint "/bulk/v1/activities/export/create.json", run_to_completion true, ' +
            'count_by "primaryAttributeValue,activityType" and body ' +
            `{"format": "CSV", "filter": {"createdAt": {"startAt": "${from}T00:00:00Z", "endAt": "${to}T23:59:59Z"}, ` +
            '"activityTypeIds": ["Send Email", "Email Delivered", "Open Email", "Click Email"]}}.',
          "Each result row is one email (primaryAttributeValue) and activity type with its count: do not count rows yourself.",
          "Say that Marketo's REST API has no Email Performance report, so these counts come from the activity log.",
        ].join("\n"),
      ),
  );
  return [WEEKLY_TRAFFIC_REPORT, FIND_LEAD, EMAIL_PERFORMANCE];
}
