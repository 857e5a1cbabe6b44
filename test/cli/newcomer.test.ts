/**
 * What a careless newcomer types, found by following the README on a fresh clone: each command ends
 * at once with one `error:` line that names the flag or variable and what is accepted, and leaves
 * nothing running or half-saved behind.
 */

import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { BIN, exited, freshHome, run, startCli } from "../helpers/cli.js";

const ENDPOINT = "https://123-abc-456.mktorest.com/rest";

describe("a value the CLI would prompt for, with stdin not a terminal", () => {
  it("marketo configure without --client-id names the flag and saves nothing (it used to exit 0 in silence)", async () => {
    const env = { MARTECH_STEPS_HOME: await freshHome() };
    const result = await run(["marketo", "configure", "--no-verify", "--endpoint", ENDPOINT], env, {
      stdin: "piped-secret",
    });
    expect(result.stderr).toMatch(
      /^error: Invalid --client-id: Client ID is required\. Give it with --client-id/m,
    );
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain("piped-secret");
    expect(JSON.parse((await run(["marketo", "show"], env)).stdout)).toMatchObject({ configured: false });
  });

  it("marketo configure without --endpoint names --endpoint", async () => {
    const env = { MARTECH_STEPS_HOME: await freshHome() };
    const result = await run(["marketo", "configure", "--no-verify", "--client-id", "id"], env, {
      stdin: "piped-secret",
    });
    expect(result.stderr).toMatch(/^error: Invalid --endpoint: REST API Endpoint is required\./m);
    expect(result.code).toBe(2);
  });

  it("accounts client without --client-id names the flag", async () => {
    const env = { MARTECH_STEPS_HOME: await freshHome() };
    const result = await run(["accounts", "client"], env, { stdin: "piped-secret" });
    expect(result.stderr).toMatch(/^error: Invalid --client-id: OAuth Client ID is required\./m);
    expect(result.code).toBe(2);
  });
});

describe("MARTECH_STEPS_LOG_LEVEL", () => {
  it("an unknown level is one error line naming the variable and the levels, not pino's stack", async () => {
    const result = await run(["search", "marketing"], { MARTECH_STEPS_LOG_LEVEL: "loud" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: MARTECH_STEPS_LOG_LEVEL is "loud". Accepted: fatal, error, warn, info, debug, trace, silent (default info).\n',
    );
  });

  it("accepts a level in capitals", async () => {
    const result = await run(["search", "marketing"], { MARTECH_STEPS_LOG_LEVEL: "DEBUG" });
    expect(result.code).toBe(0);
  });
});

describe("sandbox flags that cannot work together", () => {
  it("a second --detach while this shell's sandbox still runs is refused, so the first is not orphaned", async () => {
    // The test runner stands in for the running sandbox the shell's exports name.
    const env = { MARTECH_STEPS_HOME: await freshHome(), MARTECH_STEPS_SANDBOX_PID: String(process.pid) };
    const result = await run(["sandbox", "--detach"], env, { timeoutMs: 30_000 });
    const started = /MARTECH_STEPS_SANDBOX_PID=(\d+)/.exec(result.stdout)?.[1];
    if (started) {
      process.kill(Number(started), "SIGTERM");
      await exited(Number(started));
    }
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: This shell already has a sandbox running in the background \\(MARTECH_STEPS_SANDBOX_PID ${process.pid}\\)`,
      ),
    );
    expect(result.stderr).toContain('eval "$(martech-steps sandbox --unset)"');
    expect(result.code).toBe(1);
  });

  it("--unset with --detach is an error, not a silent unset", async () => {
    const result = await run(["sandbox", "--detach", "--unset"], { MARTECH_STEPS_HOME: await freshHome() });
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error: option '--unset' cannot be used with option '--detach'/m);
    expect(result.code).toBe(2); // a usage error
  });

  it("the same port for both emulators names both flags instead of blaming another server", async () => {
    const result = await run(["sandbox", "--marketo-port", "4999", "--google-port", "4999"], {
      MARTECH_STEPS_HOME: await freshHome(),
    });
    expect(result.stderr).toMatch(
      /^error: Invalid --google-port: it is the same port as --marketo-port \(4999\)\. Each emulator needs its own port/m,
    );
    expect(result.code).toBe(2);
  });
});

describe("MARTECH_STEPS_ACCOUNT_POLL_MS", () => {
  it("a bad value stops start with one error line, rather than failing every MCP request later", async () => {
    const result = await run(["start", "--port", "0"], {
      MARTECH_STEPS_HOME: await freshHome(),
      MARTECH_STEPS_ACCOUNT_POLL_MS: "abc",
    });
    expect(result.stderr).toMatch(
      /^error: MARTECH_STEPS_ACCOUNT_POLL_MS must be a positive whole number, not "abc"/m,
    );
    expect(result.stderr).not.toMatch(/Press Ctrl-C/);
    expect(result.code).toBe(1);
  });
});

describe("a bad Marketo REST endpoint", () => {
  it("from --endpoint is invalid input naming the flag (exit 2)", async () => {
    const result = await run(
      ["marketo", "configure", "--no-verify", "--client-id", "id", "--endpoint", "not-a-url"],
      { MARTECH_STEPS_HOME: await freshHome() },
      { stdin: "piped-secret" },
    );
    expect(result.stderr).toMatch(
      /^error: Invalid --endpoint: it is not a valid URL\. Copy the REST API Endpoint/m,
    );
    expect(result.code).toBe(2);
  });

  it("from the environment names MARKETO_REST_ENDPOINT", async () => {
    const result = await run(
      ["call", "marketo_api_call", "--input", '{"method":"GET","endpoint":"/rest/v1/leads.json"}'],
      {
        MARTECH_STEPS_HOME: await freshHome(),
        MARKETO_CLIENT_ID: "id",
        MARKETO_CLIENT_SECRET: "env-secret",
        MARKETO_REST_ENDPOINT: "http://example.com/rest",
      },
    );
    expect(result.stderr).toMatch(/^error: MARKETO_REST_ENDPOINT must use https/m);
    expect(result.stdout + result.stderr).not.toContain("env-secret");
    expect(result.code).toBe(1);
  });
});

describe("accounts import of a gcloud authorized_user file", () => {
  it("whose own OAuth client is refused blames the file's client, not GOOGLE_OAUTH_CLIENT_*", async () => {
    const sandbox = await startCli(["sandbox", "--marketo-port", "0", "--google-port", "0"], {
      MARTECH_STEPS_HOME: await freshHome(),
    });
    try {
      const env = Object.fromEntries(
        [...sandbox.stdout().matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]),
      );
      const file = join(env.MARTECH_STEPS_HOME!, "adc.json");
      const adc = {
        type: "authorized_user",
        client_id: "other",
        client_secret: "file-secret",
        refresh_token: "1//rt-0123456789abcdef",
      };
      await writeFile(file, JSON.stringify(adc), { mode: 0o600 });
      const result = await run(["accounts", "import", "--label", "adc", "--refresh-token-file", file], env);
      expect(result.stderr).toMatch(
        /^error: Google does not accept the OAuth client of the imported file, its client_id and client_secret \(invalid_client\)/m,
      );
      expect(result.stderr).not.toMatch(/GOOGLE_OAUTH_CLIENT_ID/);
      expect(result.stdout + result.stderr).not.toContain("file-secret");
      expect(result.code).toBe(1);
    } finally {
      await sandbox.stop();
    }
  }, 30_000);
});

/** `marketo configure` at a terminal (a pseudo-terminal from util-linux `script`): types `key` at the first prompt. */
async function atPrompt(key: string): Promise<{ code: number | null; output: string }> {
  const home = await freshHome();
  const command = `${process.execPath} ${BIN} marketo configure --no-verify`;
  const child = spawn("script", ["-qefc", command, "/dev/null"], {
    env: { ...childEnv(), MARTECH_STEPS_HOME: home, TERM: "dumb" },
  });
  let output = "";
  let typed = false;
  child.stdout.on("data", (chunk) => {
    output += chunk;
    if (!typed && output.includes("Client ID: ")) {
      typed = true;
      child.stdin.write(key);
    }
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

describe("a prompt at a terminal", () => {
  it("Ctrl-C stops the command as interrupted (it was swallowed: exit 0 or a wait forever)", async () => {
    const result = await atPrompt("\x03");
    expect(result.code).toBe(130);
    expect(result.output).not.toMatch(/saved/);
  });

  it("Ctrl-D names the missing value and exits 2 (it exited 0 having saved nothing)", async () => {
    const result = await atPrompt("\x04");
    expect(result.output).toMatch(/error: Invalid --client-id: Client ID is required\./);
    expect(result.code).toBe(2);
  });
});
