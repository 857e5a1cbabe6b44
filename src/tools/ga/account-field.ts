import { z } from "zod";
import type { SchemaContext } from "../types.js";

const DESCRIPTION = "Connected Google account to use (label).";

/** The `account` field's schema; its output is the chosen label (undefined: the only account, or none). */
export type AccountField = z.ZodType<string | undefined>;

/**
 * The connected Google account a GA step uses, as a list when the workspace has accounts (the form shows a
 * select). With exactly one it defaults to it; with none it is a free optional string, so the handler reaches
 * ctx.google(), whose ConfigurationError explains how to connect an account.
 */
export function accountField(context: SchemaContext): AccountField {
  const labels = [...new Set(context.accounts)];
  const [first, ...rest] = labels;
  if (first === undefined) return z.string().trim().min(1).max(200).optional().describe(DESCRIPTION);
  if (rest.length === 0) return z.enum([first]).default(first).describe(DESCRIPTION);
  return z.enum([first, ...rest]).describe(DESCRIPTION);
}

/** A step's input: `account` first (it leads the form), then the step's own fields. */
export function withAccount<S extends z.ZodRawShape>(context: SchemaContext, fields: z.ZodObject<S>) {
  return z.strictObject({ account: accountField(context), ...fields.shape });
}
