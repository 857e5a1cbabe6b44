import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { childEnv } from "../helpers/child-env.js";
import { BIN, exited, freshHome, run, startCli } from "../helpers/cli.js";

const LEAD1 = JSON.stringify({
  method: "GET",
  endpoint: "/rest/v1/leads.json",
  query_parameters: { filterType: "email", filterValues: "lead1@example.com" },
});
const REPORT = JSON.stringify({ account: "sandbox", property: "412345671", metrics: ["sessions"] });

/** Parses `export NAME=value` lines (values are bare words or single-quoted). */
function parseExports(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.trim().split("\n")) {
    const m = /^export ([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new Error(`not an export line: ${line}`);
    const raw = m[2]!;
    env[m[1]!] = raw.startsWith("'") ? raw.slice(1, -1).replaceAll(`'\\''`, "'") : raw;
  }
  return env;
}

describe("--sandbox: the emulators in-process, with a store of their own", () => {
  it("call --sandbox works on a fresh machine and writes nothing to the user's store", async () => {
    const home = await freshHome();
    const leads = await run(["call", "--sandbox", "marketo_api_call", "--input", LEAD1], {
      MARTECH_STEPS_HOME: home,
    });
    expect(leads.code, leads.stderr).toBe(0);
    expect(JSON.parse(leads.stdout).result[0].email).toBe("lead1@example.com");
    const report = await run(["call", "--sandbox", "google_analytics_run_reports", "--input", REPORT], {
      MARTECH_STEPS_HOME: home,
    });
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout).rows.length).toBeGreaterThan(0);
    expect(await readdir(home)).toEqual([]);
  }, 60_000);

  it("call --sandbox works in a named workspace too", async () => {
    const home = await freshHome();
    const leads = await run(
      ["call", "--sandbox", "--workspace", "acme", "marketo_api_call", "--input", LEAD1],
      {
        MARTECH_STEPS_HOME: home,
      },
    );
    expect(leads.code, leads.stderr).toBe(0);
  });

  it("serve --sandbox speaks MCP over stdio on the sandbox and exits when the client leaves", async () => {
    const home = await freshHome();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "--sandbox"],
      env: { ...childEnv(), MARTECH_STEPS_HOME: home },
      stderr: "pipe",
    });
    const client = new Client({ name: "sandbox-stdio-test", version: "1" });
    await client.connect(transport);
    const pid = transport.pid!;
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(5);
    const leads = (await client.callTool({
      name: "marketo_api_call",
      arguments: JSON.parse(LEAD1),
    })) as CallToolResult;
    expect(leads.isError, JSON.stringify(leads.content)).toBeFalsy();
    const report = (await client.callTool({
      name: "google_analytics_run_reports",
      arguments: JSON.parse(REPORT),
    })) as CallToolResult;
    expect(report.isError, JSON.stringify(report.content)).toBeFalsy();
    await client.close();
    expect(await exited(pid)).toBe(true);
    expect(await readdir(home)).toEqual([]);
  });
});

describe("martech-steps sandbox: export lines for eval, its own store", () => {
  it("prints only export lines on stdout, the banner on stderr, and never touches the user's store", async () => {
    const home = await freshHome();
    const sandbox = await startCli(["sandbox", "--marketo-port", "0", "--google-port", "0"], {
      MARTECH_STEPS_HOME: home,
    });
    try {
      const env = parseExports(sandbox.stdout());
      expect(Object.keys(env)).toEqual(
        expect.arrayContaining(["MARKETO_REST_ENDPOINT", "GA4_DATA_API_URL", "MARTECH_STEPS_HOME"]),
      );
      expect(env.MARTECH_STEPS_HOME).not.toBe(home);
      // The one import the banner names is the sandbox's service account key, into the sandbox's own store.
      expect(
        sandbox.banner.replace(
          /^try it with martech-steps accounts import --label reporter --key-file .*$/m,
          "",
        ),
      ).not.toMatch(/accounts import/);
      expect(sandbox.banner).not.toMatch(/^export /m);
      // Following the output: the sandbox account is already there, in the sandbox's own store.
      const list = await run(["accounts", "list"], env);
      expect(JSON.parse(list.stdout).map((a: { label: string }) => a.label)).toEqual(["sandbox"]);
      const summaries = await run(
        [
          "call",
          "google_analytics_api_call",
          "--input",
          '{"method":"GET","endpoint":"v1beta/accountSummaries"}',
        ],
        env,
      );
      expect(summaries.code, summaries.stderr).toBe(0);
      const leads = await run(["call", "marketo_api_call", "--input", LEAD1], env);
      expect(leads.code, leads.stderr).toBe(0);
      expect(await readdir(home)).toEqual([]);
      await sandbox.stop();
      expect(existsSync(env.MARTECH_STEPS_HOME!)).toBe(false);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  it('eval "$(martech-steps sandbox --detach)" leaves it running in the background until killed', async () => {
    const home = await freshHome();
    const script = [
      `martech-steps() { "${process.execPath}" "${BIN}" "$@"; }`,
      'eval "$(martech-steps sandbox --detach)"',
      'echo "pid=$MARTECH_STEPS_SANDBOX_PID home=$MARTECH_STEPS_HOME"',
      `martech-steps call google_analytics_run_reports --input '${REPORT}' > /dev/null`,
      'kill "$MARTECH_STEPS_SANDBOX_PID"',
    ].join("\n");
    // Two CLI runs and a sandbox start: 15 s (the helper's default) is not enough on a loaded two-core CI machine,
    // where the kill closed the pipe under `eval "$(…)"` and the CLI met EPIPE.
    const result = await run(
      ["-e", "-c", script],
      { MARTECH_STEPS_HOME: home },
      { command: ["bash"], timeoutMs: 50_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/running in the background/);
    const m = /pid=(\d+) home=(\S+)/.exec(result.stdout)!;
    expect(m[2]).not.toBe(home);
    // The report ran against the detached sandbox.
    expect(result.stderr).toMatch(/row/);
    expect(await exited(Number(m[1]))).toBe(true);
    expect(existsSync(m[2]!)).toBe(false);
    expect(await readdir(home)).toEqual([]);
  }, 60_000);

  it("sandbox --detach reports a start failure with one error line and leaves nothing running", async () => {
    const result = await run(["sandbox", "--detach", "--marketo-port", "70000"], {
      MARTECH_STEPS_HOME: await freshHome(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^error: Invalid --marketo-port: "70000" is not a port/);
    expect(result.stdout).toBe("");
  });
});

describe("npm start decides 'configured' only from real configuration", () => {
  it("a sandbox account imported into the user's store (the old banner's advice) does not count", async () => {
    const home = await freshHome();
    // What following the old banner did: export the sandbox's variables, then import its account
    // into the user's store (the record has no OAuth client of its own: it came from the environment).
    const google = await startGoogleSandbox();
    try {
      await writeFile(join(home, "token"), google.issueRefreshToken("analyst@sandbox.example"), {
        mode: 0o600,
      });
      const imported = await run(
        ["accounts", "import", "--label", "sandbox", "--refresh-token-file", join(home, "token")],
        {
          ...sandboxEnv({ google }),
          MARTECH_STEPS_HOME: home,
        },
      );
      expect(imported.code, imported.stderr).toBe(0);
    } finally {
      await google.close();
    }
    const started = await startCli(["start", "--port", "0"], { MARTECH_STEPS_HOME: home });
    await started.stop();
    expect(started.banner).toMatch(/Google Analytics: sandbox/);

    // A real OAuth client is configuration: then Google is used for real (nothing is sent at start).
    const configured = await startCli(["start", "--port", "0"], {
      MARTECH_STEPS_HOME: home,
      GOOGLE_OAUTH_CLIENT_ID: "1234-abc.apps.googleusercontent.com",
      GOOGLE_OAUTH_CLIENT_SECRET: "not-a-real-secret",
    });
    await configured.stop();
    expect(configured.banner).toMatch(/Google Analytics: configured/);
  }, 60_000);
});
