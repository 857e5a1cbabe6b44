/**
 * The project's Markdown as the example runner and the link test read it: README.md and every
 * docs/*.md, their fenced code blocks (with the `<!-- example: ... -->` marker on the line before),
 * their `## ` sections, their headings' anchors and their links.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export const ROOT = new URL("../../", import.meta.url).pathname;

export interface Block {
  lang: string;
  marker: string | undefined;
  code: string;
  line: number;
}

export interface Doc {
  /** Relative to the checkout: `README.md`, `docs/sandbox.md`. */
  path: string;
  text: string;
}

/** README.md, then every docs/*.md by name. */
export async function readDocs(root = ROOT): Promise<Doc[]> {
  const names = (await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md")).sort();
  const paths = ["README.md", ...names.map((name) => `docs/${name}`)];
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(root, path), "utf8") })));
}

/** The fenced blocks of a text; an unclosed fence runs to the end. */
export function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i]!);
    if (!open) continue;
    const found = lines.indexOf("```", i + 1);
    const end = found < 0 ? lines.length : found;
    const marker = /^<!-- example: (.+) -->$/.exec(lines[i - 1] ?? "")?.[1];
    blocks.push({ lang: open[1]!, marker, code: lines.slice(i + 1, end).join("\n"), line: i + 1 });
    i = end;
  }
  return blocks;
}

/** The text outside fenced blocks (a `#` comment in a shell example is no heading, a `](x)` in code no link). */
export function prose(markdown: string): string {
  let inFence = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^```/.test(line)) {
        inFence = !inFence;
        return "";
      }
      return inFence ? "" : line;
    })
    .join("\n");
}

/** The text of a `## heading` section, up to the next `## `. */
export function section(doc: Doc, heading: string): string {
  const start = doc.text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${doc.path} has no "## ${heading}" section`);
  const end = doc.text.indexOf("\n## ", start + 1);
  return doc.text.slice(start, end < 0 ? undefined : end);
}

/**
 * The anchors GitHub gives a text's headings: the heading's words, lower case, punctuation dropped,
 * spaces as hyphens, a repeated one suffixed -1, -2 (the rule of github-slugger, which GitHub uses:
 * https://github.com/Flet/github-slugger).
 */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const words = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*]/g, "")
      .trim()
      .toLowerCase();
    const base = words.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The targets of a text's inline links that stay in the checkout (no scheme, not mailto). */
export function localLinks(markdown: string): { target: string; line: number }[] {
  const lines = prose(markdown).split("\n");
  return lines.flatMap((text, i) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z][\w+.-]*:/i.test(target))
      .map((target) => ({ target, line: i + 1 })),
  );
}
