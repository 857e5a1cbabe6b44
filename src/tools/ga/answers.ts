/**
 * What a marketer may ask of Run Reports that it cannot do, answered in the bar beside the hits: a report
 * sent on a schedule (trial C12: "schedule" found nothing; s5, finding 9: "email every Monday", "send me
 * every week" were not recognised). The step runs a report when asked; scheduled emailing is a feature of
 * Looker Studio or GA's own scheduled email of a report, neither of which the Data API offers
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport).
 */
import type { StepAnswer } from "../tasks.js";

const DAYS = "(?:day|week|month|morning|monday|tuesday|wednesday|thursday|friday|saturday|sunday)";

export const REPORT_ANSWERS: readonly StepAnswer[] = [
  {
    id: "schedule",
    title: "Scheduled reports",
    patterns: [
      /\b(?:schedul|weekly|daily|monthly|recurring|pdf)/i,
      new RegExp(String.raw`\b(?:every|each)\s+(?:other\s+)?${DAYS}s?\b`, "i"),
      /\bsend\s+(?:me|us|it|this)\b/i,
      /\bautomatically\b/i,
    ],
    words:
      "Reports cannot be scheduled here: run the report with Run Reports, then download it as a CSV file.",
    search: "report",
  },
];
