/**
 * src/version.ts finds the package's root by walking up to the nearest package.json named martech-steps,
 * so that the same module works from src/, from tsc's dist/ and from the CLI's bundle (dist/cli/chunks/).
 * Run here on the built module copied into made-up layouts (`npm run build` first, as test/cli/ does).
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PACKAGE, PACKAGE_ROOT, packageFile } from "../src/version.js";
import { childEnv } from "./helpers/child-env.js";
import { tempDir } from "./helpers/temp.js";

const execFileAsync = promisify(execFile);
const DIST = new URL("../dist/", import.meta.url);

/** Copies dist/version.js (and the errors it throws) to `folder`, imports it there and prints what it found. */
async function findFrom(folder: string): Promise<{ code: number; stdout: string; stderr: string }> {
  await mkdir(folder, { recursive: true });
  for (const file of ["version.js", "errors.js"]) await copyFile(new URL(file, DIST), join(folder, file));
  const script = `import(${JSON.stringify(pathToFileURL(join(folder, "version.js")).href)}).then(
    (m) => console.log(JSON.stringify({ root: m.PACKAGE_ROOT, version: m.PACKAGE.version })),
    (e) => { console.error(e.code + ": " + e.message + " " + e.hint); process.exit(1); })`;
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, ["-e", script], { env: childEnv() });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe("the package root", () => {
  it("is the repository's root from src/, and package files are found from it", () => {
    expect(pathToFileURL(`${PACKAGE_ROOT}/`).href).toBe(new URL("../", import.meta.url).href);
    expect(PACKAGE.name).toBe("martech-steps");
    expect(packageFile("tool-schemas")).toBe(join(PACKAGE_ROOT, "tool-schemas"));
  });

  it("is the nearest folder above holding a package.json named martech-steps, past other packages' ones", async () => {
    const root = await tempDir("martech-version-");
    await writeFile(join(root, "package.json"), JSON.stringify({ name: "martech-steps", version: "9.8.7" }));
    // A package.json of another name on the way up (a consumer's, say) is walked past.
    await mkdir(join(root, "dist"));
    await writeFile(join(root, "dist", "package.json"), JSON.stringify({ name: "other", type: "module" }));
    const found = await findFrom(join(root, "dist", "cli", "chunks"));
    expect(found.stderr).toBe("");
    expect(JSON.parse(found.stdout)).toEqual({ root, version: "9.8.7" });
  });

  it("missing, stops with a typed error saying what to do", async () => {
    const root = await tempDir("martech-version-none-");
    await writeFile(join(root, "package.json"), JSON.stringify({ type: "module" }));
    const found = await findFrom(join(root, "lib"));
    expect(found.code).toBe(1);
    expect(found.stderr).toContain(
      `not_configured: No package.json named martech-steps in ${join(root, "lib")} or any folder above it. This installation of martech-steps is incomplete`,
    );
  });
});
