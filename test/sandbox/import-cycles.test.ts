/**
 * No module of the sandbox imports itself through others, type-only imports included (google/seed.ts
 * and google/world.ts used to import each other; the records they share now live in google/model.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/sandbox");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Relative imports and re-exports of a module, `import type` included, as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)[^;]*?from\s+"(\.[^"]+)\.js";/gms)].map((m) =>
    resolve(dirname(file), `${m[1]}.ts`),
  );
}

function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

it("has no import cycle in src/sandbox", () => {
  const files = sources(ROOT);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((target) => target.startsWith(ROOT))]));
  expect(graph.get(join(ROOT, "google/seed.ts"))).toEqual([join(ROOT, "google/model.ts")]);
  const cycle = findCycle(graph);
  expect(cycle?.map((f) => f.slice(ROOT.length + 1))).toBeUndefined();
});
