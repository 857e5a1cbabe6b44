import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxEnv, startGoogleSandbox } from "../../src/sandbox/index.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../src/sandbox/marketo/index.js";
import { childEnv } from "../helpers/child-env.js";
import { BIN, freshHome, type Run, run, stopChild } from "../helpers/cli.js";
import { CANARY_SECRET } from "../helpers/fixtures.js";

const MALFORMED_KEY = "this-is-not-a-32-byte-key-but-a-secret";

/** One `error:` line, no stack, nothing secret. */
function expectOneErrorLine(r: Run, pattern: RegExp): void {
  expect(r.code).toBe(1);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout + r.stderr).not.toContain(CANARY_SECRET);
  expect(r.stdout + r.stderr).not.toContain(MALFORMED_KEY);
}

const home = () => freshHome("martech-store-cli-");

describe("the CLI refuses a bad store setting at start-up, with one error line", () => {
  const ACCEPTED = /MARTECH_STEPS_KEY is not a 32-byte key .*64 hex characters or 44 base64 characters/;

  it.each([
    [["marketo", "show"]],
    [["accounts", "list"]],
    [["call", "marketo_api_call", "--input", '{"method":"GET","endpoint":"/rest/v1/lists.json"}']],
    [["serve"]],
    [["serve", "--http", "--port", "0"]],
    [["start", "--port", "0"]],
  ])("%j with a malformed MARTECH_STEPS_KEY", async (args) => {
    const r = await run(args, { MARTECH_STEPS_HOME: await home(), MARTECH_STEPS_KEY: MALFORMED_KEY });
    expectOneErrorLine(r, ACCEPTED);
  });

  it("with the store in Redis too, before connecting to it", async () => {
    const r = await run(["serve", "--http", "--port", "0"], {
      MARTECH_STEPS_HOME: await home(),
      MARTECH_STEPS_STORE: "redis",
      REDIS_URL: "redis://127.0.0.1:1",
      MARTECH_STEPS_KEY: MALFORMED_KEY,
    });
    expectOneErrorLine(r, ACCEPTED);
  });

  it("refuses a key file other users can read, and says how to fix it", async () => {
    const dir = await home();
    const env = { MARTECH_STEPS_HOME: dir };
    expect((await run(["accounts", "client", "--client-id", "c"], env, { stdin: "s" })).code).toBe(0);
    await chmod(join(dir, "key"), 0o644);
    const keyFile = join(dir, "key");
    for (const args of [
      ["accounts", "list"],
      ["serve", "--http", "--port", "0"],
    ]) {
      expectOneErrorLine(
        await run(args, env),
        new RegExp(`Permissions 0644 for the key file ${keyFile} are too open.*Run: chmod 600 ${keyFile}$`),
      );
    }
  });

  it("warns once about a credential folder open to others, and goes on", async () => {
    const dir = await home();
    await chmod(dir, 0o755);
    const r = await run(
      ["accounts", "client", "--client-id", "c"],
      { MARTECH_STEPS_HOME: dir },
      { stdin: "s" },
    );
    expect(r.code).toBe(0);
    const warnings = r.stderr.split("\n").filter((line) => line.startsWith("warning: "));
    expect(warnings).toEqual([
      `warning: the credential folder ${dir} is open to other users (permissions 0755); run: chmod 700 ${dir}`,
    ]);
  });
});

describe("the CLI on a store it cannot open", () => {
  const configure = (env: NodeJS.ProcessEnv, ...extra: string[]) =>
    run(
      [
        "marketo",
        "configure",
        "--no-verify",
        "--client-id",
        "id-1",
        "--endpoint",
        "https://123-abc-456.mktorest.com",
        ...extra,
      ],
      env,
      { stdin: CANARY_SECRET },
    );

  it("a damaged store is reported and left alone; remove and configure --force start over, keeping it aside", async () => {
    const dir = await home();
    const env = { MARTECH_STEPS_HOME: dir };
    expect((await configure(env)).code).toBe(0);
    const file = join(dir, "workspaces", "default.json");
    const original = await readFile(file, "utf8");
    const damaged = original.slice(0, original.length - 30);
    await writeFile(file, damaged);

    const damagedLine =
      /is damaged \(it is not valid JSON \(truncated\?\)\)\. Start over with martech-steps marketo configure --force \(or marketo remove\)/;
    expectOneErrorLine(await run(["marketo", "show"], env), damagedLine);
    expectOneErrorLine(await configure(env), damagedLine);
    expect(await readFile(file, "utf8")).toBe(damaged);

    const removed = await run(["marketo", "remove"], env);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toMatch(
      /warning: the credential store of workspace "default" could not be opened \(it is not valid JSON \(truncated\?\)\); it is kept at \S+corrupt-\S+\. The workspace starts over .* the other connections it held \(Marketo, Google accounts, OAuth client\) are lost/,
    );
    expect(removed.stderr).toMatch(/Marketo connection removed/);
    const kept = join(
      dir,
      "workspaces",
      (await readdir(join(dir, "workspaces"))).find((f) => f.includes("corrupt"))!,
    );
    expect(removed.stderr).toContain(kept);
    expect(await readFile(kept, "utf8")).toBe(damaged);
    expect((await stat(kept)).mode & 0o777).toBe(0o600);
    expect(JSON.parse((await run(["marketo", "show"], env)).stdout)).toMatchObject({ configured: false });

    await writeFile(file, "{not json");
    const forced = await configure(env, "--force");
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/it is kept at \S+corrupt-/);
    expect(JSON.parse((await run(["marketo", "show"], env)).stdout)).toMatchObject({ clientId: "id-1" });
  });

  it("another key: refused with the key source named, the file untouched; --force and remove start over", async () => {
    const dir = await home();
    const one = { MARTECH_STEPS_HOME: dir, MARTECH_STEPS_KEY: randomBytes(32).toString("hex") };
    const two = { MARTECH_STEPS_HOME: dir, MARTECH_STEPS_KEY: randomBytes(32).toString("base64") };
    expect((await configure(one)).code).toBe(0);
    expect((await run(["accounts", "client", "--client-id", "g"], one, { stdin: "gs" })).code).toBe(0);
    const file = join(dir, "workspaces", "default.json");
    const before = await readFile(file, "utf8");

    const wrongKey =
      /cannot be opened with the key in use \(MARTECH_STEPS_KEY\): it was written with another key\. Restore the key it was written with, or start over with martech-steps marketo configure --force/;
    expectOneErrorLine(await run(["marketo", "show"], two), wrongKey);
    expectOneErrorLine(await configure(two), wrongKey);
    expect(await readFile(file, "utf8")).toBe(before);

    const forced = await configure(two, "--force");
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/it is kept at \S+other-key-\S+\. The workspace starts over/);
    expect(forced.stderr).toMatch(/To undo, restore the key it was written with and move/);
    expect(forced.stdout + forced.stderr).not.toContain(CANARY_SECRET);
    expect(JSON.parse((await run(["marketo", "show"], two)).stdout)).toMatchObject({ clientId: "id-1" });
    const kept = (await readdir(join(dir, "workspaces"))).find((f) => f.includes("other-key"))!;
    expect(await readFile(join(dir, "workspaces", kept), "utf8")).toBe(before);

    // accounts remove, on a store the key in use cannot open: its labels cannot be read, so a typo
    // must not wipe the workspace; only --force forgets it (not revoked) and keeps the store aside.
    const three = { MARTECH_STEPS_HOME: dir, MARTECH_STEPS_KEY: randomBytes(32).toString("hex") };
    const asked = await run(["accounts", "remove", "ana"], three);
    expectOneErrorLine(
      asked,
      /whether "ana" is connected cannot be checked: nothing was removed\..* --force/,
    );
    expect((await readdir(join(dir, "workspaces"))).filter((f) => f.includes("other-key"))).toHaveLength(1);
    const removed = await run(["accounts", "remove", "ana", "--force"], three);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toMatch(/could not be opened .*it is kept at \S+other-key-/);
    expect(removed.stderr).toMatch(/Removed "ana" without revoking it \(the store could not be opened/);
  });
});

describe("a running serve --http whose store goes bad", () => {
  let sandbox: MarketoSandbox;
  let child: ChildProcess;
  let dir: string;
  let client: Client;
  let serverErr = "";
  beforeAll(async () => {
    sandbox = await startMarketoSandbox({ clientSecret: CANARY_SECRET });
    dir = await home();
    const env = { ...childEnv(), MARTECH_STEPS_HOME: dir };
    const configured = await run(
      ["marketo", "configure", "--client-id", sandbox.clientId, "--endpoint", sandbox.restEndpoint],
      env,
      { stdin: CANARY_SECRET },
    );
    expect(configured.code).toBe(0);
    child = spawn(process.execPath, [BIN, "serve", "--http", "--port", "0"], { env });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed no URL: ${serverErr}`)), 15_000);
      child.stderr?.on("data", (c) => {
        serverErr += c;
        const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(serverErr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    client = new Client({ name: "store-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  });
  afterAll(async () => {
    await client?.close();
    if (child) await stopChild(child);
    await sandbox?.close();
  });

  const listLists = async () =>
    (await client.callTool({
      name: "marketo_api_call",
      arguments: { method: "GET", endpoint: "/rest/v1/lists.json" },
    })) as CallToolResult;
  const text = (result: CallToolResult) => JSON.stringify(result.content);

  it("answers each request with a typed error and keeps serving", async () => {
    const keyFile = join(dir, "key");
    await chmod(keyFile, 0o644);
    const refused = await listLists();
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(`chmod 600 ${keyFile}`);

    await chmod(keyFile, 0o600);
    expect((await listLists()).isError).toBeFalsy();

    await writeFile(join(dir, "workspaces", "default.json"), "truncated{");
    const damaged = await listLists();
    expect(damaged.isError).toBe(true);
    expect(text(damaged)).toMatch(/is damaged \(it is not valid JSON/);
    expect((await listLists()).isError).toBe(true);

    // An admin starts over from the CLI while the server runs; its next request uses the new store.
    const forced = await run(
      [
        "marketo",
        "configure",
        "--force",
        "--client-id",
        sandbox.clientId,
        "--endpoint",
        sandbox.restEndpoint,
      ],
      { MARTECH_STEPS_HOME: dir },
      { stdin: CANARY_SECRET },
    );
    expect(forced.code).toBe(0);
    expect((await listLists()).isError).toBeFalsy();

    expect(child.exitCode).toBeNull();
    expect(serverErr).not.toMatch(/\n\s+at /);
    expect(serverErr).not.toMatch(/unhandled|unexpected failure/i);
    expect(text(refused) + text(damaged) + serverErr).not.toContain(CANARY_SECRET);
  });
});

describe("a stored Google account is never sent to another service", () => {
  it("an account imported from one Google sandbox is refused while the variables point at another", async () => {
    const first = await startGoogleSandbox();
    const second = await startGoogleSandbox();
    try {
      const dir = await home();
      await writeFile(join(dir, "sb.token"), first.issueRefreshToken("analyst@sandbox.example"), {
        mode: 0o600,
      });
      const imported = await run(
        ["accounts", "import", "--label", "sandbox", "--refresh-token-file", join(dir, "sb.token")],
        { ...sandboxEnv({ google: first }), MARTECH_STEPS_HOME: dir },
      );
      expect(imported.code).toBe(0);

      const elsewhere = { ...sandboxEnv({ google: second }), MARTECH_STEPS_HOME: dir };
      const call = await run(
        [
          "call",
          "google_analytics_api_call",
          "--input",
          '{"method":"GET","endpoint":"v1beta/accountSummaries"}',
        ],
        elsewhere,
      );
      expectOneErrorLine(
        call,
        new RegExp(
          `Google account "sandbox" belongs to another service .*GOOGLE_OAUTH_URL was ${first.oauthUrl} when it was connected and is ${second.oauthUrl} now`,
        ),
      );
      const removed = await run(["accounts", "remove", "sandbox"], elsewhere);
      expect(removed.code).toBe(0);
      expect(removed.stderr).toMatch(/Removed "sandbox" without revoking it \(not sent for revocation: /);
      expect(second.stats()).toMatchObject({ tokenRequests: 0, refreshRequests: 0, revocations: 0 });
    } finally {
      await first.close();
      await second.close();
    }
  });
});
