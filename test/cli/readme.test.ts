/**
 * The examples of README.md and docs/*.md run as written, and the CLI reference (docs/cli.md) says what
 * `--help` says. Every `sh` and `ts` block, in any of those files, carries a marker comment on the line before it: `<!-- example: run ... -->` (run here,
 * against the sandbox, with the built CLI and the built package) or `<!-- example: not run (why) -->`.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { childEnv } from "../helpers/child-env.js";
import { BIN, freshHome, run } from "../helpers/cli.js";
import { type Block, codeBlocks, type Doc, ROOT, readDocs, section } from "../helpers/markdown.js";

const TSX = join(ROOT, "node_modules", ".bin", "tsx");
/** The placeholder the README's client configurations use for the built CLI. */
const PLACEHOLDER_BIN = "/absolute/path/to/martech-steps/dist/cli/main.js";
/** The front door's length: what this is, the two commands, the steps, connecting a client, links. */
const README_MAX_LINES = 300;

/** A block with the file it stands in, for messages that say where to look. */
interface Located extends Block {
  doc: Doc;
}

function located(docs: Doc[]): Located[] {
  return docs.flatMap((doc) => codeBlocks(doc.text).map((block) => ({ ...block, doc })));
}

function docAt(docs: Doc[], path: string): Doc {
  const doc = docs.find((d) => d.path === path);
  if (!doc) throw new Error(`${path} is missing`);
  return doc;
}

/** A folder whose PATH has `martech-steps` (the built CLI), as `npm link` would give. */
async function shellWithCli(): Promise<{ cwd: string; env: NodeJS.ProcessEnv }> {
  const cwd = await freshHome("martech-readme-");
  await mkdir(join(cwd, "bin"));
  const shim = join(cwd, "bin", "martech-steps");
  await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(shim, 0o755);
  const home = join(cwd, "home");
  return { cwd, env: { PATH: `${join(cwd, "bin")}:${process.env.PATH}`, MARTECH_STEPS_HOME: home } };
}

/** Runs a script as `bash -e`; a sandbox it left running in the background is stopped on exit. */
function bash(script: string, shell: { cwd: string; env: NodeJS.ProcessEnv }) {
  const cleanup = `trap '[ -z "$MARTECH_STEPS_SANDBOX_PID" ] || kill "$MARTECH_STEPS_SANDBOX_PID" 2>/dev/null || true' EXIT`;
  return run(["-e", "-o", "pipefail", "-c", `cd "${shell.cwd}"\n${cleanup}\n${script}`], shell.env, {
    command: ["bash"],
    timeoutMs: 90_000,
  });
}

describe("README.md and docs/*.md", () => {
  let docs: Doc[];
  let blocks: Located[];
  beforeAll(async () => {
    docs = await readDocs();
    blocks = located(docs);
  });

  it("keeps the README a front door of at most 300 lines, the rest in docs/", () => {
    const readme = docAt(docs, "README.md");
    expect(readme.text.trimEnd().split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
    expect(docs.length).toBeGreaterThan(5);
  });

  it("never point at files a user of the package does not have", () => {
    const pointing = docs.filter((doc) => /\.\.\/shared|shared\/spec/.test(doc.text)).map((doc) => doc.path);
    expect(pointing).toEqual([]);
  });

  it("mark every sh and ts block as run or not run (with why)", () => {
    const unmarked = blocks
      .filter((b) => b.lang === "sh" || b.lang === "ts")
      .filter((b) => !b.marker || !/^(run\b|not run \(.+\)$)/.test(b.marker));
    expect(unmarked.map((b) => `${b.doc.path} line ${b.line}`)).toEqual([]);
    expect(blocks.filter((b) => b.marker?.startsWith("run")).length).toBeGreaterThanOrEqual(3);
  });

  it("runs each sh example marked run, as written, with the built CLI on PATH", async () => {
    for (const block of blocks.filter((b) => b.lang === "sh" && b.marker?.startsWith("run"))) {
      const shell = await shellWithCli();
      const result = await bash(block.code, shell);
      expect(result.code, `${block.doc.path} line ${block.line}:\n${result.stderr}`).toBe(0);
      // The user's store stays empty: examples run on the sandbox, which keeps its own.
      expect(await readdir(shell.cwd)).not.toContain("home");
    }
  }, 120_000);

  it("runs the ts example on the sandbox, importing the built package by its name", async () => {
    const examples = blocks.filter((b) => b.lang === "ts" && b.marker?.startsWith("run"));
    expect(examples.length).toBeGreaterThan(0);
    for (const block of examples) {
      const shell = await shellWithCli();
      await mkdir(join(shell.cwd, "node_modules"));
      await symlink(ROOT, join(shell.cwd, "node_modules", "martech-steps"));
      // As docs/plugin.md says: tsx installed beside the package, the file saved under the name the
      // page gives it in a CommonJS project (what `npm init -y` makes), the sandbox started in the
      // background, then the file run with tsx.
      const plugin = section(block.doc, "Use as a plugin package");
      expect(plugin).toMatch(/`npm install \/path\/to\/martech-steps tsx`/);
      const file = /`npx tsx (\S+)`/.exec(plugin)?.[1];
      expect(file).toBeDefined();
      await writeFile(join(shell.cwd, "package.json"), '{ "name": "example", "type": "commonjs" }\n');
      await writeFile(join(shell.cwd, file!), block.code);
      const result = await bash(`eval "$(martech-steps sandbox --detach)"\n"${TSX}" ${file}`, shell);
      expect(result.code, `${block.doc.path} line ${block.line}:\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/^5 marketo_api_call$/m);
      expect(result.stdout).toMatch(/1 record/);
    }
  }, 120_000);

  it("gives the MCP Inspector a type on every entry, and its stdio configurations start a working server", async () => {
    const configs = blocks
      .filter((b) => b.lang === "json" && b.marker === "stdio config")
      .map((b) => JSON.parse(b.code) as { mcpServers: Record<string, Record<string, unknown>> });
    const inspector = configs.filter((c) => Object.values(c.mcpServers).some((entry) => "type" in entry));
    expect(inspector.length).toBeGreaterThan(0);
    for (const config of inspector) {
      for (const entry of Object.values(config.mcpServers)) {
        // The Inspector reads a missing or unknown type as stdio, so an HTTP entry must say so.
        if (entry.type === "stdio") expect(entry.command).toEqual(expect.any(String));
        else
          expect(entry).toMatchObject({
            type: expect.stringMatching(/^(streamable-http|http)$/),
            url: expect.any(String),
          });
      }
    }
    const stdio = configs.flatMap((c) => Object.values(c.mcpServers)).filter((entry) => "command" in entry);
    expect(stdio.length).toBeGreaterThanOrEqual(3);
    expect(stdio.some((entry) => "MARKETO_CLIENT_ID" in ((entry.env as object | undefined) ?? {}))).toBe(
      true,
    );
    for (const entry of stdio) {
      const args = (entry.args as string[]).map((arg) => (arg === PLACEHOLDER_BIN ? BIN : arg));
      expect(args).toContain(BIN);
      const transport = new StdioClientTransport({
        command: entry.command as string,
        args,
        // With the entry's own `env` block (MARKETO_* for the configured connection), as the client passes it.
        env: {
          ...childEnv(),
          MARTECH_STEPS_HOME: await freshHome(),
          ...(entry.env as Record<string, string> | undefined),
        },
        stderr: "ignore",
      });
      const client = new Client({ name: "readme-config", version: "1" });
      await client.connect(transport);
      expect((await client.listTools()).tools).toHaveLength(5);
      await client.close();
    }
  }, 120_000);

  it("documents every environment variable the product reads", async () => {
    const table = section(docAt(docs, "docs/configuration.md"), "Configuration");
    const names = new Set<string>();
    const read = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== "sandbox") await read(path);
          continue;
        }
        const text = await readFile(path, "utf8");
        for (const m of text.matchAll(/env[\w#.]*\.([A-Z][A-Z0-9_]{3,})\b/g)) names.add(m[1]!);
        for (const m of text.matchAll(/"((?:MARTECH_STEPS|MARKETO|GOOGLE_OAUTH|GA4)_[A-Z0-9_]+)"/g))
          names.add(m[1]!);
      }
    };
    await read(join(ROOT, "src"));
    expect(names.size).toBeGreaterThan(15);
    expect([...names].filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
  });
});

interface HelpEntry {
  usage: string;
  options: string[];
}

const execCli = promisify(execFile);

/** Every command of `--help` (groups such as `marketo` expanded into their subcommands). */
async function helpEntries(path: string[] = []): Promise<HelpEntry[]> {
  const { stdout } = await execCli(process.execPath, [BIN, ...path, "--help"], {
    env: childEnv(),
  });
  const part = (name: string) => stdout.split(`\n${name}:\n`)[1]?.split("\n\n")[0] ?? "";
  const commands = [...part("Commands").matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((m) => m[1]!)
    .filter((c) => c !== "help");
  const options = [...part("Options").matchAll(/^ {2}(?:-\w, )?(--[\w-]+(?: <[^>]+>)?)/gm)]
    .map((m) => m[1]!)
    .filter((o) => o !== "--help");
  const usage = /^Usage: (.*)$/m
    .exec(stdout)![1]!
    .replace(/ \[options\]| \[command\]/g, "")
    .trim();
  if (path.length > 0 && commands.length > 0) {
    // A group: its own only option is --help; its subcommands are the entries.
    const nested = await Promise.all(commands.map((c) => helpEntries([...path, c])));
    return nested.flat();
  }
  const nested = path.length === 0 ? await Promise.all(commands.map((c) => helpEntries([c]))) : [];
  return [{ usage, options: options.sort() }, ...nested.flat()];
}

describe("the CLI reference (docs/cli.md) and --help", () => {
  it("list the same commands, each with the same options", async () => {
    const cli = docAt(await readDocs(), "docs/cli.md");
    const rows = [...section(cli, "CLI").matchAll(/^\| `(martech-steps[^`]*)` \|([^|]*)\|/gm)].map((m) => ({
      usage: m[1]!,
      options: [...m[2]!.matchAll(/`(--[^`]+)`/g)].map((o) => o[1]!).sort(),
    }));
    const byUsage = (entries: HelpEntry[]) => Object.fromEntries(entries.map((e) => [e.usage, e.options]));
    expect(byUsage(rows)).toEqual(byUsage(await helpEntries()));
  }, 120_000);
});
