import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * test/packed/ tests the package as npm ships it (issue 25): the installed bin, the installed entry. A test
 * there that imported the checkout's src/ or dist/ would test the checkout again, where paths hold that the
 * package breaks. So no file of test/packed/, nor any module it reaches through relative imports (its
 * helpers, and theirs), may import from src/ or dist/, statically, dynamically, by require or by
 * re-export, nor name a relative path into them (`new URL("../../src/…", import.meta.url)`).
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FORBIDDEN = ["src", "dist"].map((folder) => join(ROOT, folder) + sep);

interface Reference {
  line: number;
  text: string;
  /** A module specifier (import, export from, import(), require()) rather than a plain string. */
  module: boolean;
}

/** The relative paths a source names: its module specifiers, and its other strings starting with "./" or "../". */
function relativeReferences(path: string, text: string): Reference[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Reference[] = [];
  const add = (node: ts.StringLiteralLike, module: boolean) => {
    if (!/^\.\.?\//.test(node.text)) return;
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    found.push({ line, text: node.text, module });
  };
  const specifiers = new Set<ts.Node>();
  const visit = (node: ts.Node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) &&
            (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
              node.expression.getText(file) === "require")
          ? node.arguments[0]
          : undefined;
    if (specifier && ts.isStringLiteralLike(specifier)) {
      specifiers.add(specifier);
      add(specifier, true);
    } else if (ts.isStringLiteralLike(node) && !specifiers.has(node)) add(node, false);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A .js specifier as its .ts source (the tests import TypeScript by its compiled name). */
const sourceOf = (target: string) => target.replace(/\.js$/, ".ts");

/** Every path into src/ or dist/ named by `entries` or by the modules they reach through relative imports. */
function reachesCheckoutCode(entries: string[], read: (path: string) => string): string[] {
  const bad: string[] = [];
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const ref of relativeReferences(path, read(path))) {
      const target = resolve(dirname(path), ref.text);
      if (FORBIDDEN.some((folder) => `${target}${sep}`.startsWith(folder) || target.startsWith(folder)))
        bad.push(`${relative(ROOT, path)}:${ref.line} ${ref.text}`);
      else if (ref.module && /\.[cm]?[jt]sx?$/.test(ref.text)) queue.push(sourceOf(target));
    }
  }
  return bad;
}

describe("the packed-artifact suite imports nothing of the checkout's code", () => {
  it("no file of test/packed/, nor a helper it reaches, imports or names src/ or dist/", () => {
    const folder = join(ROOT, "test/packed");
    const entries = readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => join(folder, name));
    expect(entries.length).toBeGreaterThan(0);
    expect(reachesCheckoutCode(entries, (path) => readFileSync(path, "utf8"))).toEqual([]);
  });

  it("the check fires on each way in, directly and through a helper, and lets packages and helpers through", () => {
    const at = (name: string) => join(ROOT, "test/packed", name);
    const helper = join(ROOT, "test/helpers/fixture-helper.ts");
    const files: Record<string, string> = {
      [at("a.test.ts")]: [
        'import { x } from "../../src/tools/run.js";',
        'export { y } from "../../dist/index.js";',
        'const z = await import("../../src/mcp/server.js");',
        'const w = require("../../dist/cli/main.js");',
        'const file = new URL("../../src/version.ts", import.meta.url);',
        'import { Client } from "@modelcontextprotocol/client";',
        'import { helper } from "../helpers/fixture-helper.js";',
      ].join("\n"),
      [helper]: 'import { PACKAGE } from "../../src/version.js";\nimport { tempDir } from "./temp.js";',
      [join(ROOT, "test/helpers/temp.ts")]: 'import { tmpdir } from "node:os";',
    };
    const read = (path: string) => {
      const text = files[path];
      if (text === undefined) throw new Error(`not in the fixture: ${path}`);
      return text;
    };
    expect(reachesCheckoutCode([at("a.test.ts")], read)).toEqual([
      "test/packed/a.test.ts:1 ../../src/tools/run.js",
      "test/packed/a.test.ts:2 ../../dist/index.js",
      "test/packed/a.test.ts:3 ../../src/mcp/server.js",
      "test/packed/a.test.ts:4 ../../dist/cli/main.js",
      "test/packed/a.test.ts:5 ../../src/version.ts",
      "test/helpers/fixture-helper.ts:1 ../../src/version.js",
    ]);
  });
});
