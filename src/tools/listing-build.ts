import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { toJsonSchema } from "../schemas/json-schema.js";
import { type ListedStep, TOOL_SCHEMAS_INDEX } from "./listing.js";
import { TOOL_STEPS } from "./registry.js";

/** What a stale or missing file of tool-schemas/ tells the developer to run. */
export const REGENERATE = "npm run manifest";

/** Each step as listed to a workspace with no connected account, made from the registry's zod schemas. */
export function buildStepListing(): ListedStep[] {
  return TOOL_STEPS.map((step) => ({
    name: step.id,
    title: step.title,
    description: step.description,
    inputSchema: toJsonSchema(step.input({ accounts: [] }), "input"),
    outputSchema: toJsonSchema(step.output, "output"),
    annotations: { title: step.title, ...step.annotations },
  }));
}

const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The files of tool-schemas/, by name: one per step, and the index of ids in the registry's order. */
export function renderToolSchemas(): Map<string, string> {
  const listing = buildStepListing();
  return new Map([
    [TOOL_SCHEMAS_INDEX, text(listing.map((step) => step.name))],
    ...listing.map((step): [string, string] => [`${step.name}.json`, text(step)]),
  ]);
}

async function filesOf(dir: URL): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * What is wrong with a tool-schemas folder against the registry: a file missing, stale (compared as
 * text: key order is part of what clients receive) or left over from a step that is gone. Empty when
 * it is up to date. Each line says what to run.
 */
export async function staleToolSchemas(dir: URL): Promise<string[]> {
  const expected = renderToolSchemas();
  const present = new Set(await filesOf(dir));
  const problems: string[] = [];
  for (const [name, content] of expected) {
    if (!present.has(name)) problems.push(`tool-schemas/${name} is missing: run ${REGENERATE}.`);
    else if ((await readFile(new URL(name, dir), "utf8")) !== content) {
      problems.push(`tool-schemas/${name} is stale (the registry's zod schemas changed): run ${REGENERATE}.`);
    }
  }
  for (const name of present) {
    if (!expected.has(name)) problems.push(`tool-schemas/${name} belongs to no step: run ${REGENERATE}.`);
  }
  return problems;
}

/** Writes the folder from the registry, removing the files of steps that are gone. */
export async function writeToolSchemas(dir: URL): Promise<void> {
  const expected = renderToolSchemas();
  await mkdir(dir, { recursive: true });
  for (const name of await filesOf(dir)) {
    if (!expected.has(name)) await rm(new URL(name, dir));
  }
  for (const [name, content] of expected) await writeFile(new URL(name, dir), content);
}
