import { describe, expect, it } from "vitest";
import { MarketoApiCallOutput } from "../../src/schemas/marketo.js";

/**
 * Review s29: a count_by sum that is not a whole number (an amount with cents) broke the answer for a client that
 * checks the declared output schema ("computed/sum must be integer").
 */
describe("marketo_api_call's declared output", () => {
  it("takes computed figures that are not whole numbers", () => {
    const answer = {
      result: [],
      complete: true,
      warnings: [],
      record_errors: [],
      pages: 1,
      calls_used: 1,
      request_ids: [],
      computed: { read: 3, matched: 3, groups: 1, sum: 10.25, records_sum: 7.5 },
    };
    expect(MarketoApiCallOutput.safeParse(answer).success).toBe(true);
  });
});
