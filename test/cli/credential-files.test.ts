import { chmod } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { freshHome, run } from "../helpers/cli.js";
import { ODD_KINDS, type OddFiles, oddFiles, secretFile } from "../helpers/odd-files.js";

/**
 * The CLI with a credentials file that blocks or never ends (issue 26, item 5): a FIFO hung `accounts
 * import`, `accounts list` and `call`. Each now ends within its bound: the import and the call refuse the
 * file saying what it is, the list shows the account without reading it.
 */

/** A command that hangs is killed at this bound and reported with code null. */
const BOUND_MS = 30_000;

let odd: OddFiles;
let dir: string;

beforeAll(async () => {
  dir = await freshHome("credential-files-");
  odd = await oddFiles(dir);
});

const errorLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error:"));

describe("accounts import --key-file", () => {
  for (const name of Object.keys(ODD_KINDS) as (keyof typeof ODD_KINDS)[]) {
    it(`refuses ${name} (and a link to it) with one error line`, async () => {
      for (const file of [name === "zero" ? "/dev/zero" : odd[name], odd.links[name]]) {
        const result = await run(
          ["accounts", "import", "--label", "reporter", "--key-file", file],
          { MARTECH_STEPS_HOME: await freshHome("import-") },
          { timeoutMs: BOUND_MS },
        );
        expect(result.code, result.stderr).toBe(1);
        expect(errorLines(result.stderr)).toEqual([expect.stringMatching(ODD_KINDS[name])]);
      }
    }, 90_000);
  }

  it("refuses a key other users can read, as the store's key file is refused", async () => {
    const file = await secretFile(dir, "open.json", '{"type":"service_account"}', 0o644);
    await chmod(file, 0o644);
    const result = await run(
      ["accounts", "import", "--label", "reporter", "--key-file", file],
      { MARTECH_STEPS_HOME: await freshHome("import-") },
      { timeoutMs: BOUND_MS },
    );
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([
      `error: Permissions 0644 for the credentials file ${file} are too open: other users could read the credentials in it. Run: chmod 600 ${file}`,
    ]);
  }, 60_000);
});

describe("GOOGLE_APPLICATION_CREDENTIALS naming a FIFO", () => {
  it("accounts list shows the account; a call with it refuses the file with one error line", async () => {
    const env = { MARTECH_STEPS_HOME: await freshHome("adc-"), GOOGLE_APPLICATION_CREDENTIALS: odd.fifo };
    const listed = await run(["accounts", "list"], env, { timeoutMs: BOUND_MS });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { label: "application-default", scopes: [], addedAt: "", from: "GOOGLE_APPLICATION_CREDENTIALS" },
    ]);
    const input = {
      property: "412345671",
      account: "application-default",
      date_ranges: ["last7days"],
      metrics: ["sessions"],
    };
    const called = await run(
      ["call", "google_analytics_run_reports", "--sandbox", "--input", JSON.stringify(input)],
      env,
      { timeoutMs: BOUND_MS },
    );
    expect(called.code, called.stderr).toBe(1);
    expect(errorLines(called.stderr)).toEqual([
      expect.stringMatching(/GOOGLE_APPLICATION_CREDENTIALS .*is a named pipe \(FIFO\), not a regular file/),
    ]);
  }, 90_000);
});
