/**
 * `call` names what is actually wrong with its arguments: a misspelt option (with the one meant), a
 * missing step id, then a missing --input, in that order.
 */
import { describe, expect, it } from "vitest";
import { freshHome, run } from "../helpers/cli.js";

describe("call with wrong arguments", () => {
  it.each([
    [
      ["call", "marketo_api_call", "--inptu", "{}"],
      /^error: unknown option '--inptu'\n\(Did you mean --input\?\)/,
    ],
    [["call", "--input", "{}"], /^error: missing required argument 'step-id'/],
    [["call"], /^error: missing required argument 'step-id'/],
    [["call", "marketo_api_call"], /^error: required option '--input <json>' not specified/],
  ])("%j", async (args, message) => {
    const result = await run(args, { MARTECH_STEPS_HOME: await freshHome("martech-call-args-") });
    // A usage error is invalid input: exit 2, as the README says.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });
});
