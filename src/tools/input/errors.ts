import { z } from "zod";
import { alternatives, objectSchemaOf, type Path, schemaAt } from "./schema-walk.js";
import { type DescribedIssues, type FormKind, formsInWords, type IssueFacts, wordIssues } from "./words.js";

export { type DescribedIssues, inputError, nearestName, shown } from "./words.js";

/**
 * zod's issues as messages a model can act on (the words are in words.ts): here each issue becomes the
 * facts the wording needs, read from the step's zod schema (the accepted fields, a union's forms).
 */

/** The forms a union accepts, as words.ts names them, when its schema gives none of its own. */
function formsOf(schema: z.core.$ZodType | undefined): string {
  if (!schema) return "another form";
  return formsInWords(
    alternatives(schema).map((option): FormKind => {
      if (option instanceof z.ZodEnum) return { kind: "enum", values: option.options as string[] };
      if (option instanceof z.ZodObject) return { kind: "object", keys: Object.keys(option.shape) };
      if (option instanceof z.ZodArray) return { kind: "array" };
      if (option instanceof z.ZodRecord) return { kind: "record" };
      return { kind: "other", type: option._zod.def.type };
    }),
  );
}

function facts(issue: z.core.$ZodIssue, root: z.core.$ZodType | undefined, at: Path): IssueFacts {
  const path = [...at, ...issue.path];
  switch (issue.code) {
    case "unrecognized_keys": {
      const object = root ? objectSchemaOf(schemaAt(root, issue.path) ?? root) : undefined;
      return { code: issue.code, path, keys: issue.keys, accepted: object ? Object.keys(object.shape) : [] };
    }
    case "invalid_union":
      // A union's own message (set in the schema) already names its forms; zod's default does not.
      return {
        code: issue.code,
        path,
        input: issue.input,
        expected:
          issue.message && issue.message !== "Invalid input"
            ? issue.message
            : `expected ${formsOf(root ? schemaAt(root, issue.path) : undefined)}`,
      };
    case "invalid_type":
      return { code: issue.code, path, input: issue.input, expected: issue.expected };
    case "invalid_value":
      return { code: issue.code, path, input: issue.input, values: issue.values };
    default:
      return { code: "other", path, input: issue.input, message: issue.message };
  }
}

/**
 * zod's issues as {field, message} (the first few dozen; the rest counted, see wordIssues); `at` prefixes
 * the fields of a value that was checked on its own.
 */
export function describeIssues(
  error: z.ZodError,
  schema: z.core.$ZodType | undefined,
  at: Path = [],
): DescribedIssues {
  return wordIssues(error.issues.map((issue) => facts(issue, schema, at)));
}
