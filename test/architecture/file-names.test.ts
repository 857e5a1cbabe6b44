import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Files are split by subject, never by size (DESIGN.md style rule): no module named "-more", "-extra"
 * or with a number at the end ("email2.ts"), which is what a file cut in two when it grew long gets
 * called. The Marketo sandbox had three such files (bulk create-more, files-more, imports-more) and an
 * email-extra.
 */

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FOLDERS = ["src", "console/src", "scripts", "bench"];
const BY_SIZE = /(?:[-_.](?:more|extra)|\d)\.(?:tsx?|mjs)$/i;

/** The module files of a folder whose name says it was split by size. */
function namedBySize(names: readonly string[]): string[] {
  return names.filter((name) => BY_SIZE.test(name) && !name.endsWith(".d.ts"));
}

describe("file names in src, console/src, scripts and bench", () => {
  it("has no module named by size", () => {
    const names = FOLDERS.flatMap((folder) =>
      readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" }).map(
        (name) => `${folder}/${name}`,
      ),
    );
    expect(names.length).toBeGreaterThan(200);
    expect(namedBySize(names)).toEqual([]);
  });

  it("names the size-named files it is meant to refuse, and lets subject names through", () => {
    expect(
      namedBySize([
        "src/sandbox/marketo/bulk/create-more.ts",
        "src/sandbox/marketo/assets/email-extra.ts",
        "src/steps2.ts",
        "src/sandbox/marketo/bulk/export/members-objects-request.ts",
        "src/sandbox/marketo/custom-objects/rest.ts",
        "src/connectors/google/oauth.ts",
        "console/src/App.tsx",
      ]),
    ).toEqual([
      "src/sandbox/marketo/bulk/create-more.ts",
      "src/sandbox/marketo/assets/email-extra.ts",
      "src/steps2.ts",
    ]);
  });
});
