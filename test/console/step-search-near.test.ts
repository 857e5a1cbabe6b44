/**
 * The bar finds a task or step by a marketer's words, typed in part or several at a time, and never offers
 * nothing when some form is near (trial s13, finding 1: "send email" and "lead score" offered only the raw
 * REST step; "landing", "mobile", "drop off", "beta testers" and "integrations" found nothing). Both the
 * package's catalog search (searchToolSteps) and the console's route (searchSteps) are asked.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { searchSteps } from "../../src/console/steps.js";
import { searchToolSteps } from "../../src/tools/registry.js";

interface Found {
  steps: { id: string; reason?: string; start?: { input: Record<string, unknown> } }[];
  tasks: { id: string; title: string }[];
  answers: { id: string; title: string; words: string; link?: { href: string; text: string } }[];
}

/** The JSON searchSteps sends for the query. */
function searched(query: string): Found {
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

/** The first form the bar lists: its tasks come above its steps. */
const firstForm = (query: string) => {
  const { tasks, steps } = searched(query);
  return tasks[0]?.id ?? steps[0]?.id;
};

const REPORTS = "google_analytics_run_reports";

describe("the step search as a person types", () => {
  it.each([
    ["send", "trigger_campaign"],
    ["send email", "trigger_campaign"],
    ["welcome email", "trigger_campaign"],
    ["send newsletter", "trigger_campaign"],
    ["lead score", "export"],
    ["warm leads", "export"],
    ["landing", REPORTS],
    ["landing p", REPORTS],
    ["mobile", REPORTS],
    ["drop off", REPORTS],
    ["beta testers", "list_members"],
  ])("%j offers %s first", (query, id) => {
    expect(firstForm(query)).toBe(id);
  });

  it("finds Run Reports by a landing page, a device or a drop-off in the package's catalog search too", () => {
    for (const query of ["landing", "landing p", "mobile", "drop off"])
      expect({ query, first: searchToolSteps(query)[0]?.id }).toEqual({ query, first: REPORTS });
  });

  it("reads a breakdown typed in part as the one it begins, and fills the form with it", () => {
    const report = (query: string) => searched(query).steps.find((step) => step.id === REPORTS);
    expect(report("landing p")?.reason).toBe("A measure by Landing page");
    expect(report("landi")?.start?.input).toEqual({ dimensions: ["landingPage"] });
    expect(report("sess")?.reason).toBe("Sessions");
    expect(report("mobile")?.start?.input).toEqual({ dimensions: ["deviceCategory"] });
    // A whole word that only begins a longer name is not read as that name.
    expect(report("traffic")?.reason).toBeUndefined();
  });

  it("says a name no form has may be a list's or a campaign's, offering the forms that pick one", () => {
    const found = searched("beta testers");
    expect(found.tasks.map((task) => task.id)).toEqual(["list_members", "show_members", "trigger_campaign"]);
    expect(found.answers.map((answer) => answer.words)).toEqual([
      'No step or task is called "beta testers". If it is one of your lists or campaigns, choose a form below and pick it there by its name.',
    ]);
  });

  it("leads to the Integrations page for what is connected", () => {
    for (const query of ["integrations", "integ", "connected accounts"]) {
      const found = searched(query);
      expect({ query, answers: found.answers.map((answer) => answer.link) }).toEqual({
        query,
        answers: [{ href: "#/integrations", text: "Open Integrations" }],
      });
      expect(found.tasks).toEqual([]);
    }
  });

  it("keeps the catalog search empty for a word nothing knows", () => {
    expect(searchToolSteps("zebra")).toEqual([]);
    expect(searched("zebra").steps).toEqual([]);
  });
});
