import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * A module of src/ finds a file of the package (package.json, manifest.json, tool-schemas/, dist/console-web/,
 * dist/mcp-app/) through src/version.ts (`PACKAGE_ROOT`, `packageFile()`), never from its own location: it
 * runs from src/ (tests), dist/ (tsc's output) and dist/cli/chunks/ (the CLI's bundle, what users run), and
 * a path relative to `import.meta.url` holds for one layout only (issue 25: the MCP App chart was read from
 * dist/dist/mcp-app/ by the bin). The one other use allowed is `createRequire(import.meta.url)`, which
 * resolves a package by name from node_modules (the same from every layout), not a file of ours.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ALLOWED_FILE = "src/version.ts";

/** Every use of the module's own location in a source, as "line: code", except createRequire's argument. */
function ownLocationUses(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
    found.push(`${line}: ${node.getText(file)}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      const use = ts.isPropertyAccessExpression(node.parent) ? node.parent : node;
      const call = use.parent;
      const inCreateRequire =
        use !== node &&
        use.name.text === "url" &&
        ts.isCallExpression(call) &&
        call.expression.getText(file) === "createRequire" &&
        call.arguments.length === 1;
      if (!inCreateRequire) report(use.parent && ts.isCallExpression(use.parent) ? use.parent : use);
    } else if (ts.isIdentifier(node) && (node.text === "__dirname" || node.text === "__filename"))
      report(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sources(): string[] {
  return readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(tsx?|mjs)$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => join(ROOT, "src", name));
}

describe("package files are found from the package's root, never from a module's own location", () => {
  it("no module of src/ but src/version.ts uses import.meta.url (or __dirname) beyond createRequire", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(200);
    const uses = files
      .filter((path) => relative(ROOT, path) !== ALLOWED_FILE)
      .flatMap((path) =>
        ownLocationUses(path, readFileSync(path, "utf8")).map((use) => `${relative(ROOT, path)}:${use}`),
      );
    expect(uses).toEqual([]);
    // The rule's one exception is used where it should be: version.ts walks up from its own folder.
    expect(ownLocationUses(ALLOWED_FILE, readFileSync(join(ROOT, ALLOWED_FILE), "utf8"))).toHaveLength(1);
  });

  it("the check fires on each way of locating a file from the module, and lets createRequire through", () => {
    const text = [
      'const a = new URL("../../dist/mcp-app/report-chart.html", import.meta.url);',
      "const b = fileURLToPath(import.meta.url);",
      'const c = join(import.meta.dirname, "x");',
      "const d = import.meta.filename;",
      'const e = import.meta.resolve("./x.js");',
      'const f = join(__dirname, "x");',
      "const require = createRequire(import.meta.url);",
      'const { pino } = createRequire(import.meta.url)("pino");',
    ].join("\n");
    expect(ownLocationUses("fixture.ts", text).map((use) => use.split(":")[0])).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
    ]);
  });
});
