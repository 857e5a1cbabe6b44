/**
 * The browser validates a step's form with ajv (precompiled from the step's JSON Schema); the server
 * validates the same input with zod. This turns ajv's errors into the issues zod reports for the same
 * input, in zod's order (which branch of a union it blames, which checks it skips), and words them with
 * the server's own words (src/tools/input/words.ts), so the message a person reads in the form is the
 * one runToolStep would give. Pure: it runs in the browser bundle as well as in tests.
 */
import { ownValue } from "../tools/input/own-value.js";
import { type DescribedIssues, type IssueFacts, type Path, wordIssues } from "../tools/input/words.js";
import {
  type AjvErrorLike,
  checkMessage,
  type FormHints,
  type JsonSchemaNode,
  typeFacts,
  unionFacts,
} from "./zod-words.js";

export type { AjvErrorLike, FormHints, JsonSchemaNode, PatternMessages } from "./zod-words.js";

/** ajv keywords whose zod counterparts are checks that let a union branch count as "nearly matched". */
const CONTINUABLE = new Set([
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "multipleOf",
  "pattern",
  "format",
  "additionalProperties",
]);

function decodePointer(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** One step into a caller's value: its own key or item only ("constructor" is no key of {}). */
function childOf(node: unknown, key: string | number): unknown {
  return node && typeof node === "object"
    ? ownValue(node as Record<string, unknown>, String(key))
    : undefined;
}

/** Instance path segments, with array positions as numbers (as zod's issue paths have them). */
function pathOf(pointer: string, root: unknown): (string | number)[] {
  let node: unknown = root;
  return decodePointer(pointer).map((part) => {
    const index = Array.isArray(node) ? Number(part) : undefined;
    node = childOf(node, part);
    return index ?? part;
  });
}

/** The value at a path. zod reports a union's or a type's failure with the value as given, before any trim. */
function valueAt(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = typeof key === "symbol" ? undefined : childOf(node, key);
  return node;
}

interface Found {
  facts: IssueFacts;
  /** Where zod would report it, for ordering (unknown keys after an object's own fields). */
  order: Path;
  /** zod's `continue`: a failed check (true) rather than a wrong type or value (false). */
  continuable: boolean;
}

const found = (facts: IssueFacts, continuable: boolean, order: Path = facts.path): Found => ({
  facts,
  order,
  continuable,
});
const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const ownerOf = (e: AjvErrorLike) =>
  `${e.instancePath}\n${e.schemaPath.slice(0, e.schemaPath.lastIndexOf("/"))}`;
const schemaOwner = (e: AjvErrorLike) => e.schemaPath.slice(0, e.schemaPath.lastIndexOf("/"));

/** The errors zod would never reach: inside an oversized array (capSize), at a refused record key, after a wrong type. */
function reachable(all: readonly AjvErrorLike[]): AjvErrorLike[] {
  const oversized = all.filter((e) => e.keyword === "maxItems");
  const badKeys = all
    .filter((e) => e.keyword === "propertyNames")
    .map((e) => `${e.instancePath}/${escapeKey(String(e.params.propertyName))}`);
  const wrongType = new Set(all.filter((e) => e.keyword === "type").map(ownerOf));
  return all.filter(
    (e) =>
      !e.schemaPath.includes("/propertyNames/") &&
      !(e.keyword !== "type" && wrongType.has(ownerOf(e))) &&
      !oversized.some(
        (o) => e.instancePath.startsWith(`${o.instancePath}/`) || (ownerOf(e) === ownerOf(o) && e !== o),
      ) &&
      !badKeys.some((k) => e.instancePath === k || e.instancePath.startsWith(`${k}/`)),
  );
}

/** zod's issues for ajv's errors; failing anyOfs are resolved as zod resolves a union. */
function mapErrors(all: readonly AjvErrorLike[], data: unknown, hints: FormHints, raw: unknown): Found[] {
  const errors = reachable(all);
  const unions = errors.filter(
    (e) =>
      e.keyword === "anyOf" &&
      !errors.some((o) => o !== e && o.keyword === "anyOf" && e.schemaPath.startsWith(`${o.schemaPath}/`)),
  );
  const inUnion = (e: AjvErrorLike) =>
    unions.some((u) => e.schemaPath === u.schemaPath || e.schemaPath.startsWith(`${u.schemaPath}/`));
  const out: Found[] = [];
  for (const union of unions) {
    const branches = new Map<string, AjvErrorLike[]>();
    for (const e of errors) {
      if (!e.schemaPath.startsWith(`${union.schemaPath}/`)) continue;
      const branch = e.schemaPath.slice(union.schemaPath.length + 1).split("/")[0] ?? "";
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    // zod reports the one branch that failed only on checks (a near match); otherwise the union itself.
    const mapped = [...branches.values()].map((list) => mapErrors(list, data, hints, raw));
    const near = mapped.filter((issues) => issues.every((issue) => issue.continuable));
    const path = pathOf(union.instancePath, data);
    const facts = unionFacts(path, union.parentSchema ?? {}, schemaOwner(union), valueAt(raw, path), hints);
    out.push(...(near.length === 1 ? (near[0] as Found[]) : [found(facts, false)]));
  }
  const unknownKeys = new Map<string, { keys: string[]; accepted: string[] }>();
  for (const e of errors.filter((error) => !inUnion(error))) {
    const path = pathOf(e.instancePath, data);
    if (e.keyword === "required") {
      const key = String(e.params.missingProperty);
      const property = ownValue(
        e.parentSchema?.properties as Record<string, JsonSchemaNode> | undefined,
        key,
      );
      const at = `${schemaOwner(e)}/properties/${escapeKey(key)}`;
      out.push(found(typeFacts([...path, key], property, at, undefined, hints), false));
    } else if (e.keyword === "propertyNames") {
      const key = String(e.params.propertyName);
      out.push(
        found({ code: "other", path: [...path, key], input: key, message: "Invalid key in record" }, false),
      );
    } else if (e.keyword === "additionalProperties") {
      // zod lists every unknown key of an object in one issue.
      const entry = unknownKeys.get(e.instancePath) ?? {
        keys: [],
        accepted: Object.keys((e.parentSchema?.properties as object | undefined) ?? {}),
      };
      entry.keys.push(String(e.params.additionalProperty));
      unknownKeys.set(e.instancePath, entry);
    } else if (e.keyword === "type") {
      out.push(found(typeFacts(path, e.parentSchema, schemaOwner(e), valueAt(raw, path), hints), false));
    } else if (e.keyword === "enum" || e.keyword === "const") {
      const values = e.keyword === "enum" ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue];
      out.push(found({ code: "invalid_value", path, input: e.data, values }, false));
    } else {
      // z.int() also bounds every integer to the safe range, before the field's own limits.
      const unsafe =
        e.parentSchema?.type === "integer" && typeof e.data === "number" && !Number.isSafeInteger(e.data);
      if (unsafe && (e.keyword === "minimum" || e.keyword === "maximum")) {
        const message =
          (e.data as number) > 0
            ? `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`
            : `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`;
        out.push(found({ code: "other", path, input: e.data, message }, true));
      }
      // An oversized array is an explicit abort in zod (capSize); other checks let parsing go on.
      const message = checkMessage(e, hints) ?? "Invalid input";
      out.push(found({ code: "other", path, input: e.data, message }, CONTINUABLE.has(e.keyword)));
    }
  }
  for (const [pointer, { keys, accepted }] of unknownKeys) {
    const path = pathOf(pointer, data);
    // After the object's own fields, as zod checks unknown keys last.
    out.push(found({ code: "unrecognized_keys", path, keys, accepted }, true, [...path, "\uffff"]));
  }
  return out;
}

/**
 * Where a path sits in zod's order: an object's fields in its schema's order, a record's keys and
 * an array's items in the data's order.
 */
function orderKey(path: Path, root: JsonSchemaNode, data: unknown): number[] {
  let schema: JsonSchemaNode | undefined = root;
  let node: unknown = data;
  return path.map((key) => {
    const part = typeof key === "symbol" ? String(key) : key;
    const container = node && typeof node === "object" ? (node as Record<string, unknown>) : undefined;
    node = childOf(node, part);
    if (typeof part === "number") {
      schema = schema?.items as JsonSchemaNode | undefined;
      return part;
    }
    const candidates: JsonSchemaNode[] = [
      ...(schema ? [schema] : []),
      ...((schema?.anyOf as JsonSchemaNode[] | undefined) ?? []),
    ];
    for (const candidate of candidates) {
      const properties = candidate.properties as Record<string, JsonSchemaNode> | undefined;
      const index = properties ? Object.keys(properties).indexOf(part) : -1;
      if (index >= 0) {
        schema = ownValue(properties, part);
        return index;
      }
    }
    schema = undefined;
    const position = container ? Object.keys(container).indexOf(part) : -1;
    return position >= 0 ? 1_000_000 + position : Number.MAX_SAFE_INTEGER;
  });
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  return a.length - b.length;
}

/**
 * ajv's errors for `data` (the input as zod checks it: trimmed, see trim-as-zod.ts) in the server's
 * words: the {field, message} list runToolStep's error would carry (the first few dozen, the rest
 * counted, as wordIssues bounds them). `raw` is the input as given.
 */
export function issuesFromAjv(
  errors: readonly AjvErrorLike[],
  schema: JsonSchemaNode,
  data: unknown,
  hints: FormHints,
  raw: unknown = data,
): DescribedIssues {
  const keyed = mapErrors(errors, data, hints, raw).map((issue, position) => ({
    issue,
    position,
    key: orderKey(issue.order, schema, data),
  }));
  keyed.sort((a, b) => compareKeys(a.key, b.key) || a.position - b.position);
  // ajv may say one thing twice (a value of the wrong type outside an enum fails `type` and `enum`).
  const seen = new Set<string>();
  const found = keyed.flatMap(({ issue }) => {
    const { facts } = issue;
    const id = JSON.stringify([
      facts.path.map(String),
      facts.code,
      facts.code === "other" ? facts.message : "",
    ]);
    if (seen.has(id)) return [];
    seen.add(id);
    return [facts];
  });
  return wordIssues(found);
}
