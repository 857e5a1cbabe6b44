import { cp, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

const ROOT = new URL("../../", import.meta.url);

// tools/list reads tool-schemas/ at run time: an installation without it (a copy of dist/ alone) must
// stop at start saying so, not answer every request with a bare "Internal server error".
describe("serve without tool-schemas/", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("exits at start with an error naming the folder and the remedy", { timeout: 30_000 }, async () => {
    dir = await tempDir("martech-no-schemas-");
    await cp(new URL("dist/", ROOT), join(dir, "dist"), { recursive: true });
    await cp(new URL("package.json", ROOT), join(dir, "package.json"));
    await symlink(new URL("node_modules", ROOT).pathname, join(dir, "node_modules"));

    const result = await run(
      ["serve"],
      { HOME: dir },
      { command: [process.execPath, join(dir, "dist/cli/main.js")] },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `error: The tool schemas cannot be read (${join(dir, "tool-schemas", "index.json")}: ENOENT): this installation of martech-steps is incomplete.`,
    );
  });
});
