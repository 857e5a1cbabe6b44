/** The Marketo room's MCP prompts (src/mcp/prompts.ts serves every room's). */
import type { RoomPrompt } from "../types.js";

export const MARKETO_PROMPTS: readonly RoomPrompt[] = [
  {
    name: "find_lead",
    title: "Find a lead",
    description:
      "Look up a Marketo lead by email and summarise who it is and which static lists it belongs to.",
    arguments: [{ name: "email", description: "The lead's email address." }],
    text: ({ email }) =>
      [
        `Find the Marketo lead with email ${email}.`,
        'Call marketo_api_call with method "GET", endpoint "/rest/v1/leads.json" and query_parameters ' +
          `{"filterType": "email", "filterValues": "${email}", "fields": "id,email,firstName,lastName,company,createdAt,updatedAt"}.`,
        'If a lead is found, call marketo_api_call with method "GET" and endpoint "/rest/v1/leads/{id}/listMembership.json" (its id) to list its static lists.',
        "Summarise the lead in a few lines; say plainly when no lead has that email.",
      ].join("\n"),
  },
  {
    name: "email_performance",
    title: "Email performance",
    description: "Sent, delivered, opened and clicked per Marketo email over a date range, in one call.",
    arguments: [
      { name: "from", description: "First day, YYYY-MM-DD." },
      { name: "to", description: "Last day, YYYY-MM-DD." },
    ],
    text: ({ from, to }) =>
      [
        `Report Marketo email performance from ${from} to ${to}: per email, sent, delivered, opened and clicked, with open and click rates.`,
        'Call marketo_api_call once with method "POST", endpoint "/bulk/v1/activities/export/create.json", run_to_completion true, ' +
          'count_by "primaryAttributeValue,activityType:columns", count_distinct "leadId" and body ' +
          `{"format": "CSV", "filter": {"createdAt": {"startAt": "${from}T00:00:00Z", "endAt": "${to}T23:59:59Z"}, ` +
          '"activityTypeIds": ["Send Email", "Email Delivered", "Open Email", "Click Email"]}}.',
        "Each result row is one email (primaryAttributeValue), with a column per activity type holding its unique leads; " +
          "do not count rows yourself. Open rate = Open Email / Email Delivered of the same row.",
        "Say that Marketo's REST API has no Email Performance report, so these counts come from the activity log.",
      ].join("\n"),
  },
];
