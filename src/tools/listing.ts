import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConfigurationError } from "../errors.js";
import type { JsonSchema } from "../schemas/json-schema.js";
import { packageFile } from "../version.js";
import { withAccountLabels } from "./account-schema.js";
import type { SchemaContext, ToolAnnotations } from "./types.js";

/**
 * A step as tools/list serves it to a workspace with no connected Google account: the content of its
 * committed file `tool-schemas/<id>.json`, the one copy of the steps' JSON Schemas besides manifest.json.
 * `npm run manifest` writes the folder from the registry's zod schemas, and a test fails when a file is
 * missing or stale (as github-mcp-server's toolsnaps). Serving tools/list reads these files: it builds no
 * zod schema, converts none, and loads no step, connector or handler (cold start over stdio is measured
 * by the bench).
 */
export interface ListedStep {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations & { title: string };
}

/** The committed folder, at the package root (it ships with dist/; found the same from src/, dist/ and the CLI's bundle). */
export const TOOL_SCHEMAS_DIR = pathToFileURL(`${packageFile("tool-schemas")}/`);
/** The folder's list of step ids, in the registry's order (the order of tools/list). */
export const TOOL_SCHEMAS_INDEX = "index.json";

/**
 * The steps as `dir` lists them. A folder missing or unreadable (a package copied without it, a file
 * truncated) is an installation fault: the error names the file and what to do, once, where an ENOENT
 * from deep in tools/list would reach the client as a bare "Internal server error" on every request.
 */
export function readListedSteps(dir: URL): ListedStep[] {
  const read = (name: string): unknown => {
    const file = new URL(name, dir);
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ConfigurationError(
        `The tool schemas cannot be read (${fileURLToPath(file)}: ${why}): this installation of martech-steps is incomplete. Reinstall the package (in a checkout: npm run manifest).`,
        { cause: error },
      );
    }
  };
  return (read(TOOL_SCHEMAS_INDEX) as string[]).map((id) => read(`${id}.json`) as ListedStep);
}

let steps: readonly ListedStep[] | undefined;

/** The steps as listed, in the registry's order, read once (the server reads them at start: a fault stops it there). */
export function listedSteps(): readonly ListedStep[] {
  steps ??= readListedSteps(TOOL_SCHEMAS_DIR);
  return steps;
}

/** A step's input JSON Schema for the workspace's connected accounts, as zod would make it. */
export function listedInputSchema(step: ListedStep, context: SchemaContext): JsonSchema {
  return withAccountLabels(step.inputSchema, context.accounts);
}
