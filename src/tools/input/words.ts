import { distance as editDistance } from "fastest-levenshtein";
import { ValidationError } from "../../errors.js";
import { issuePath, printable } from "../../schemas/field-path.js";
import { ownValue } from "./own-value.js";

/**
 * The words of an invalid input, made from facts about each problem rather than from zod's issues, so
 * that the same text comes from the server (errors.ts reads zod's issues) and from the console's form
 * in the browser (which reads ajv's errors on the same JSON Schema): a message a model or a person can
 * act on names the field, what is accepted there, what was received (shortened and escaped, never a value
 * under or holding a secret-looking name), and for an unknown field the nearest accepted name. No zod and nothing of Node
 * here, nor in what it imports: the browser bundle imports this file.
 */

export type Path = ReadonlyArray<PropertyKey>;

/** One problem, as zod reports it (its code and path), with what the wording needs from the schema. */
export type IssueFacts =
  | { code: "unrecognized_keys"; path: Path; keys: readonly string[]; accepted: readonly string[] }
  /** `expected`: the union's own message, or "expected" and its forms in words (formsInWords). */
  | { code: "invalid_union"; path: Path; input: unknown; expected: string }
  /** `expected`: zod's name of the type (string, int, array, record…); input undefined = missing. */
  | { code: "invalid_type"; path: Path; input: unknown; expected: string }
  | { code: "invalid_value"; path: Path; input: unknown; values: readonly unknown[] }
  /** Any other check: zod's own message ("Too small: expected string to have >=1 characters"). */
  | { code: "other"; path: Path; input: unknown; message: string };

const MAX_SHOWN = 60;
const MAX_ISSUES = 5;
// Issues described in full; past these they are only counted, so a flood of unknown keys costs one pass.
const MAX_DESCRIBED = 50;
// No accepted name is longer than a few dozen characters: a longer key is a small edit away from none.
const MAX_KEY_COMPARED = 64;
const MAX_CANDIDATES = 100;
// A caller's own input never holds our credentials, but a value under such a name is not repeated anyway:
// neither the value of a field so named, nor any value that holds such a name at any depth.
const SECRET_NAME =
  /secret|token|password|passwd|pwd|authori[sz]ation|bearer|api[-_]?key|private[-_]?key|client[-_]?id|credential|cookie/i;
// A value too large to look through within this many keys and items is not shown either.
const MAX_SCANNED = 2_000;

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
  // An answer's next_cursor goes back as cursor, Marketo's nextPageToken in query_parameters: not as next (review s35, 5).
  nextcursor: "cursor",
  nextpagetoken: "query_parameters",
  pagetoken: "query_parameters",
};

const squash = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");

/** The accepted name closest to `key`: a known synonym, the same letters, or a small edit away. */
/**
 * Words for an enum value that no edit distance finds: GA4's industry categories have no RETAIL, and Google
 * files retail under SHOPPING (Property.industryCategory, https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties#IndustryCategory).
 */
const VALUE_SYNONYMS: Record<string, string> = {
  retail: "SHOPPING",
  ecommerce: "SHOPPING",
  store: "SHOPPING",
  shop: "SHOPPING",
  education: "JOBS_AND_EDUCATION",
  media: "NEWS",
  entertainment: "ARTS_AND_ENTERTAINMENT",
  software: "TECHNOLOGY",
  saas: "TECHNOLOGY",
};

/** The accepted enum value closest to a string given (its case ignored), or a synonym of it. */
function nearestValue(input: unknown, values: readonly unknown[]): string | undefined {
  if (typeof input !== "string") return undefined;
  const accepted = values.map((v) => String(v));
  const synonym = ownValue(VALUE_SYNONYMS, squash(input));
  if (synonym && accepted.includes(synonym)) return synonym;
  return nearestName(input, accepted);
}

export function nearestName(key: string, accepted: readonly string[]): string | undefined {
  if (key.length > MAX_KEY_COMPARED) return undefined;
  const wanted = squash(key);
  const synonym = [ownValue(SYNONYMS, wanted) ?? []].flat().find((name) => accepted.includes(name));
  if (synonym) return synonym;
  const ranked = accepted
    .slice(0, MAX_CANDIDATES)
    .map((name) => {
      const candidate = squash(name);
      const limit = Math.max(2, Math.floor(candidate.length / 3));
      const prefix = candidate.startsWith(wanted) || wanted.startsWith(candidate);
      // The edit distance is at least the difference in length: not worth computing past the limit.
      const distance =
        prefix && wanted.length >= 3
          ? 0.5
          : Math.abs(wanted.length - candidate.length) > limit
            ? Number.POSITIVE_INFINITY
            : editDistance(wanted, candidate);
      return { name, distance, limit };
    })
    .filter(({ distance, limit }) => distance <= limit)
    .sort((a, b) => a.distance - b.distance);
  return ranked[0]?.name;
}

/**
 * Whether a value holds a secret-looking key at any depth (`{date_ranges: [{access_token: …}]}`), or is
 * too large to tell. Iterative, so no nesting can exhaust the stack.
 */
function holdsSecretName(value: unknown): boolean {
  const pending: unknown[] = [value];
  let budget = MAX_SCANNED;
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== "object") continue;
    const keys = Array.isArray(current) ? [] : Object.keys(current);
    const children = Array.isArray(current)
      ? current
      : keys.map((key) => (current as Record<string, unknown>)[key]);
    budget -= children.length;
    if (budget < 0) return true;
    if (keys.some((key) => SECRET_NAME.test(key))) return true;
    pending.push(...children);
  }
  return false;
}

/** The received value, shortened, or "(value not shown)" when it is or holds something secret-looking. */
export function shown(value: unknown, path: Path): string {
  if (path.some((part) => typeof part === "string" && SECRET_NAME.test(part)) || holdsSecretName(value)) {
    return "(value not shown)";
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  // JSON already escapes C0 controls; printable() also escapes DEL and C1 (U+009B starts a terminal escape too).
  return printable(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);
}

/** What came, in words: its kind and (shortened) value, e.g. `a string "PUT"`; null and nothing as just that. */
function receivedText(value: unknown, path: Path): string {
  if (value === null) return "received null";
  if (value === undefined) return "received nothing";
  const kind = Array.isArray(value)
    ? "a list"
    : typeof value === "object"
      ? "an object"
      : `a ${typeof value}`;
  return `received ${kind} ${shown(value, path)}`;
}

export const EXPECTED: Record<string, string> = {
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

/** The forms a union accepts, in words, from its options' kinds (as formsOf in errors.ts describes zod's). */
export type FormKind =
  | { kind: "enum"; values: readonly string[] }
  | { kind: "object"; keys: readonly string[] }
  | { kind: "array" }
  | { kind: "record" }
  | { kind: "other"; type: string };

export function formsInWords(forms: readonly FormKind[]): string {
  return forms
    .map((form) => {
      if (form.kind === "enum") return `one of ${form.values.join(", ")}`;
      if (form.kind === "object") return `{${form.keys.join(", ")}}`;
      if (form.kind === "array") return "a list";
      if (form.kind === "record") return "an object";
      return ownValue(EXPECTED, form.type) ?? form.type;
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

function describe(issue: IssueFacts): Problem[] {
  const path = issue.path;
  const field = issuePath(path);
  const received = (value: unknown) => receivedText(value, path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const accepted = issue.accepted;
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
    case "invalid_union":
      if (issue.input === undefined)
        return [{ field, message: `required (${issue.expected})`, missing: true }];
      return [{ field, message: `${issue.expected}; ${received(issue.input)}` }];
    case "invalid_type": {
      const expected = ownValue(EXPECTED, issue.expected) ?? issue.expected;
      const hint =
        issue.expected === "array" && issue.input !== undefined
          ? `: write it as a list, e.g. ${asList(issue.input, path)}`
          : issue.expected === "number" && typeof issue.input === "string" && /^\d+$/.test(issue.input)
            ? `: write ${issue.input} without quotes`
            : "";
      if (issue.input === undefined) return [{ field, message: `required (${expected})`, missing: true }];
      return [{ field, message: `expected ${expected}, ${received(issue.input)}${hint}` }];
    }
    case "invalid_value": {
      const values = issue.values.map((v) => String(v)).join(", ");
      // A required enum that was not given: left out when an unknown key's suggestion names it (Method).
      if (issue.input === undefined)
        return [{ field, message: `required (one of ${values})`, missing: true }];
      const near = nearestValue(issue.input, issue.values);
      return [
        {
          field,
          message: `expected one of ${values}; ${received(issue.input)}${near ? `; did you mean ${near}?` : ""}`,
        },
      ];
    }
    default: {
      const value = issue.input;
      const scalar = typeof value === "string" || typeof value === "number";
      return [{ field, message: scalar ? `${issue.message}; ${received(value)}` : issue.message }];
    }
  }
}

export interface DescribedIssues {
  problems: { field: string; message: string }[];
  /** Problems found past the first MAX_DESCRIBED, counted but not described. */
  more: number;
}

/**
 * The problems as {field, message}, in zod's order of its issues. Unknown fields come first (they usually
 * explain the rest); "required" for the field an unknown one was probably meant as, and zod's follow-up
 * checks on a value of the wrong type, are left out as noise. Only the first MAX_DESCRIBED are described
 * (a model reads the first few); the rest are counted.
 */
export function wordIssues(facts: readonly IssueFacts[]): DescribedIssues {
  const wrongType = new Set(
    facts.filter((issue) => issue.code === "invalid_type").map((issue) => issuePath(issue.path)),
  );
  const issues = facts.filter(
    (issue) => issue.code === "invalid_type" || !wrongType.has(issuePath(issue.path)),
  );
  const unknown = issues.filter((issue) => issue.code === "unrecognized_keys");
  const described: Problem[] = [];
  let more = 0;
  for (const issue of [...unknown, ...issues.filter((issue) => issue.code !== "unrecognized_keys")]) {
    const room = MAX_DESCRIBED - described.length;
    const count = issue.code === "unrecognized_keys" ? issue.keys.length : 1;
    if (count > room) more += count - room;
    if (room <= 0) continue;
    const within = issue.code === "unrecognized_keys" ? { ...issue, keys: issue.keys.slice(0, room) } : issue;
    described.push(...describe(within));
  }
  const meant = new Set(described.flatMap((problem) => (problem.meant ? [problem.meant] : [])));
  const problems = described
    .filter((problem) => !(problem.missing && meant.has(problem.field)))
    .map(({ field, message }) => ({ field, message }));
  return { problems, more };
}

/** One ValidationError for every problem found (the first few), named after the first. */
export function inputError(
  problems: readonly { field: string; message: string }[],
  uncounted = 0,
): ValidationError {
  const issues = problems.slice(0, MAX_ISSUES);
  const more = problems.length - issues.length + uncounted;
  if (more > 0) issues.push({ field: "input", message: `${more} more problem(s)` });
  return ValidationError.fromIssues(issues, {
    hint: "Fix the input and call again; nothing was sent.",
    details: { issues },
  });
}
