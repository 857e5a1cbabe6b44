import { z } from "zod";
import { ACCOUNT_HEADER } from "../account-schema.js";
import type { SchemaContext } from "../types.js";

/** The field's words, the same in tools/list's variants (src/tools/account-schema.ts copies them). */
const ACCOUNT_DESCRIPTION = "Connected Google account (label).";

/** zod keeps the object it is given as the field's metadata: a copy of ours. */
const META = { title: "Google account", description: ACCOUNT_DESCRIPTION, ...ACCOUNT_HEADER };

/** The `account` field's schema; its output is the chosen label (undefined: the only account, or none). */
export type AccountField = z.ZodType<string | undefined>;

/**
 * The connected Google account a GA step uses, as a list when the workspace has accounts (the form shows a
 * select). With exactly one it defaults to it; with none it is a free optional string, so the handler reaches
 * ctx.connection("google"), whose ConfigurationError explains how to connect an account.
 */
export function accountField(context: SchemaContext): AccountField {
  const labels = [...new Set(context.accounts)];
  const [first, ...rest] = labels;
  if (first === undefined) return z.string().trim().min(1).max(200).optional().meta(META);
  if (rest.length === 0) return z.enum([first]).default(first).meta(META);
  return z.enum([first, ...rest]).meta(META);
}

function build<S extends z.ZodRawShape>(context: SchemaContext, fields: z.ZodObject<S>) {
  return z.strictObject({ account: accountField(context), ...fields.shape });
}

/** Schemas already built, per step's fields and account labels: building one costs more than a report's own work. */
const built = new WeakMap<z.ZodObject, Map<string, z.ZodObject>>();
/** Label sets kept per step (accounts change rarely; a workspace has few). */
const KEPT = 32;

/** A step's input: `account` first (it leads the form), then the step's own fields. */
export function withAccount<S extends z.ZodRawShape>(
  context: SchemaContext,
  fields: z.ZodObject<S>,
): ReturnType<typeof build<S>> {
  let byLabels = built.get(fields);
  if (!byLabels) {
    byLabels = new Map();
    built.set(fields, byLabels);
  }
  const key = JSON.stringify(context.accounts);
  let schema = byLabels.get(key) as ReturnType<typeof build<S>> | undefined;
  if (!schema) {
    schema = build(context, fields);
    if (byLabels.size >= KEPT) byLabels.delete(byLabels.keys().next().value as string);
    byLabels.set(key, schema);
  }
  return schema;
}
