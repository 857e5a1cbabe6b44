import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { issuePath } from "../../schemas/json-schema.js";
import { alternatives, isPlainObject, maxItems, ownValue, type Path, setOwn, unwrap } from "./schema-walk.js";

/**
 * Other spellings of a step's input, turned into the schema's one snake_case form before validation, so
 * the published JSON Schema stays clean while the forms an agent plausibly sends (the seed
 * specification's, Google's own camelCase API fields) mean what they say instead of being dropped.
 * Only spelling changes here: a form that would lose or change meaning is refused with why.
 */

export interface NormaliseContext {
  /**
   * Records a problem with the input (at a path, or a field already written as one); the call is refused
   * (nothing is sent) when there is any.
   */
  issue(at: Path | string, message: string): void;
  /** Counts problems found but not described (past the first few), so the error can say how many more. */
  omitted(count: number): void;
}

/** Turns another form of a top-level field's value into the schema's form (or reports why it cannot). */
export type ValueConverter = (value: unknown, path: Path, ctx: NormaliseContext) => unknown;

export interface InputAliases {
  /**
   * Other names of top-level fields → the schema's name. The camelCase of every snake_case name, at every
   * level the step owns, is accepted without being listed. `when` limits an alias to values it fits.
   */
  rename?: Record<string, string | { to: string; when: (value: unknown) => boolean }>;
  /** Other forms of a top-level field's value (applied after renaming), by the schema's name. */
  values?: Record<string, ValueConverter>;
  /** Top-level names the step knowingly does not support, with what to do instead. */
  unsupported?: Record<string, string>;
  /**
   * Runs first, for aliases that combine several top-level fields: returns the fields to replace, an
   * undefined value removing one. (A patch rather than a copy of the input: copying every key of a huge
   * input would cost what the bound on unknown keys saves.)
   */
  prepare?: (input: Readonly<Record<string, unknown>>, ctx: NormaliseContext) => Record<string, unknown>;
}

// Unknown keys carried to the strict schema per object: it names these; the rest are only counted, so a
// few megabytes of keys are refused in one cheap pass rather than copied, checked and described one by one.
const MAX_UNKNOWN_CARRIED = 5;
// Items of a list without a maximum that are normalised; the others are left to validation as they are.
const MAX_WALKED_ITEMS = 1_000;
// Problems recorded in full (an error shows the first few); past these they are only counted.
const MAX_RECORDED = 50;

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

interface Walk {
  ctx: NormaliseContext;
  aliases: InputAliases;
}

function walkValue(schema: z.core.$ZodType, value: unknown, path: Path, walk: Walk): unknown {
  const options = alternatives(schema);
  if (isPlainObject(value)) {
    const object = objectOptionFor(options, value);
    if (object) return walkObject(object, value, path, walk);
    // zod builds a record's output by assignment, and assigning "__proto__" sets the prototype: the key
    // would vanish from query_parameters or body without a word.
    if (options.some((o) => o instanceof z.ZodRecord) && Object.hasOwn(value, "__proto__")) {
      walk.ctx.issue(
        [...path, "__proto__"],
        "a key named __proto__ cannot be passed (it would be dropped on the way); remove or rename it",
      );
    }
    return value;
  }
  if (Array.isArray(value)) {
    const array = options.find((o): o is z.ZodArray => o instanceof z.ZodArray);
    if (!array) return value;
    // Items past the schema's maximum are left as they are: the list is refused as too long whatever they
    // hold, and normalising 400,000 of them would cost seconds.
    const walked = Math.min(value.length, maxItems(array) ?? MAX_WALKED_ITEMS);
    return value.map((item, index) =>
      index < walked ? walkValue(array.element, item, [...path, index], walk) : item,
    );
  }
  if (typeof value === "string") return foldEnum(options, value);
  return value;
}

/**
 * The object form a value is meant as, among a union's: the one whose fields it gives most of (GA's
 * {dimension: …} order is not walked as the {metric: …} one), the first on a tie.
 */
function objectOptionFor(
  options: readonly z.core.$ZodType[],
  value: Record<string, unknown>,
): z.ZodObject | undefined {
  let best: { option: z.ZodObject; given: number } | undefined;
  for (const option of options) {
    if (!(option instanceof z.ZodObject)) continue;
    const given = Object.keys(option.shape).filter((key) => Object.hasOwn(value, key)).length;
    if (!best || given > best.given) best = { option, given };
  }
  return best?.option;
}

const ENUM_VALUES = new WeakMap<readonly z.core.$ZodType[], readonly string[]>();

/** "get" → "GET", "once_per_event" → "ONCE_PER_EVENT": an enum value in another case, when only one fits. */
function foldEnum(options: readonly z.core.$ZodType[], value: string): string {
  let values = ENUM_VALUES.get(options);
  if (!values) {
    values = options.flatMap((o) => (o instanceof z.ZodEnum ? (o.options as string[]) : []));
    ENUM_VALUES.set(options, values);
  }
  if (values.length === 0 || values.includes(value)) return value;
  const matches = values.filter((candidate) => candidate.toLowerCase() === value.toLowerCase());
  return matches.length === 1 ? (matches[0] as string) : value;
}

const NO_ALIASES: InputAliases = {};

type Renames = ReadonlyMap<string, { to: string; when?: (value: unknown) => boolean }>;
const CAMEL_RENAMES = new WeakMap<z.ZodObject, Renames>();
const TOP_RENAMES = new WeakMap<InputAliases, WeakMap<z.ZodObject, Renames>>();

/**
 * The other names of an object's fields: the camelCase of each snake_case one, and at the top level the
 * step's own aliases. Kept per schema (and aliases): they never change, and every call's input needs them.
 */
function renamesOf(schema: z.ZodObject, aliases: InputAliases | undefined): Renames {
  const cache = aliases ? TOP_RENAMES.get(aliases) : undefined;
  const found = aliases ? cache?.get(schema) : CAMEL_RENAMES.get(schema);
  if (found) return found;
  const shape = schema.shape as Record<string, z.core.$ZodType>;
  const renames = new Map<string, { to: string; when?: (value: unknown) => boolean }>();
  for (const name of Object.keys(shape)) {
    const camel = camelCase(name);
    if (camel !== name && !Object.hasOwn(shape, camel)) renames.set(camel, { to: name });
  }
  if (!aliases) {
    CAMEL_RENAMES.set(schema, renames);
    return renames;
  }
  for (const [alias, rule] of Object.entries(aliases.rename ?? {})) {
    renames.set(alias, typeof rule === "string" ? { to: rule } : rule);
  }
  if (cache) cache.set(schema, renames);
  else TOP_RENAMES.set(aliases, new WeakMap([[schema, renames]]));
  return renames;
}

function walkObject(
  schema: z.ZodObject,
  input: Record<string, unknown>,
  path: Path,
  walk: Walk,
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  const top = path.length === 0;
  const shape = schema.shape as Record<string, z.core.$ZodType>;
  const renames = renamesOf(schema, top ? walk.aliases : undefined);
  const out: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  let unknown = 0;
  const added = Object.keys(patch).filter((key) => !Object.hasOwn(input, key));
  for (const key of [Object.keys(input), added].flat()) {
    const raw = Object.hasOwn(patch, key) ? patch[key] : input[key];
    // An undefined value is no value (JSON cannot even carry one): it neither conflicts nor is unknown.
    if (raw === undefined) continue;
    const rename = renames.get(key);
    const target = Object.hasOwn(shape, key)
      ? key
      : rename && (rename.when?.(raw) ?? true)
        ? rename.to
        : undefined;
    if (target === undefined) {
      const instead = top ? ownValue(walk.aliases.unsupported, key) : undefined;
      if (instead !== undefined) walk.ctx.issue([key], instead);
      else unknown += 1;
      // Left in place (the first few unknown ones): the strict schema refuses it, naming it and the nearest
      // accepted name. The others are only counted.
      if (instead === undefined && unknown > MAX_UNKNOWN_CARRIED) walk.ctx.omitted(1);
      else setOwn(out, key, raw);
      continue;
    }
    const convert = top ? ownValue(walk.aliases.values, target) : undefined;
    const converted = convert ? convert(raw, [...path, target], walk.ctx) : raw;
    const value = walkValue(shape[target] as z.core.$ZodType, converted, [...path, target], walk);
    const earlier = givenAs.get(target);
    if (earlier !== undefined) {
      if (!isDeepStrictEqual(out[target], value)) {
        walk.ctx.issue(
          [...path, key],
          `both ${earlier} and ${key} are given, with different values; give only ${target}`,
        );
      }
      continue;
    }
    givenAs.set(target, key);
    setOwn(out, target, value);
  }
  return out;
}

/**
 * A value checked on its own against `schema` (a converter's input form), with the schema's spellings applied:
 * enum values in another case, camelCase field names.
 */
export function normaliseValue(
  schema: z.core.$ZodType,
  value: unknown,
  path: Path,
  ctx: NormaliseContext,
): unknown {
  return walkValue(schema, value, path, { ctx, aliases: NO_ALIASES });
}

export interface Normalised {
  value: unknown;
  /** Alias conflicts and refused forms; the call is refused when there is any. */
  issues: { field: string; message: string }[];
  /** Problems found and not described: unknown keys past the first few of an object. Refused too. */
  omitted: number;
}

/**
 * The input in the schema's own form, with every alias conflict and refused form. Keys no schema knows are
 * left in place for the strict schema to refuse with the nearest accepted name.
 */
export function normaliseInput(
  schema: z.core.$ZodType,
  input: unknown,
  aliases: InputAliases = NO_ALIASES,
): Normalised {
  const issues: { field: string; message: string }[] = [];
  let omitted = 0;
  const top = unwrap(schema);
  if (!isPlainObject(input) || !(top instanceof z.ZodObject)) return { value: input, issues, omitted };
  const ctx: NormaliseContext = {
    issue: (at, message) => {
      if (issues.length >= MAX_RECORDED) omitted += 1;
      else issues.push({ field: typeof at === "string" ? at : issuePath(at), message });
    },
    omitted: (count) => {
      omitted += count;
    },
  };
  const patch = aliases.prepare?.(input, ctx) ?? {};
  return { value: walkObject(top, input, [], { ctx, aliases }, patch), issues, omitted };
}

/** "1000" → 1000: GA writes int64 fields (limit, offset) as strings. Other strings are left to validation. */
export const integerString: ValueConverter = (value) =>
  typeof value === "string" && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value;

/** 123456 → "123456": an ID sent as a JSON number. */
export const numberAsString: ValueConverter = (value) =>
  typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
