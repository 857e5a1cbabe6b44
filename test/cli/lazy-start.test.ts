import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { PACKAGE } from "../../src/version.js";
import { childEnv } from "../helpers/child-env.js";
import { tempDir } from "../helpers/temp.js";
import { toolsFromZod } from "../helpers/zod-tools.js";

const ROOT = new URL("../../", import.meta.url).pathname;

let dir: string;
beforeAll(async () => {
  dir = await tempDir("lazy-start-");
  // A resolve hook (it runs on the loader thread) that names every module the process loads on stderr.
  await writeFile(
    join(dir, "hook.mjs"),
    `export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      process.stderr.write("LOADED " + result.url + "\\n");
      return result;
    }`,
  );
  // CommonJS packages (pino) require their files without the ESM loader: the
  // CommonJS loader names them too.
  await writeFile(
    join(dir, "register.mjs"),
    `import Module, { register } from "node:module";
    import { pathToFileURL } from "node:url";
    register(${JSON.stringify(`file://${join(dir, "hook.mjs")}`)});
    const load = Module._load;
    Module._load = function (request, parent, isMain) {
      const file = Module._resolveFilename(request, parent, isMain);
      process.stderr.write("LOADED " + (file.startsWith("/") ? pathToFileURL(file).href : file) + "\\n");
      return load.apply(this, arguments);
    };`,
  );
});

interface StartUp {
  /** The modules loaded up to the answer to the first tools/list. */
  loaded: string[];
  /** The same, with each file of ours (a chunk of the CLI's bundle) replaced by the src/ files its map names. */
  sources: string[];
  /** The answers to initialize and tools/list, as written on stdout. */
  answers: string[];
}

/** `martech-steps serve` (stdio), sent initialize, initialized and tools/list at once, as a client does. */
function startUp(): Promise<StartUp> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", join(dir, "register.mjs"), `${ROOT}dist/cli/main.js`, "serve"],
      {
        env: { ...childEnv(), MARTECH_STEPS_HOME: dir },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    const answered = () => out.split("\n").some((line) => line.startsWith("{") && JSON.parse(line).id === 2);
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      // Closing stdin ends the server the way a client does; a kill here would cut off the lines the
      // loader thread has not yet handed to stderr (Node 24 forwards them asynchronously).
      if (out.endsWith("\n") && answered()) child.stdin.end();
    });
    child.on("error", reject);
    // "close", not "exit": it comes once the process has exited and stdout and stderr have ended, so
    // every LOADED line written before the exit has been read.
    child.on("close", () => {
      if (!answered()) reject(new Error(`no tools/list answer: ${err.slice(-2000)}`));
      else {
        const loaded = [...new Set([...err.matchAll(/^LOADED (.+)$/gm)].map((m) => m[1] ?? ""))];
        resolve({ loaded, sources: loaded.flatMap(sourcesOf), answers: out.split("\n").filter(Boolean) });
      }
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  });
}

/** A file of ours (under the package root, not in node_modules), as the loader names it. */
function ours(url: string): boolean {
  return url.startsWith(pathToFileURL(ROOT).href) && !url.includes("/node_modules/");
}

/**
 * The src/ files a loaded file of ours was built from, as its source map names them: a chunk of the
 * CLI's bundle (scripts/cli.vite.config.ts) holds many, a file of tsc's output one. A chunk without a
 * map only re-exports another chunk (a facade), and names none. Anything else is itself.
 */
function sourcesOf(url: string): string[] {
  if (!ours(url)) return [url];
  const file = fileURLToPath(url);
  if (!existsSync(`${file}.map`)) return [];
  const map = JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] };
  return map.sources.map((source) => pathToFileURL(join(dirname(file), source)).href);
}

let started: Promise<StartUp> | undefined;
const startedOnce = () => {
  started ??= startUp();
  return started;
};

// Cold start over stdio (the bench's row) pays only for what serving tools needs: the emulators, the
// console, the HTTP server, the steps (their zod schemas, handlers and catalog) and the libraries of
// later requests load when first used; the tool list comes from JSON Schemas made at build time.
describe("serve over stdio loads only what serving tools needs", () => {
  it("no emulator, console, HTTP server, step, connector, zod schema of ours, logger, HTTP client, CSV or chart library before the tools are listed", {
    timeout: 30_000,
  }, async () => {
    const { sources } = await startedOnce();
    expect(sources.some((url) => url.endsWith("/src/tools/listing.ts"))).toBe(true);
    const early = sources.filter((url) =>
      [
        "/src/sandbox/",
        "/src/console/",
        "/src/host/http.ts",
        "/src/host/http-app.ts",
        "/src/web/",
        // The sandbox command and its wiring (sandbox-options.ts, the command's declared options, is read to
        // register the command: it imports commander and the registry, no emulator).
        "/src/cli/sandbox.ts",
        "/src/cli/sandbox-wiring.ts",
        "/src/cli/start.ts",
        "/node_modules/csv-parse/",
        "/node_modules/csv-stringify/",
        "/node_modules/echarts/",
        "/node_modules/hono/",
        "/src/tools/registry.ts",
        "/src/tools/run.ts",
        "/src/tools/marketo-api-call.ts",
        "/src/tools/google-analytics-",
        "/src/schemas/",
        "/src/manifest.ts",
        "/src/mcp/tool-call.ts",
        "/src/connectors/marketo/connector.ts",
        "/src/connectors/google/connector.ts",
        "/node_modules/minisearch/",
        "/node_modules/pino/",
        "/node_modules/ioredis/",
        "node:http",
        "node:readline",
        "/src/auth/marketo-token.ts",
      ].some((part) => url.includes(part)),
    );
    expect(early).toEqual([]);
  });
});

// The tool list is served from JSON Schemas made at build time (tool-schemas/): the
// answer a client reads is, byte for byte, the one made from the steps' zod schemas.
describe("serve over stdio answers as the registry's zod schemas say", () => {
  it("initialize names the server and its capabilities; tools/list is the zod-made list", {
    timeout: 30_000,
  }, async () => {
    const [initialize, list] = (await startedOnce()).answers;
    expect(JSON.parse(initialize ?? "{}")).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: false },
          resources: { listChanged: false },
          logging: {},
        },
        serverInfo: {
          name: PACKAGE.name,
          version: PACKAGE.version,
          title: "Marketo and Google Analytics tool steps",
        },
      },
    });
    const context = { accounts: [] };
    const fromZod = toolsFromZod(context);
    expect(JSON.stringify(JSON.parse(list ?? "{}").result.tools)).toBe(JSON.stringify(fromZod));
  });
});

/**
 * Resolving, reading and linking each file is most of what a start costs beyond the SDK's own (the
 * bench's cold-start row): unbundled, `serve` loaded 78 files of ours before listing its tools; the
 * CLI's bundle (scripts/cli.vite.config.ts) loads 7. The bound keeps that from regrowing unnoticed, a
 * chunk at a time: a new static import on the start path lands in an existing chunk, a new lazy one
 * stays off the start.
 */
const MAX_OWN_FILES = 10;

describe("serve over stdio loads few files of ours", () => {
  it(`at most ${MAX_OWN_FILES} files of the package before the tools are listed, their maps naming files of src/`, {
    timeout: 30_000,
  }, async () => {
    const { loaded } = await startedOnce();
    const own = loaded.filter(ours);
    expect(own.length, own.join("\n")).toBeLessThanOrEqual(MAX_OWN_FILES);
    // The entry is the bundle's (its map names src/cli/main.ts) and the step list's module is inside a chunk.
    expect(own).toContain(pathToFileURL(join(ROOT, "dist/cli/main.js")).href);
    expect(sourcesOf(pathToFileURL(join(ROOT, "dist/cli/main.js")).href)).toEqual([
      pathToFileURL(join(ROOT, "src/cli/main.ts")).href,
    ]);
    for (const url of own.flatMap(sourcesOf)) expect(existsSync(fileURLToPath(url)), url).toBe(true);
  });
});
