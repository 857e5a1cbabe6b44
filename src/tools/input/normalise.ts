import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { issuePath } from "../../schemas/json-schema.js";
import { alternatives, isPlainObject, type Path, setOwn, unwrap } from "./schema-walk.js";

/**
 * Other spellings of a step's input, turned into the schema's one snake_case form before validation, so
 * the published JSON Schema stays clean while the forms an agent plausibly sends (the seed
 * specification's, Google's own camelCase API fields) mean what they say instead of being dropped.
 * Only spelling changes here: a form that would lose or change meaning is refused with why.
 */

export interface NormaliseContext {
  /** Records a problem with the input; the call is refused (nothing is sent) when there is any. */
  issue(path: Path, message: string): void;
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
  /** Runs first on a copy of the top-level object, for aliases that combine several fields. */
  prepare?: (input: Record<string, unknown>, ctx: NormaliseContext) => void;
}

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

interface Walk {
  ctx: NormaliseContext;
  aliases: InputAliases;
}

function walkValue(schema: z.core.$ZodType, value: unknown, path: Path, walk: Walk): unknown {
  const options = alternatives(schema);
  if (isPlainObject(value)) {
    const object = options.find((o): o is z.ZodObject => o instanceof z.ZodObject);
    return object ? walkObject(object, value, path, walk) : value;
  }
  if (Array.isArray(value)) {
    const array = options.find((o): o is z.ZodArray => o instanceof z.ZodArray);
    return array ? value.map((item, index) => walkValue(array.element, item, [...path, index], walk)) : value;
  }
  if (typeof value === "string") return foldEnum(options, value);
  return value;
}

/** "get" → "GET", "once_per_event" → "ONCE_PER_EVENT": an enum value in another case, when only one fits. */
function foldEnum(options: z.core.$ZodType[], value: string): string {
  const values = options.flatMap((o) => (o instanceof z.ZodEnum ? (o.options as string[]) : []));
  if (values.length === 0 || values.includes(value)) return value;
  const matches = values.filter((candidate) => candidate.toLowerCase() === value.toLowerCase());
  return matches.length === 1 ? (matches[0] as string) : value;
}

function walkObject(
  schema: z.ZodObject,
  input: Record<string, unknown>,
  path: Path,
  walk: Walk,
): Record<string, unknown> {
  const top = path.length === 0;
  const shape = schema.shape as Record<string, z.core.$ZodType>;
  const renames = new Map<string, { to: string; when?: (value: unknown) => boolean }>();
  for (const name of Object.keys(shape)) {
    const camel = camelCase(name);
    if (camel !== name && !Object.hasOwn(shape, camel)) renames.set(camel, { to: name });
  }
  if (top) {
    for (const [alias, rule] of Object.entries(walk.aliases.rename ?? {})) {
      renames.set(alias, typeof rule === "string" ? { to: rule } : rule);
    }
  }
  const out: Record<string, unknown> = {};
  const givenAs = new Map<string, string>();
  for (const [key, raw] of Object.entries(input)) {
    // An undefined value is no value (JSON cannot even carry one): it neither conflicts nor is unknown.
    if (raw === undefined) continue;
    const rename = renames.get(key);
    const target = Object.hasOwn(shape, key)
      ? key
      : rename && (rename.when?.(raw) ?? true)
        ? rename.to
        : undefined;
    if (target === undefined) {
      const instead = top ? walk.aliases.unsupported?.[key] : undefined;
      if (instead !== undefined) walk.ctx.issue([key], instead);
      // Left in place: the strict schema refuses it, naming it and the nearest accepted name.
      setOwn(out, key, raw);
      continue;
    }
    const convert = top ? walk.aliases.values?.[target] : undefined;
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

export interface Normalised {
  value: unknown;
  /** Alias conflicts and refused forms; the call is refused when there is any. */
  issues: { field: string; message: string }[];
}

/**
 * The input in the schema's own form, with every alias conflict and refused form. Keys no schema knows are
 * left in place for the strict schema to refuse with the nearest accepted name.
 */
export function normaliseInput(
  schema: z.core.$ZodType,
  input: unknown,
  aliases: InputAliases = {},
): Normalised {
  const issues: { field: string; message: string }[] = [];
  if (!isPlainObject(input) || !(unwrap(schema) instanceof z.ZodObject)) return { value: input, issues };
  const ctx: NormaliseContext = {
    issue: (at, message) => issues.push({ field: issuePath(at), message }),
  };
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) setOwn(copy, key, value);
  aliases.prepare?.(copy, ctx);
  return { value: walkValue(schema, copy, [], { ctx, aliases }), issues };
}

/** "1000" → 1000: GA writes int64 fields (limit, offset) as strings. Other strings are left to validation. */
export const integerString: ValueConverter = (value) =>
  typeof value === "string" && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value;

/** 123456 → "123456": an ID sent as a JSON number. */
export const numberAsString: ValueConverter = (value) =>
  typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
