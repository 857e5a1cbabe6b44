import { z } from "zod";

/**
 * Finding the part of a step's input schema that a value or an error is about: used to accept other
 * spellings before validation (normalise.ts) and to say what is accepted after it (errors.ts).
 */

export type Path = ReadonlyArray<PropertyKey>;

// Lives in a zod-free module, as the browser's wording (words.ts) uses it too.
export { ownValue } from "./own-value.js";

/** The schema under optional / nullable / default / lazy / pipe wrappers. */
export function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodLazy
    ) {
      current = current.unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = current.in;
    } else {
      return current;
    }
  }
  return current;
}

const ALTERNATIVES = new WeakMap<z.core.$ZodType, readonly z.core.$ZodType[]>();

/**
 * The alternatives a value may take: a union's options (unwrapped), or the schema itself. Kept per
 * schema (schemas never change once built): every value of every tool call's input asks for them.
 */
export function alternatives(schema: z.core.$ZodType): readonly z.core.$ZodType[] {
  let found = ALTERNATIVES.get(schema);
  if (!found) {
    const inner = unwrap(schema);
    found = inner instanceof z.ZodUnion ? inner.options.flatMap((option) => alternatives(option)) : [inner];
    ALTERNATIVES.set(schema, found);
  }
  return found;
}

/** The most items an array schema accepts (its .max()), or undefined when it sets none. */
export function maxItems(array: z.ZodArray): number | undefined {
  const limits = (array._zod.def.checks ?? []).flatMap((check) =>
    check instanceof z.core.$ZodCheckMaxLength ? [check._zod.def.maximum] : [],
  );
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The object schema a value is checked against: the schema itself, or the object option of a union. */
export function objectSchemaOf(schema: z.core.$ZodType): z.ZodObject | undefined {
  return alternatives(schema).find((option): option is z.ZodObject => option instanceof z.ZodObject);
}

/** The schema of one step down a path: an object's field, an array's element (through unions). */
export function childSchema(schema: z.core.$ZodType, key: PropertyKey): z.core.$ZodType | undefined {
  for (const option of alternatives(schema)) {
    if (typeof key === "number" && option instanceof z.ZodArray) return option.element;
    if (typeof key === "string" && option instanceof z.ZodObject && Object.hasOwn(option.shape, key)) {
      return option.shape[key];
    }
    if (typeof key === "string" && option instanceof z.ZodRecord) return option.valueType;
  }
  return undefined;
}

/** The schema at `path` under `root` (a map's values included), or undefined when the path leaves the schema. */
export function schemaAt(root: z.core.$ZodType, path: Path): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = root;
  for (const key of path) {
    if (!current) return undefined;
    current = childSchema(current, key);
  }
  return current;
}

/** Sets an own enumerable property, also for names such as "__proto__" that plain assignment would not. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Only "__proto__" is an accessor on Object.prototype; any other key is an own data property when
  // assigned, and assignment is several times cheaper than defineProperty (every key of every input).
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else target[key] = value;
}
