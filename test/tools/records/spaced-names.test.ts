import { describe, expect, it } from "vitest";
import { ValidationError } from "../../../src/errors.js";
import { parseExpression, RECORDS_DIALECT } from "../../../src/tools/filter/parser.js";
import { recordTest } from "../../../src/tools/records/match.js";

/**
 * A name with a space written bare in where (trial s10, N75: attributes.New Value begins_with "Qualified"):
 * the error says how to write it, and the way it says works.
 */
const AT = { field: "where", hint: "the hint" };

describe("where with a name that has a space", () => {
  const written = 'attributes.New Value begins_with "Qualified"';
  const refusal = (): ValidationError => {
    try {
      parseExpression(written, AT, RECORDS_DIALECT);
    } catch (error) {
      if (error instanceof ValidationError) return error;
    }
    throw new Error("not refused");
  };

  it("is refused naming the quoted name", () => {
    expect(refusal().message).toContain(
      'a name with a space is written in double quotes, e.g. "attributes.New Value"',
    );
  });

  it("reads, written as the error says, the attribute of a REST activity", () => {
    const quoted = /e\.g\. ("[^"]+")/.exec(refusal().message)?.[1] ?? "";
    const test = recordTest(
      parseExpression(`${quoted} begins_with "Qualified"`, AT, RECORDS_DIALECT),
      undefined,
    );
    const activity = (value: string) => ({ attributes: [{ name: "New Value", value }] });
    expect(test(activity("Qualified"))).toBe(true);
    expect(test(activity("Open"))).toBe(false);
  });
});
