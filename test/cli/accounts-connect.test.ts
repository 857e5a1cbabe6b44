/**
 * `martech-steps accounts connect` as a user runs it, on the Google sandbox: the command prints the sign-in
 * URL (with --no-browser, only that), the user's browser lands on its loopback redirect, and the command
 * says which account it connected. The action is the Google room's (src/connections/google/cli-actions.ts),
 * given the terminal by the CLI (src/cli/room-action.ts).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { childEnv } from "../helpers/child-env.js";
import { BIN, run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

/** Runs `accounts connect`, playing the browser on the URL it prints; resolves with its exit code and stderr. */
function connect(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "accounts", "connect", ...args], {
      env: { ...childEnv(), ...env },
    });
    let stderr = "";
    let visited = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /Open this URL to sign in and allow access:\n {2}(\S+)\n/.exec(stderr)?.[1];
      if (!url || visited) return;
      visited = true;
      // The sandbox's consent answers with the redirect to the command's loopback listener.
      void (async () => {
        const consent = await fetch(url, { redirect: "manual" });
        const location = consent.headers.get("location");
        if (location) await (await fetch(location)).text();
      })().catch(reject);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    child.stdin.end();
  });
}

describe("accounts connect against the Google sandbox", () => {
  it("prints the sign-in URL, takes the loopback redirect, says what it connected; list shows it", {
    timeout: 60_000,
  }, async () => {
    const google = await startGoogleSandbox();
    try {
      const env = { ...sandboxEnv({ google }), MARTECH_STEPS_HOME: await tempDir("martech-connect-") };
      const connected = await connect(["--no-browser", "--label", "web"], env);
      expect(connected.stderr).toMatch(/Connected "web"/);
      expect(connected.code).toBe(0);
      const list = await run(["accounts", "list"], env);
      expect(JSON.parse(list.stdout).map((account: { label: string }) => account.label)).toEqual(["web"]);
    } finally {
      await google.close();
    }
  });
});
