import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No function over 80 lines (DESIGN.md style rule) in the product's code: the server (src), the browser
 * console (console/src), the scripts and the bench. A long function is split by responsibility (a
 * route's work in a handler of its own, a component's parts in child components or hooks). Counted
 * with the TypeScript parser, every function-like node (declarations, methods, arrows, function
 * expressions, constructors, accessors), from its first line to its last, nested functions included
 * in their parent's count.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FOLDERS = ["src", "console/src", "scripts", "bench"];
const MAX_LINES = 80;

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(tsx?|mjs)$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => join(ROOT, folder, name));
}

/** A function's name as a reader finds it: its own, or the variable, property or call it is given to. */
function nameOf(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText(file).slice(0, 40)}`;
  return "anonymous function";
}

/** Every function of a source longer than the limit, as "path:line name (N lines)". */
function longFunctions(path: string, text: string, limit = MAX_LINES): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit)
        found.push(`${relative(ROOT, path)}:${first + 1} ${nameOf(node, file)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("function length in src, console/src, scripts and bench", () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    const files = FOLDERS.flatMap(sources);
    expect(files.length).toBeGreaterThan(200);
    // Every folder is read, the browser's JSX and the scripts' plain modules included.
    for (const folder of FOLDERS)
      expect(files.some((path) => path.startsWith(`${join(ROOT, folder)}/`))).toBe(true);
    expect(files.some((path) => path.endsWith(".tsx"))).toBe(true);
    expect(files.some((path) => path.endsWith(".mjs"))).toBe(true);
    expect(files.flatMap((path) => longFunctions(path, readFileSync(path, "utf8")))).toEqual([]);
  });

  it("names a function over the limit, whatever its form", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text = [
      `export function declared() {\n${body(80)}\n}`,
      // Exactly 80 lines: allowed.
      `const arrow = () => {\n${body(78)}\n};`,
      `class Router {\n  route() {\n${body(90)}\n  }\n}`,
      `app.get("/x", async (c) => {\n${body(85)}\n});`,
    ].join("\n");
    expect(longFunctions(join(ROOT, "src/mcp/fixture.ts"), text)).toEqual([
      "src/mcp/fixture.ts:1 declared (82 lines)",
      "src/mcp/fixture.ts:164 route (92 lines)",
      "src/mcp/fixture.ts:257 callback of app.get (87 lines)",
    ]);
  });
});
