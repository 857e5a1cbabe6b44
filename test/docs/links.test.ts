/**
 * No link in README.md or docs/*.md breaks: every relative link names a file of the checkout, and every
 * #anchor a heading of the file it points at (GitHub's anchors, test/helpers/markdown.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { anchors, type Doc, localLinks, ROOT, readDocs } from "../helpers/markdown.js";

/** Each link that does not resolve, as `file:line → target (why)`. */
function brokenLinks(docs: readonly Doc[], root: string): string[] {
  const headingsOf = new Map<string, Set<string>>();
  const headings = (path: string): Set<string> => {
    if (!headingsOf.has(path)) headingsOf.set(path, anchors(readFileSync(join(root, path), "utf8")));
    return headingsOf.get(path)!;
  };
  return docs.flatMap((doc) =>
    localLinks(doc.text).flatMap(({ target, line }) => {
      const [file = "", anchor] = target.split("#") as [string, string | undefined];
      const where = `${doc.path}:${line} → ${target}`;
      // A link within the page: its own headings.
      if (file === "")
        return anchors(doc.text).has(anchor ?? "") ? [] : [`${where} (no such heading in ${doc.path})`];
      const path = normalize(join(dirname(doc.path), decodeURI(file)));
      if (path.startsWith("..") || !existsSync(join(root, path))) return [`${where} (no such file)`];
      if (anchor === undefined) return [];
      if (!path.endsWith(".md")) return [`${where} (an anchor in a file that is not Markdown)`];
      return headings(path).has(anchor) ? [] : [`${where} (no such heading in ${path})`];
    }),
  );
}

describe("the links of README.md and docs/*.md", () => {
  let docs: Doc[];
  beforeAll(async () => {
    docs = await readDocs();
  });

  it("all resolve: the file exists, and so does the heading an #anchor names", () => {
    const links = docs.flatMap((doc) => localLinks(doc.text));
    expect(links.length).toBeGreaterThan(20);
    expect(brokenLinks(docs, ROOT)).toEqual([]);
  });

  it("are caught when broken: a missing file, a missing heading, a heading of another file", () => {
    const planted: Doc = {
      path: "docs/planted.md",
      text: [
        "# Planted",
        "See [gone](gone.md), [the sandbox](sandbox.md#no-such-heading), [here](#planted),",
        "[there](#the-sandbox) and [the README](../README.md#quick-start).",
        "```sh",
        "echo '[not a link](nowhere.md)'",
        "```",
      ].join("\n"),
    };
    expect(brokenLinks([planted], ROOT)).toEqual([
      "docs/planted.md:2 → gone.md (no such file)",
      "docs/planted.md:2 → sandbox.md#no-such-heading (no such heading in docs/sandbox.md)",
      "docs/planted.md:3 → #the-sandbox (no such heading in docs/planted.md)",
    ]);
  });

  it("are anchored as GitHub anchors headings", () => {
    const text =
      "# Remote sign-in (OAuth)\n## `npm start`, again\n## Marketo (admins)\n## Marketo (admins)\n";
    expect([...anchors(text)]).toEqual([
      "remote-sign-in-oauth",
      "npm-start-again",
      "marketo-admins",
      "marketo-admins-1",
    ]);
  });
});
