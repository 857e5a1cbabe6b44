/**
 * What the console says to a person where MCP speaks to an agent: a run's headline and notes without the
 * quota left, tool names, API paths or column patterns (src/console/run-results.ts), and a refused GA
 * field name under its own field, by its title, without the agent's advice (src/console/titled-issues.ts).
 */
import { describe, expect, it } from "vitest";
import { withFieldWords } from "../../console/src/field-words.js";
import { progressForPeople } from "../../console/src/progress-words.js";
import { forPeople as resultForPeople } from "../../src/console/run-results.js";
import { type ErrorBody, forPeople } from "../../src/console/titled-issues.js";
import type { JsonSchemaNode } from "../../src/console/validation-wording.js";
import { isMartechError } from "../../src/errors.js";
import { throwNameProblems } from "../../src/tools/ga/field-catalog.js";
import { listedSteps } from "../../src/tools/listing.js";
import { readSoFarWords } from "../../src/tools/marketo/read-calls.js";
import { TOOL_STEPS } from "../../src/tools/registry.js";

const reports = listedSteps().find((step) => step.name === "google_analytics_run_reports")
  ?.inputSchema as unknown as JsonSchemaNode;

describe("the console's words for a person", () => {
  it("leaves the quota left, tool names, API paths and column patterns out of a report's headline and notes", () => {
    const words = resultForPeople({
      summary:
        "Report on Shop (properties/1) for 2026-11-03…2026-11-30, dates in UTC: 6 rows of 6; 39,997 quota tokens left this hour. Largest changes in sessions: Direct +5.",
      data: {
        hints: [
          "The dates include the last 48 hours: GA may still be processing that data (final within 24–48 h).",
          "request is GA's runFunnelReport body: google_analytics_api_call with POST v1alpha/properties/1:runFunnelReport and it as body returns GA's raw answer.",
          "The 12 rows GA returned are merged into 6: each metric per range as <metric>[<range>], and <metric>_change.",
          "Rows: users reaching each step; completion_rate_pct of them went on to the next step.",
          // An API version alone, without a path, is still an agent's word.
          "Funnels come from GA's v1alpha Data API: its answers may change shape.",
          "Read with the v1beta Admin API.",
        ],
      },
    });
    expect(words.summary).toBe(
      "Report on Shop (properties/1) for 2026-11-03…2026-11-30, dates in UTC: 6 rows of 6. Largest changes in sessions: Direct +5.",
    );
    expect(words.notes).toEqual([
      "The dates include the last 48 hours: GA may still be processing that data (final within 24–48 h).",
    ]);
  });

  it("words a read's progress as a marketer would: found so far, not records read nor pages", () => {
    const read = readSoFarWords({ page: 3, items: 600 });
    expect(progressForPeople(read)).toBe("600 found so far");
    expect(progressForPeople(`${read}. Waiting 3 s for Marketo's rate window limit`)).toBe(
      "600 found so far. Waiting 3 s for Marketo's rate window limit",
    );
    expect(progressForPeople("Page 2, 1 record read, 1 match")).toBe("1 found so far, 1 match");
    expect(progressForPeople("Export 2 of 3 read: 5,000 rows so far, 1 empty window")).toBe(
      "Part 2 of 3 done: 5,000 rows so far",
    );
    expect(progressForPeople("Running the report")).toBe("Running the report");
  });

  it("leaves the next call to make and the agent's parameters out of a Marketo headline", () => {
    const trigger = resultForPeople({
      summary:
        'Marketo accepted the request to run smart campaign 1001 for 1 lead (id 7). Marketo runs the campaign asynchronously: this answer means it was queued, not that its flow has run. To see what the flow did, call marketo_api_call with {"method":"GET","endpoint":"/rest/v1/activities.json"} (other activity types: GET /rest/v1/activities/types.json); the activities it logs carry campaignId 1001.',
      data: {},
    });
    expect(trigger.summary).toBe(
      "Marketo accepted the request to run smart campaign 1001 for 1 lead (id 7). Marketo runs the campaign asynchronously: this answer means it was queued, not that its flow has run.",
    );
    const exported = resultForPeople({
      summary:
        "POST /bulk/v1/leads/export/create.json run to completion: 150 rows read; where leadScore > 100: 21 of 150 rows match; all 21 are in the file linked below; all 150 rows of the export were read; max_items was not given, so it did not cut the read; Marketo keeps the file for seven days.",
      data: {},
    });
    expect(exported.summary).toBe(
      "POST /bulk/v1/leads/export/create.json run to completion: 150 rows read; where leadScore > 100: 21 of 150 rows match; all 21 are in the file linked below; all 150 rows of the export were read; Marketo keeps the file for seven days.",
    );
  });

  it("puts each refused metric and dimension under its own field, by its title, without the agent's advice", () => {
    let thrown: unknown;
    try {
      throwNameProblems([
        {
          field: "metrics[0]",
          message: '"Sesions" is not a metric of this property; did you mean "sessions"?',
        },
        { field: "dimensions[0]", message: '"Contry" is not a dimension of this property' },
      ]);
    } catch (error) {
      thrown = error;
    }
    if (!isMartechError(thrown)) throw new Error("expected a typed error");
    // An agent still reads the API names and the way to the metadata.
    expect(thrown.message).toMatch(/google_analytics_api_call/);
    const person = forPeople(
      { ...thrown.toJSON(), hint: thrown.hint } as ErrorBody,
      reports,
      TOOL_STEPS.map((step) => step.id),
    );
    expect(person.issues?.map((issue) => issue.field)).toEqual(["metrics[0]", "dimensions[0]"]);
    expect(person.message).toBe(
      '2 fields to fix. Metric 1: "Sesions" is not a metric of this property; did you mean "sessions"?; Dimension 1: "Contry" is not a dimension of this property.',
    );
    expect(person.hint).toBeUndefined();
  });

  it("says what each Run Reports field does without agent words (review s10: the PNG box said 'for an agent')", () => {
    const ui = withFieldWords({}, "google_analytics_run_reports");
    const words = Object.values(ui).map((field) =>
      String((field as Record<string, unknown>)["ui:description"]),
    );
    expect(words.length).toBeGreaterThan(5);
    expect(words.filter((text) => /\bagents?\b|\bAPI\b|\bMCP\b/i.test(text))).toEqual([]);
  });
});
