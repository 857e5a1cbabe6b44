import { randomBytes, randomUUID } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildManifest } from "../../src/manifest.js";
import { sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { childEnv } from "../helpers/child-env.js";
import { freshHome, run, type Started, startCli } from "../helpers/cli.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/temp.js";

describe("CLI", () => {
  let home: string;
  let sandbox: MarketoSandbox;
  beforeAll(async () => {
    home = await tempDir("martech-cli-");
    sandbox = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
  });
  afterAll(async () => sandbox.close());

  it("search puts marketo_api_call first for marketing automation", async () => {
    const r = await run(["search", "marketing", "automation"], { MARTECH_STEPS_HOME: home });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^marketo_api_call\tMarketo API Call/);
  });

  it("manifest prints the generated manifest", async () => {
    const r = await run(["manifest"], { MARTECH_STEPS_HOME: home });
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(buildManifest())));
  });

  it("marketo configure reads the secret from stdin, stores it encrypted; show never prints it", async () => {
    const env = { MARTECH_STEPS_HOME: home };
    const configure = await run(
      ["marketo", "configure", "--client-id", sandbox.clientId, "--endpoint", sandbox.restEndpoint],
      env,
      { stdin: `${CANARY_SECRET}\n` },
    );
    expect(configure.code).toBe(0);
    expect(configure.stdout + configure.stderr).not.toContain(CANARY_SECRET);
    for (const file of await readdir(join(home, "workspaces"))) {
      expect(await readFile(join(home, "workspaces", file), "utf8")).not.toContain(CANARY_SECRET);
    }
    const show = await run(["marketo", "show"], env);
    expect(JSON.parse(show.stdout)).toMatchObject({
      clientId: sandbox.clientId,
      clientSecret: "set (hidden)",
      source: "store",
    });
    expect(show.stdout + show.stderr).not.toContain(CANARY_SECRET);

    const call = await run(
      [
        "call",
        "marketo_api_call",
        "--input",
        JSON.stringify({ method: "GET", endpoint: "/rest/v1/lists.json" }),
      ],
      env,
    );
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout).result.length).toBeGreaterThan(0);
    expect(call.stdout + call.stderr).not.toContain(CANARY_SECRET);

    const removed = await run(["marketo", "remove"], env);
    expect(removed.code).toBe(0);
    const after = await run(
      ["call", "marketo_api_call", "--input", '{"method":"GET","endpoint":"/rest/v1/lists.json"}'],
      env,
    );
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/not configured/);
  });

  it("marketo configure verifies the credentials with Marketo and saves nothing when they are refused", async () => {
    const env = { MARTECH_STEPS_HOME: await tempDir("martech-verify-") };
    const wrong = await run(
      ["marketo", "configure", "--client-id", sandbox.clientId, "--endpoint", sandbox.restEndpoint],
      env,
      { stdin: "not-the-secret" },
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Client ID and Client Secret/);
    expect(wrong.stderr).not.toContain("not-the-secret");
    expect(JSON.parse((await run(["marketo", "show"], env)).stdout)).toMatchObject({ configured: false });
    const badEndpoint = await run(
      ["marketo", "configure", "--client-id", "x", "--endpoint", "http://evil.example/rest"],
      env,
      { stdin: "s" },
    );
    // A bad --endpoint is the user's input: invalid input, exit 2, named as the flag.
    expect(badEndpoint.code).toBe(2);
    expect(badEndpoint.stderr).toMatch(/Invalid --endpoint: it must use https/);
  });

  it("call exits 2 with the field named on invalid input", async () => {
    const r = await run(
      ["call", "marketo_api_call", "--input", '{"method":"GET","endpoint":"//evil.example/rest"}'],
      {
        MARTECH_STEPS_HOME: home,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Invalid endpoint/);
  });
});

describe("accounts commands against the Google sandbox", () => {
  it("import (with a read-only warning), list without tokens, remove revokes", async () => {
    const google = await startGoogleSandbox();
    try {
      const home = await tempDir("martech-accounts-");
      const env = { ...sandboxEnv({ google }), MARTECH_STEPS_HOME: home };
      const full = google.issueRefreshToken("analyst@sandbox.example");
      const readOnly = google.issueRefreshToken("viewer@sandbox.example", [
        "https://www.googleapis.com/auth/analytics.readonly",
        "openid",
        "email",
      ]);
      await writeFile(join(home, "full.token"), full, { mode: 0o600 });
      await writeFile(
        join(home, "ro.json"),
        JSON.stringify({ type: "authorized_user", refresh_token: readOnly }),
        { mode: 0o600 },
      );

      const one = await run(
        ["accounts", "import", "--label", "main", "--refresh-token-file", join(home, "full.token")],
        env,
      );
      expect(one.code).toBe(0);
      expect(one.stderr).toMatch(/Imported "main" \(analyst@sandbox.example\)/);
      expect(one.stderr).not.toMatch(/Warning/);
      const two = await run(
        ["accounts", "import", "--label", "ro", "--refresh-token-file", join(home, "ro.json")],
        env,
      );
      expect(two.code).toBe(0);
      expect(two.stderr).toMatch(/Warning: "ro" may only read/);

      const list = await run(["accounts", "list"], env);
      expect(
        JSON.parse(list.stdout)
          .map((a: { label: string }) => a.label)
          .sort(),
      ).toEqual(["main", "ro"]);
      expect(list.stdout).not.toContain(full);
      expect(list.stdout).not.toContain(readOnly);

      const before = google.stats().revocations;
      const removed = await run(["accounts", "remove", "ro"], env);
      expect(removed.code).toBe(0);
      expect(removed.stderr).toMatch(/revoked its access at Google/);
      expect(google.stats().revocations).toBe(before + 1);
      expect(JSON.parse((await run(["accounts", "list"], env)).stdout)).toHaveLength(1);
    } finally {
      await google.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL)(
  "CLI with the credential store in Redis (MARTECH_STEPS_STORE=redis)",
  () => {
    it("commands exit, and another replica (another home) sees the configuration", async () => {
      const shared = {
        REDIS_URL: process.env.REDIS_URL,
        MARTECH_STEPS_STORE: "redis",
        MARTECH_STEPS_KEY: randomBytes(32).toString("hex"),
      };
      const sandbox = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
      try {
        const workspace = `cli-${randomUUID().slice(0, 8)}`;
        const one = { ...shared, MARTECH_STEPS_HOME: await tempDir("martech-r1-") };
        const two = { ...shared, MARTECH_STEPS_HOME: await tempDir("martech-r2-") };
        const configure = await run(
          [
            "marketo",
            "configure",
            "--workspace",
            workspace,
            "--client-id",
            sandbox.clientId,
            "--endpoint",
            sandbox.restEndpoint,
          ],
          one,
          { stdin: CANARY_SECRET },
        );
        expect(configure.code).toBe(0);
        const show = await run(["marketo", "show", "--workspace", workspace], two);
        expect(show.code).toBe(0);
        expect(JSON.parse(show.stdout)).toMatchObject({ clientId: sandbox.clientId, source: "store" });
        const call = await run(
          [
            "call",
            "marketo_api_call",
            "--workspace",
            workspace,
            "--input",
            '{"method":"GET","endpoint":"/rest/v1/lead/1.json"}',
          ],
          two,
        );
        expect(call.code).toBe(0);
        expect(call.stdout + call.stderr + show.stdout).not.toContain(CANARY_SECRET);
      } finally {
        await sandbox.close();
      }
    });
  },
);

describe("npm start (martech-steps start) on a machine with nothing configured", () => {
  let started: Started;
  let url: string;
  beforeAll(async () => {
    started = await startCli(["start", "--port", "0"], {
      MARTECH_STEPS_HOME: await freshHome("martech-start-"),
    });
    url = /MCP server \(Streamable HTTP\): (http:\/\/\S+)/.exec(started.banner)![1]!;
    expect(started.banner).toMatch(/Marketo: sandbox/);
    expect(started.banner).toMatch(/Google Analytics: sandbox/);
  });
  afterAll(() => started.stop());

  it("prints client configurations that load: the Inspector's has a type, Claude Desktop's runs on the sandbox", async () => {
    const snippet = (client: RegExp) => {
      const line = started.banner.split("\n").find((l) => client.test(l));
      return JSON.parse(/: (\{.*\})$/.exec(line ?? "")![1]!);
    };
    expect(snippet(/^ {2}VS Code/)).toEqual({ servers: { "martech-steps": { type: "http", url } } });
    expect(snippet(/^ {2}MCP Inspector/)).toEqual({
      mcpServers: { "martech-steps": { type: "streamable-http", url } },
    });
    const claude = snippet(/^ {2}Claude Desktop/).mcpServers["martech-steps"];
    expect(claude.args).toContain("--sandbox");
    const transport = new StdioClientTransport({
      command: claude.command,
      args: claude.args,
      env: { ...childEnv(), MARTECH_STEPS_HOME: await freshHome() },
      stderr: "ignore",
    });
    const client = new Client({ name: "claude-config", version: "1" });
    await client.connect(transport);
    const leads = (await client.callTool({
      name: "marketo_api_call",
      arguments: { method: "GET", endpoint: "/rest/v1/lead/1.json" },
    })) as CallToolResult;
    expect(leads.isError).toBeFalsy();
    await client.close();
  });

  it("serves all five steps wired to the sandbox", async () => {
    const client = new Client({ name: "start-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "google_analytics_api_call",
      "google_analytics_create_key_events",
      "google_analytics_create_properties",
      "google_analytics_run_reports",
      "marketo_api_call",
    ]);
    const leads = (await client.callTool({
      name: "marketo_api_call",
      arguments: {
        method: "GET",
        endpoint: "/rest/v1/leads.json",
        query_parameters: { filterType: "email", filterValues: "lead1@example.com" },
      },
    })) as CallToolResult;
    expect(leads.isError).toBeFalsy();
    const summaries = (await client.callTool({
      name: "google_analytics_api_call",
      arguments: { method: "GET", endpoint: "v1beta/accountSummaries" },
    })) as CallToolResult;
    expect(summaries.isError).toBeFalsy();
    await client.close();
  });
});
