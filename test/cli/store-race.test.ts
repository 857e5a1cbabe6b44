import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileCredentialStore } from "../../src/auth/credential-store.js";
import { type GoogleSandbox, sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { freshHome, run } from "../helpers/cli.js";

const TRIALS = 20;

/**
 * Four real CLI processes write one workspace's store at the same moment: two `marketo configure`
 * and two `accounts import`. Every process says it succeeded, so every write must be in the file.
 */
describe("the file store across processes", () => {
  let google: GoogleSandbox;
  beforeAll(async () => {
    google = await startGoogleSandbox();
  });
  afterAll(async () => google.close());

  it(`loses nothing when 4 CLI processes update one workspace at once (${TRIALS} trials)`, async () => {
    const lost: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const home = await freshHome("martech-race-");
      const env = { ...sandboxEnv({ google }), MARTECH_STEPS_HOME: home };
      // Two Google accounts: the same account imported under two labels is one entry (its token replaced).
      const emails = { one: "analyst@sandbox.example", two: "editor@sandbox.example" };
      for (const [label, email] of Object.entries(emails)) {
        await writeFile(join(home, `${label}.token`), google.issueRefreshToken(email), { mode: 0o600 });
      }
      const configure = (clientId: string) =>
        run(
          [
            "marketo",
            "configure",
            "--no-verify",
            "--client-id",
            clientId,
            "--endpoint",
            "https://123-abc-456.mktorest.com",
          ],
          env,
          { stdin: "secret" },
        );
      const importAccount = (label: string) =>
        run(
          ["accounts", "import", "--label", label, "--refresh-token-file", join(home, `${label}.token`)],
          env,
        );
      const runs = await Promise.all([
        configure("c1"),
        importAccount("one"),
        configure("c2"),
        importAccount("two"),
      ]);
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const secrets = await new FileCredentialStore({ home, env: {} }).read("default");
      const labels = Object.keys(secrets.googleAccounts).sort().join(",");
      if (labels !== "one,two" || !["c1", "c2"].includes(secrets.marketo?.clientId ?? "")) {
        lost.push(`trial ${trial}: accounts [${labels}], marketo ${secrets.marketo?.clientId ?? "missing"}`);
      }
    }
    expect(lost).toEqual([]);
  }, 240_000);
});
