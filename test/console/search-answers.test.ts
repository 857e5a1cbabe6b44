/**
 * What the bar's search answers in words (src/console/tasks.ts' searchAnswers over each step's `answers`):
 * a question no step does is recognised in a marketer's words (trial s5, finding 9), and the bar lists
 * what comes nearest in place of what the words would find.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { searchSteps } from "../../src/console/steps.js";
import { searchAnswers } from "../../src/console/tasks.js";

const answered = (query: string) => searchAnswers(query).map((answer) => answer.id);

/** The JSON searchSteps sends for the query. */
function searched(query: string): { steps: { id: string }[]; answers: { id: string; words: string }[] } {
  let body = "";
  const res = {
    setHeader: () => undefined,
    writeHead: () => res,
    end: (text: string) => {
      body = text;
    },
  } as unknown as ServerResponse;
  searchSteps(res, query);
  return JSON.parse(body);
}

describe("the bar's answers in words", () => {
  it("says an email's subject and content are edited in Marketo, for the ways a marketer asks", () => {
    for (const query of [
      "edit email subject",
      "edit email subject line",
      "change email content",
      "edit an email",
    ])
      expect({ query, answers: answered(query) }).toEqual({ query, answers: ["edit_email"] });
    const [answer] = searchAnswers("edit an email");
    expect(answer?.words).toMatch(
      /^An email's subject and content are edited in Marketo itself: Design Studio → Emails/,
    );
    expect(answer?.words).not.toMatch(/marketo_api_call|\/rest\/|asset/i);
    // A lead's email address is a lead's field, not an email to edit; finding a lead is no question.
    expect(answered("change a lead's email address")).toEqual([]);
    expect(answered("find lead by email")).toEqual([]);
  });

  it("answers a report sent every week as it answers 'schedule'", () => {
    for (const query of [
      "schedule",
      "email every Monday",
      "weekly report",
      "send me every week",
      "daily report",
    ])
      expect({ query, answers: answered(query) }).toEqual({ query, answers: ["schedule"] });
    expect(answered("")).toEqual([]);
    expect(answered("sessions by country")).toEqual([]);
  });

  it("lists the nearest step with the answer, as the page receives them", () => {
    const monday = searched("email every Monday");
    expect(monday.answers.map((answer) => answer.words)).toEqual([
      "Reports cannot be scheduled here: run the report with Run Reports, then download it as a CSV file.",
    ]);
    expect(monday.steps.map((step) => step.id)).toContain("google_analytics_run_reports");
    // Patterns stay on the server.
    expect(JSON.stringify(searched("edit an email").answers)).not.toMatch(/patterns/);
    expect(searched("edit an email").steps.map((step) => step.id)).toContain("marketo_api_call");
  });
});
