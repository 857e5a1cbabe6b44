/**
 * The browser validates a step's form with ajv (precompiled from the step's JSON Schema); the server
 * validates the same input with zod. This turns ajv's errors into zod's issues, worded as zod words
 * them (https://github.com/colinhacks/zod/blob/main/packages/zod/src/v4/locales/en.ts) and ordered
 * as zod reports them, so the message a person reads in the form is the one runToolStep would give.
 * Pure: it runs in the browser bundle as well as in tests.
 */
import { issuePath } from "../schemas/json-schema.js";
import type { InputIssue } from "../tools/input-issues.js";
import { lengthChecks, quote, singleMessage, typeMessage } from "./zod-words.js";

export type JsonSchemaNode = { [key: string]: unknown };

/** The fields of an ajv ErrorObject this needs (ajv runs with `verbose: true`, so data and parentSchema are set). */
export interface AjvErrorLike {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  data?: unknown;
  parentSchema?: JsonSchemaNode;
}

/** Custom messages of zod regex checks, keyed by the JSON Schema `pattern` they check. */
export type PatternMessages = Record<string, string>;

/** What zod does beyond the JSON Schema (form-module.ts finds it in the zod schema). */
export interface FormHints {
  messages: PatternMessages;
  /** Schema paths ("#/properties/metrics/items") of strings zod trims before checking them. */
  trimmed: string[];
}

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

/** Instance path segments, with array positions as numbers (as zod's issue paths have them). */
function pathOf(pointer: string, root: unknown): (string | number)[] {
  let node: unknown = root;
  return decodePointer(pointer).map((part) => {
    const index = Array.isArray(node) ? Number(part) : undefined;
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    return index ?? part;
  });
}

interface Located extends InputIssue {
  path: (string | number)[];
  /** zod's `continue`: a failed check (true) rather than a wrong type or value (false). */
  continuable: boolean;
}

function at(pointer: string, data: unknown, message: string, continuable: boolean, key?: string): Located {
  const path = [...pathOf(pointer, data), ...(key === undefined ? [] : [key])];
  return { path, field: issuePath(path), message, continuable };
}

const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const ownerOf = (e: AjvErrorLike) =>
  `${e.instancePath}\n${e.schemaPath.slice(0, e.schemaPath.lastIndexOf("/"))}`;

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
function mapErrors(all: readonly AjvErrorLike[], data: unknown, messages: PatternMessages): Located[] {
  const errors = reachable(all);
  const unions = errors.filter(
    (e) =>
      e.keyword === "anyOf" &&
      !errors.some((o) => o !== e && o.keyword === "anyOf" && e.schemaPath.startsWith(`${o.schemaPath}/`)),
  );
  const inUnion = (e: AjvErrorLike) =>
    unions.some((u) => e.schemaPath === u.schemaPath || e.schemaPath.startsWith(`${u.schemaPath}/`));
  const out: Located[] = [];
  for (const union of unions) {
    const branches = new Map<string, AjvErrorLike[]>();
    for (const e of errors) {
      if (!e.schemaPath.startsWith(`${union.schemaPath}/`)) continue;
      const branch = e.schemaPath.slice(union.schemaPath.length + 1).split("/")[0] ?? "";
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    // zod reports the one branch that failed only on checks (a near match); otherwise "Invalid input".
    const mapped = [...branches.values()].map((list) => mapErrors(list, data, messages));
    const near = mapped.filter((issues) => issues.every((issue) => issue.continuable));
    out.push(
      ...(near.length === 1
        ? (near[0] as Located[])
        : [at(union.instancePath, data, "Invalid input", false)]),
    );
  }
  const unknownKeys = new Map<string, string[]>();
  for (const e of errors.filter((e) => !inUnion(e))) {
    if (e.keyword === "required") {
      const key = String(e.params.missingProperty);
      const property = (e.parentSchema?.properties as Record<string, JsonSchemaNode> | undefined)?.[key];
      out.push(at(e.instancePath, data, typeMessage(property, undefined), false, key));
    } else if (e.keyword === "propertyNames") {
      out.push(at(e.instancePath, data, "Invalid key in record", false, String(e.params.propertyName)));
    } else if (e.keyword === "additionalProperties") {
      // zod lists every unknown key of an object in one issue.
      unknownKeys.set(e.instancePath, [
        ...(unknownKeys.get(e.instancePath) ?? []),
        String(e.params.additionalProperty),
      ]);
    } else if (e.keyword === "type" || e.keyword === "enum" || e.keyword === "const") {
      out.push(
        at(e.instancePath, data, singleMessage(e, messages) ?? typeMessage(e.parentSchema, e.data), false),
      );
      if (e.keyword === "type") {
        for (const text of lengthChecks(e.parentSchema, e.data))
          out.push(at(e.instancePath, data, text, true));
      }
    } else {
      // z.int() also bounds every integer to the safe range, before the field's own limits.
      const unsafe =
        e.parentSchema?.type === "integer" && typeof e.data === "number" && !Number.isSafeInteger(e.data);
      if (unsafe && (e.keyword === "minimum" || e.keyword === "maximum")) {
        const text =
          (e.data as number) > 0
            ? `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`
            : `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`;
        out.push(at(e.instancePath, data, text, true));
      }
      // An oversized array is an explicit abort in zod (capSize); other checks let parsing go on.
      const text = singleMessage(e, messages) ?? "Invalid input";
      out.push(at(e.instancePath, data, text, CONTINUABLE.has(e.keyword)));
    }
  }
  for (const [pointer, keys] of unknownKeys) {
    const text = `Unrecognized key${keys.length > 1 ? "s" : ""}: ${keys.map(quote).join(", ")}`;
    // After the object's own fields, as zod checks unknown keys last.
    out.push({ ...at(pointer, data, text, true), path: [...pathOf(pointer, data), "\uffff"] });
  }
  return out;
}

/**
 * Where a path sits in zod's order: an object's fields in its schema's order, a record's keys and
 * an array's items in the data's order.
 */
function orderKey(path: readonly (string | number)[], root: JsonSchemaNode, data: unknown): number[] {
  let schema: JsonSchemaNode | undefined = root;
  let node: unknown = data;
  return path.map((part) => {
    const container = node && typeof node === "object" ? (node as Record<string, unknown>) : undefined;
    node = container?.[part];
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
        schema = properties?.[part];
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

/** ajv's errors for `data` as the issues zod reports for the same input, in zod's order and words. */
export function issuesFromAjv(
  errors: readonly AjvErrorLike[],
  schema: JsonSchemaNode,
  data: unknown,
  messages: PatternMessages = {},
): InputIssue[] {
  const found = mapErrors(errors, data, messages);
  const keyed = found.map((issue, position) => ({
    issue,
    position,
    key: orderKey(issue.path, schema, data),
  }));
  keyed.sort((a, b) => compareKeys(a.key, b.key) || a.position - b.position);
  // ajv may say one thing twice (a value of the wrong type outside an enum fails `type` and `enum`).
  const seen = new Set<string>();
  return keyed.flatMap(({ issue }) => {
    const id = `${issue.field}\n${issue.message}`;
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ field: issue.field, message: issue.message }];
  });
}
