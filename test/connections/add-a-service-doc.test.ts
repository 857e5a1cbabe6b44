import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_STEPS } from "../../src/tools/registry.js";

const root = new URL("../../", import.meta.url);

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(new URL(dir, root), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "__snapshots__" ? [] : testFiles(`${path}/`);
      return entry.name.endsWith(".test.ts") ? [path] : [];
    }),
  );
  return nested.flat();
}

/**
 * Whether a test pins the step list: a list of tools or steps asserted to have the current count, or an
 * array literal of every step id. A sixth service's step makes each of them fail until it names the new count.
 */
function pinsStepList(text: string): boolean {
  const count = new RegExp(`\\b(tools|listed|steps|TOOL_STEPS)\\)?\\.toHaveLength\\(${TOOL_STEPS.length}\\)`);
  if (count.test(text)) return true;
  const ids = new Set(TOOL_STEPS.map((step) => step.id));
  for (const list of text.matchAll(/\[\s*((?:"[a-z0-9_]+",?\s*)+)\]/g)) {
    const named = new Set([...(list[1] ?? "").matchAll(/"([a-z0-9_]+)"/g)].map((m) => m[1]));
    if (named.size === ids.size && [...ids].every((id) => named.has(id))) return true;
  }
  return false;
}

describe("docs/ARCHITECTURE.md, adding a service", () => {
  it("names every test that pins the step list (a new step makes exactly those fail), and only files that exist", async () => {
    const doc = await readFile(new URL("docs/ARCHITECTURE.md", root), "utf8");
    const files = await testFiles("test/");
    const pinning: string[] = [];
    for (const file of files) {
      if (pinsStepList(await readFile(new URL(file, root), "utf8"))) pinning.push(file);
    }
    expect(pinning.length).toBeGreaterThan(0);
    for (const file of pinning) expect(doc, `${file} pins the step list`).toContain(`\`${file}\``);
    const named = [...doc.matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map((m) => m[1] as string);
    for (const file of named) expect(files, `${file} is named by the doc`).toContain(file);
  });
});
