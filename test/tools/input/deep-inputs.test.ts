import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { MAX_INPUT_DEPTH } from "../../../src/tools/input/depth.js";
import { runToolStep } from "../../../src/tools/run.js";
import { recording, sentFor } from "../../helpers/recording-connector.js";

/**
 * Inputs nested deeper than anything these steps need are refused with a ValidationError naming the field and
 * the limit, instead of overflowing the stack of a recursive check (a RangeError, "internal error" over MCP).
 */

const deep = (levels: number, leaf: unknown = 1) => {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

/** A GA FilterExpression of `groups` nested and-groups: about three JSON levels each. */
const nestedGroups = (groups: number) => {
  let expression: unknown = { filter: { fieldName: "country", stringFilter: { value: "France" } } };
  for (let i = 1; i < groups; i += 1) expression = { andGroup: { expressions: [expression] } };
  return expression;
};

describe("deep inputs", () => {
  it.each([
    ["marketo_api_call", "body", { method: "POST", endpoint: "/rest/v1/leads.json", body: deep(50_000) }],
    [
      "google_analytics_api_call",
      "body",
      { method: "POST", endpoint: "v1beta/properties/1:runReport", body: { x: [deep(200)] } },
    ],
    [
      "google_analytics_run_reports",
      "filter",
      { property: "1", metrics: ["sessions"], filter: { notExpression: deep(20_000) } },
    ],
    ["marketo_api_call", "query", { method: "GET", endpoint: "/rest/v1/lists.json", query: deep(50_000) }],
  ])("%s: %s nested deeper than the limit", async (id, field, input) => {
    // Not recording.refused(): it prints the input with JSON.stringify, which these inputs overflow.
    const { context, sent } = recording();
    const error = await runToolStep(id, input, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect(sent()).toEqual([]);
    if (!(error instanceof ValidationError)) return;
    expect(error.field).toBe(field);
    expect(error.message).toMatch(new RegExp(`nests deeper than ${MAX_INPUT_DEPTH} levels`));
  });

  it("a FilterExpression as deep as GA allows still goes through an API Call body", async () => {
    const body = { metrics: [{ name: "sessions" }], dimensionFilter: nestedGroups(32) };
    const [call] = (await sentFor("google_analytics_api_call", {
      method: "POST",
      endpoint: "v1beta/properties/1:runReport",
      body,
    })) as { args: { body: unknown }[] }[];
    expect(call?.args[0]?.body).toEqual(body);
  });
});
