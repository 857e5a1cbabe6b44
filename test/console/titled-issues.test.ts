import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ErrorBody, fieldTitle, forPeople } from "../../src/console/titled-issues.js";
import { issuesFromAjv, type JsonSchemaNode } from "../../src/console/validation-wording.js";
import { ValidationError } from "../../src/errors.js";
import { describeIssues } from "../../src/tools/input/errors.js";
import { inputError } from "../../src/tools/input/words.js";
import { listedSteps } from "../../src/tools/listing.js";
import { getToolStep, TOOL_STEPS } from "../../src/tools/registry.js";
import { type LoadedForm, loadForm } from "../helpers/console-form.js";

const CONTEXT = { accounts: ["sandbox"] };
/** The step ids the server words errors with (the form gets them from its module). */
const STEPS = TOOL_STEPS.map((step) => step.id);
const schemaOf = (id: string) =>
  listedSteps().find((step) => step.name === id)?.inputSchema as unknown as JsonSchemaNode;

/** The console's server route: runToolStep's error (API names), then worded for people. */
function serverSays(id: string, input: unknown) {
  const parsed = getToolStep(id).input(CONTEXT).safeParse(input, { reportInput: true });
  if (parsed.success) throw new Error("expected the input to be refused");
  const { problems, more } = describeIssues(
    new z.ZodError(parsed.error.issues),
    getToolStep(id).input(CONTEXT),
  );
  const error = inputError(problems, more);
  return {
    agent: error.message,
    person: forPeople({ ...error.toJSON(), hint: error.hint } as ErrorBody, schemaOf(id), STEPS, input),
  };
}

describe("input errors named by the fields' titles (the console's words)", () => {
  let marketo: LoadedForm;
  beforeAll(async () => {
    marketo = await loadForm("marketo_api_call", CONTEXT);
  });

  it("names a field by its title, a list item by its own title or its list's, and number, a typed key as typed", () => {
    const reports = schemaOf("google_analytics_run_reports");
    expect(fieldTitle("endpoint", schemaOf("marketo_api_call"))).toBe("Endpoint");
    expect(fieldTitle("max_pages", schemaOf("marketo_api_call"))).toBe("Most pages");
    // A period as the form heads it ("Period 1"), not by its list's title.
    expect(fieldTitle("date_ranges[0].start_date", reports)).toBe("Period 1 › Start date");
    expect(fieldTitle("metrics[2]", reports)).toBe("Metric 3");
    expect(fieldTitle("dimensions[0]", reports)).toBe("Dimension 1");
    expect(fieldTitle("query_parameters.filterType", schemaOf("marketo_api_call"))).toBe(
      "Query parameters › filterType",
    );
    expect(fieldTitle("surprise", reports)).toBe("surprise");
  });

  it("shows every missing field at once by its title, while the agent's error keeps the API names", () => {
    const { agent, person } = serverSays("marketo_api_call", {});
    expect(agent).toMatch(/^Invalid method: required .*; endpoint: required/);
    expect(person.message).toBe(
      "2 fields to fix. Method: required (one of GET, POST, DELETE); Endpoint: required (a string). Fix the input and call again; nothing was sent.",
    );
    expect(person.issues?.map((issue) => issue.field)).toEqual(["method", "endpoint"]);
  });

  it("words the form's own check exactly as the server route does (one source)", () => {
    for (const input of [{}, { method: "GET", endpoint: "/rest/v1/leads.json", max_pages: 0 }]) {
      const errors = marketo.validate(marketo.normalise(input));
      const { problems, more } = issuesFromAjv(errors, marketo.schema, input, marketo.hints);
      const error = inputError(problems, more);
      const browser = forPeople(
        { ...error.toJSON(), hint: error.hint } as ErrorBody,
        marketo.schema,
        marketo.steps,
      );
      expect(browser.message).toBe(serverSays("marketo_api_call", input).person.message);
    }
  });

  it("words a one-field error without an issue list (a check only the server makes) and lists it", () => {
    const error = new ValidationError("body", "a body is only sent with POST, not GET.");
    const person = forPeople(error.toJSON() as ErrorBody, schemaOf("marketo_api_call"), STEPS);
    expect(person.message).toBe("Body (JSON): a body is only sent with POST, not GET.");
    expect(person.issues).toEqual([{ field: "body", message: "a body is only sent with POST, not GET" }]);
  });

  it("leaves out a hint that names a step of the registry (the form learns the ids from its module) or an API path", () => {
    expect(marketo.steps).toEqual(STEPS);
    const error = new ValidationError("endpoint", "not a path of this API.", {
      hint: `Read the paths with ${STEPS.at(-1)}.`,
    });
    const body = { ...error.toJSON(), hint: error.hint } as ErrorBody;
    expect(forPeople(body, marketo.schema, marketo.steps).hint).toBeUndefined();
    const viaPath = {
      ...body,
      hint: "Send GET v1beta/metadata.",
      message: "Invalid endpoint: x. Send GET v1beta/metadata.",
    };
    expect(forPeople(viaPath, marketo.schema, []).hint).toBeUndefined();
    const forPerson = {
      ...body,
      hint: "Check the spelling.",
      message: "Invalid endpoint: x. Check the spelling.",
    };
    expect(forPeople(forPerson, marketo.schema, marketo.steps).hint).toBe("Check the spelling.");
    // A step id the list does not hold is no agent's word (the ids come from the registry, not a pattern).
    expect(forPeople(body, marketo.schema, []).hint).toBe(error.hint);
  });

  describe("a custom period missing a date (trial s9, finding 2: the union's agent words, under Label)", () => {
    let reports: LoadedForm;
    beforeAll(async () => {
      reports = await loadForm("google_analytics_run_reports", CONTEXT);
    });
    const asked = (range: Record<string, string>) => ({
      property: "123456789",
      metrics: ["sessions"],
      date_ranges: ["last7days", range],
    });
    const formSays = (input: unknown) => {
      const { problems, more } = issuesFromAjv(
        reports.validate(reports.normalise(input)),
        reports.schema,
        input,
        reports.hints,
      );
      const error = inputError(problems, more);
      return forPeople({ ...error.toJSON(), hint: error.hint } as ErrorBody, reports.schema, STEPS, input);
    };

    it.each([
      [{ start_date: "2026-11-25" }, "end_date", "Period 2: choose an end date."],
      [{ end_date: "2026-12-01", name: "week" }, "start_date", "Period 2: choose a start date."],
    ])("%j: under its date's box, in a person's words, on the server and in the form", (range, key, said) => {
      const { agent, person } = serverSays("google_analytics_run_reports", asked(range));
      // The agent keeps the union's words, which name every form a period takes.
      expect(agent).toMatch(/^Invalid date_ranges\[1\]: expected a preset/);
      expect(person.message.startsWith(said)).toBe(true);
      expect(person.issues).toEqual([{ field: `date_ranges[1].${key}`, message: said.slice(10, -1) }]);
      expect(formSays(asked(range))).toEqual(person);
    });

    it("names both dates when neither is given, and keeps the union's words for a key no period has", () => {
      const { person } = serverSays("google_analytics_run_reports", asked({ name: "week" }));
      expect(person.message).toMatch(
        /^2 fields to fix\. Period 2: choose a start date; Period 2: choose an end date\./,
      );
      const odd = serverSays("google_analytics_run_reports", asked({ start_date: "2026-11-25", until: "x" }));
      expect(odd.person.issues?.map((issue) => issue.field)).toEqual(["date_ranges[1]"]);
    });
  });

  it("leaves any other error as it is", () => {
    const other = { error: "not_configured", message: "Connect Marketo first.", field: "x" };
    expect(forPeople(other, schemaOf("marketo_api_call"), STEPS)).toBe(other);
  });
});
