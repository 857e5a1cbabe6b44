import { z } from "zod";
import { ValidationError } from "../../errors.js";
import { issuePath } from "../../schemas/json-schema.js";
import { levenshtein } from "../ga/field-catalog.js";
import { alternatives, objectSchemaOf, type Path, schemaAt } from "./schema-walk.js";

/**
 * zod's issues as messages a model can act on: the field, what is accepted there, what was received
 * (shortened, never a value under a secret-looking name), and for an unknown field the nearest accepted name.
 */

const MAX_SHOWN = 60;
const MAX_ISSUES = 5;
// A caller's own input never holds our credentials, but a value under such a name is not repeated anyway.
const SECRET_NAME = /secret|token|password|passwd|authori[sz]ation|api[-_]?key|credential|cookie/i;

/** Words agents use for a field under another name, and the field they mean (when it is accepted there). */
const SYNONYMS: Record<string, string | string[]> = {
  path: "endpoint",
  url: "endpoint",
  uri: "endpoint",
  route: "endpoint",
  params: "query_parameters",
  queryparams: "query_parameters",
  querystring: "query_parameters",
  qs: "query_parameters",
  search: "query_parameters",
  data: "body",
  json: "body",
  payload: "body",
  verb: "method",
  httpmethod: "method",
  dates: "date_ranges",
  daterange: "date_ranges",
  period: "date_ranges",
  sort: "order_by",
  sortby: "order_by",
  orderby: "order_by",
  filters: "filter",
  where: "filter",
  rows: "limit",
  pagesize: "limit",
  propertyid: "property",
  name: ["event_name", "display_name"],
  event: "event_name",
  eventname: "event_name",
  timezone: "time_zone",
  currency: "currency_code",
  industry: "industry_category",
  accountid: "analytics_account",
};

const squash = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");

/** The accepted name closest to `key`: a known synonym, the same letters, or a small edit away. */
export function nearestName(key: string, accepted: readonly string[]): string | undefined {
  const wanted = squash(key);
  const synonym = [SYNONYMS[wanted] ?? []].flat().find((name) => accepted.includes(name));
  if (synonym) return synonym;
  const ranked = accepted
    .map((name) => {
      const candidate = squash(name);
      const prefix = candidate.startsWith(wanted) || wanted.startsWith(candidate);
      return { name, distance: prefix && wanted.length >= 3 ? 0.5 : levenshtein(wanted, candidate) };
    })
    .filter(({ name, distance }) => distance <= Math.max(2, Math.floor(squash(name).length / 3)))
    .sort((a, b) => a.distance - b.distance);
  return ranked[0]?.name;
}

/** The received value, shortened, or "(not shown)" under a secret-looking name. */
export function shown(value: unknown, path: Path): string {
  if (path.some((part) => typeof part === "string" && SECRET_NAME.test(part))) return "(value not shown)";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (value === undefined) return "nothing";
  return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  array: "a list",
  object: "an object",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  record: "an object",
};

/** How a list should have been written: "sessions,users" → ["sessions","users"]. */
function asList(value: unknown, path: Path): string {
  if (typeof value === "string") {
    const parts = value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    return shown(parts.length > 0 ? parts : [value], path);
  }
  return `[${shown(value, path)}]`;
}

/** The forms a union accepts, in words, when its schema gives none of its own. */
function formsOf(schema: z.core.$ZodType | undefined): string {
  if (!schema) return "another form";
  return alternatives(schema)
    .map((option) => {
      if (option instanceof z.ZodEnum) return `one of ${(option.options as string[]).join(", ")}`;
      if (option instanceof z.ZodObject) return `{${Object.keys(option.shape).join(", ")}}`;
      if (option instanceof z.ZodArray) return "a list";
      if (option instanceof z.ZodRecord) return "an object";
      return EXPECTED[option._zod.def.type] ?? option._zod.def.type;
    })
    .join(" or ");
}

interface Problem {
  field: string;
  message: string;
  /** For an unknown field: the full path of the accepted field it probably stands for. */
  meant?: string;
  /** A required field that was not given. */
  missing?: boolean;
}

function describe(issue: z.core.$ZodIssue, root: z.core.$ZodType | undefined, at: Path): Problem[] {
  const path = [...at, ...issue.path];
  const field = issuePath(path);
  const received = (value: unknown) => `received ${kindOf(value)} ${shown(value, path)}`.trim();
  switch (issue.code) {
    case "unrecognized_keys": {
      const object = root ? objectSchemaOf(schemaAt(root, issue.path) ?? root) : undefined;
      const accepted = object ? Object.keys(object.shape) : [];
      return issue.keys.map((key) => {
        const near = nearestName(key, accepted);
        return {
          field: issuePath([...path, key]),
          ...(near ? { meant: issuePath([...path, near]) } : {}),
          message:
            `unknown field${near ? `; did you mean ${near}?` : "."}` +
            (accepted.length > 0 ? ` Accepted here: ${accepted.join(", ")}` : ""),
        };
      });
    }
    case "invalid_union": {
      // A union's own message (set in the schema) already names its forms; zod's default does not.
      const forms =
        issue.message && issue.message !== "Invalid input"
          ? issue.message
          : `expected ${formsOf(root ? schemaAt(root, issue.path) : undefined)}`;
      return [{ field, message: `${forms}; ${received(issue.input)}` }];
    }
    case "invalid_type": {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      const hint =
        issue.expected === "array" && issue.input !== undefined
          ? `: write it as a list, e.g. ${asList(issue.input, path)}`
          : issue.expected === "number" && typeof issue.input === "string" && /^\d+$/.test(issue.input)
            ? `: write ${issue.input} without quotes`
            : "";
      if (issue.input === undefined) return [{ field, message: `required (${expected})`, missing: true }];
      return [{ field, message: `expected ${expected}, ${received(issue.input)}${hint}` }];
    }
    case "invalid_value":
      return [
        {
          field,
          message: `expected one of ${issue.values.map((v) => String(v)).join(", ")}; ${received(issue.input)}`,
        },
      ];
    default: {
      const value = issue.input;
      const scalar = typeof value === "string" || typeof value === "number";
      return [{ field, message: scalar ? `${issue.message}; ${received(value)}` : issue.message }];
    }
  }
}

/**
 * zod's issues as {field, message}; `at` prefixes the fields of a value that was checked on its own.
 * Unknown fields come first (they usually explain the rest); "required" for the field an unknown one was
 * probably meant as, and zod's follow-up checks on a value of the wrong type, are left out as noise.
 */
export function describeIssues(
  error: z.ZodError,
  schema: z.core.$ZodType | undefined,
  at: Path = [],
): Problem[] {
  const wrongType = new Set(
    error.issues.filter((issue) => issue.code === "invalid_type").map((issue) => issuePath(issue.path)),
  );
  const issues = error.issues.filter(
    (issue) => issue.code === "invalid_type" || !wrongType.has(issuePath(issue.path)),
  );
  const unknown = issues.filter((issue) => issue.code === "unrecognized_keys");
  const problems = [...unknown, ...issues.filter((issue) => issue.code !== "unrecognized_keys")].flatMap(
    (issue) => describe(issue, schema, at),
  );
  const meant = new Set(problems.flatMap((problem) => (problem.meant ? [problem.meant] : [])));
  return problems
    .filter((problem) => !(problem.missing && meant.has(problem.field)))
    .map(({ field, message }) => ({ field, message }));
}

/** One ValidationError for every problem found (the first few), named after the first. */
export function inputError(problems: readonly { field: string; message: string }[]): ValidationError {
  const issues = problems.slice(0, MAX_ISSUES);
  const more = problems.length - issues.length;
  if (more > 0) issues.push({ field: "input", message: `${more} more problem(s)` });
  return ValidationError.fromIssues(issues, {
    hint: "Fix the input and call again; nothing was sent.",
    details: { issues },
  });
}
