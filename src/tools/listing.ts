import type { JsonSchema } from "../schemas/json-schema.js";
import { STEP_LISTING } from "./listing.generated.js";
import type { SchemaContext, ToolAnnotations } from "./types.js";

/**
 * What listing a step needs, made at build time (`npm run manifest` writes listing.generated.ts from
 * the registry; a test fails when it is stale): serving tools/list then builds no zod schema and
 * converts none to JSON Schema, and loads no step, connector or handler. Cold start over stdio is
 * measured by the bench.
 */
export interface ListedStep {
  id: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** The input's JSON Schema when the workspace has no connected Google account. */
  input: JsonSchema;
  /**
   * For a step whose input names the connected account: its JSON Schema with one account and with
   * several, made with ACCOUNT_PLACEHOLDERS as labels (the real labels replace them when listed).
   */
  inputOneAccount?: JsonSchema;
  inputAccounts?: JsonSchema;
  output: JsonSchema;
}

/** Account labels no workspace can have (labels are trimmed text), replaced by the real ones. */
export const ACCOUNT_PLACEHOLDERS = ["\u0000account-1\u0000", "\u0000account-2\u0000"] as const;

const [FIRST, SECOND] = ACCOUNT_PLACEHOLDERS;

/** A copy of `node` with the placeholder labels replaced: the pair by every label, the first alone by the one. */
function withLabels(node: unknown, labels: readonly string[]): unknown {
  if (typeof node === "string") return node === FIRST ? labels[0] : node;
  if (Array.isArray(node)) {
    if (node.length === 2 && node[0] === FIRST && node[1] === SECOND) return [...labels];
    return node.map((item) => withLabels(item, labels));
  }
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withLabels(value, labels)]));
}

/** A step's input JSON Schema for the workspace's connected accounts, as zod would make it. */
export function listedInputSchema(step: ListedStep, context: SchemaContext): JsonSchema {
  // As accountField(): duplicate labels are one choice.
  const labels = [...new Set(context.accounts)];
  if (labels.length === 0) return step.input;
  const template = labels.length === 1 ? step.inputOneAccount : step.inputAccounts;
  return template ? (withLabels(template, labels) as JsonSchema) : step.input;
}

/** The steps as listed, in the registry's order. */
export const LISTED_STEPS: readonly ListedStep[] = STEP_LISTING;
