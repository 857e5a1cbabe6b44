import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createPrecompiledValidator } from "@rjsf/validator-ajv8";
import { formModule } from "../../src/console/form-module.js";
import { trimAsZod } from "../../src/console/trim-as-zod.js";
import type { AjvErrorLike, FormHints, JsonSchemaNode } from "../../src/console/validation-wording.js";
import { getToolStep } from "../../src/tools/registry.js";
import type { SchemaContext } from "../../src/tools/types.js";
import { tempDir } from "./temp.js";

export interface LoadedForm {
  schema: JsonSchemaNode;
  hints: FormHints;
  /** The registry's step ids, as the module tells the page (a hint naming one is an agent's). */
  steps: readonly string[];
  /** The input as it is validated and sent: trimmed where zod trims. */
  normalise(data: unknown): unknown;
  validate(data: unknown): AjvErrorLike[];
}

/** Loads a step's form module as the browser does (an ES module), in Node, and wraps its validators as RJSF does. */
export async function loadForm(id: string, context: SchemaContext): Promise<LoadedForm> {
  const dir = await tempDir("console-form-");
  try {
    const file = join(dir, `${id}.mjs`);
    await writeFile(file, await formModule(getToolStep(id), context));
    const loaded = (await import(pathToFileURL(file).href)) as {
      schema: JsonSchemaNode;
      hints: FormHints;
      steps: readonly string[];
      validators: Parameters<typeof createPrecompiledValidator>[0];
    };
    const validator = createPrecompiledValidator(loaded.validators, loaded.schema);
    return {
      schema: loaded.schema,
      hints: loaded.hints,
      steps: loaded.steps,
      normalise: (data) => trimAsZod(data, loaded.schema, loaded.hints.trimmed),
      validate: (data) =>
        (validator.rawValidation(loaded.schema, data).errors ?? []) as unknown as AjvErrorLike[],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
