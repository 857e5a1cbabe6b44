import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "./errors.js";

/** The name in our package.json: the walk up stops at the first package.json that names it. */
const NAME = "martech-steps";

/**
 * The package's root folder (the one holding package.json, manifest.json, tool-schemas/ and dist/),
 * found by walking up from this module's folder. A path relative to `import.meta.url` would hold for
 * one layout only, and this module runs from three: src/ (tsx, vitest), dist/ (tsc's output, one file
 * per module: the plugin registry's exports) and dist/cli/chunks/ (the CLI's bundle,
 * scripts/cli.vite.config.ts), where the bundler moves it into a chunk.
 */
function findPackageRoot(): { root: string; json: { name: string; version: string } } {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const json = readJson(join(dir, "package.json"));
    if (json?.name === NAME) return { root: dir, json: json as { name: string; version: string } };
    if (dirname(dir) === dir)
      throw new ConfigurationError(`No package.json named ${NAME} in ${start} or any folder above it.`, {
        hint: `This installation of ${NAME} is incomplete (its files were copied without package.json): reinstall it with npm.`,
      });
  }
}

function readJson(file: string): { name?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { name?: unknown };
  } catch {
    // No package.json in this folder (or not ours to read): keep walking up.
    return undefined;
  }
}

const FOUND = findPackageRoot();

/** The package's root folder: see findPackageRoot. */
export const PACKAGE_ROOT: string = FOUND.root;

/** Package name and version, read once from package.json. */
export const PACKAGE: { name: string; version: string } = {
  name: FOUND.json.name,
  version: FOUND.json.version,
};

/** A file or folder of the package, by its path from the root ("manifest.json", "dist/console-web"). */
export function packageFile(path: string): string {
  return join(PACKAGE_ROOT, path);
}
