import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The page's bundle shares the server's code for the wording of input errors (src/tools/input/words.ts
 * and what it imports). That code must stay free of zod (the bundle would carry the server's validator,
 * or rely on tree-shaking to drop it) and of Node's modules (they do not exist in a browser): a fix to the
 * wording that imports, say, schema-walk.ts would otherwise only show up as a broken or bloated page.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ENTRY = resolve(ROOT, "console/src/main.tsx");
// import … from "x", export … from "x", import("x"); `import type` and `export type` are erased.
const SPECIFIER =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

/** The file an import names: "./words.js" is words.ts in the sources (Vite and tsc resolve it so). */
function fileOf(path: string): string {
  const candidates = [path, path.replace(/\.js$/, ".ts"), path.replace(/\.js$/, ".tsx")];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!found) throw new Error(`cannot find ${path}`);
  return found;
}

/** Every module the page's code reaches, with the bare (package or node:) specifiers each imports. */
function graph(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    const bare: string[] = [];
    seen.set(file, bare);
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (match[2]) continue;
      const specifier = (match[3] ?? match[4]) as string;
      if (specifier.startsWith(".")) pending.push(fileOf(resolve(dirname(file), specifier)));
      else bare.push(specifier);
    }
  }
  return seen;
}

describe("the console page's bundle", () => {
  it("reaches the server's wording code, and none of it imports zod or Node", () => {
    const modules = graph(ENTRY);
    const shared = [...modules.keys()]
      .map((file) => relative(ROOT, file))
      .filter((f) => f.startsWith("src/"));
    expect(shared).toEqual(expect.arrayContaining(["src/tools/input/words.ts", "src/schemas/field-path.ts"]));
    const offending = [...modules].flatMap(([file, bare]) =>
      bare
        .filter((name) => name === "zod" || name.startsWith("zod/") || name.startsWith("node:"))
        .map((name) => `${relative(ROOT, file)} imports ${name}`),
    );
    expect(offending).toEqual([]);
  });
});
