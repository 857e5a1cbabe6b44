import { readFile } from "node:fs/promises";
import { Command, Option } from "commander";
import { checkCredentialStore } from "../auth/store.js";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import type { RoomCliWords } from "../connections/types.js";
import { isMartechError, ValidationError } from "../errors.js";
import { log, logLevel } from "../log.js";
import { PACKAGE } from "../version.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";
import { addHelpExamples, commanderExitCode } from "./help.js";
import { printJson, readStdin } from "./io.js";
import { closeSandboxSessions, sandboxWiring } from "./lazy-sandbox.js";
import { registerRoomCommands } from "./room-commands.js";
import { sandboxDescription, sandboxPortOptions } from "./sandbox-options.js";
import type { ServeOptions } from "./serve.js";
import { onSignals } from "./signals.js";
import { refuseStoppingSandbox } from "./stopping-sandbox.js";
import { withWorkspace } from "./workspace.js";

// Each command loads what it needs: serving tools over stdio should not pay for loading the emulators,
// the console, the HTTP server or the steps themselves (cold start is measured by the bench).

/** The rooms' words for the help, in registry order. */
const WORDS: RoomCliWords[] = CONNECTION_KINDS.map((kind) => (CONNECTION_ROOMS[kind] as AnyRoom).cli);
const sandboxGives = WORDS.flatMap((words) => (words.sandbox ? [words.sandbox] : []));

const program = new Command()
  .name("martech-steps")
  .description(
    `${WORDS.map((words) => words.name).join(" and ")} tool steps for AI agents: MCP server, catalog and CLI.`,
  )
  .version(PACKAGE.version)
  .showHelpAfterError()
  // Usage errors come back to the catch below, which exits 2 for them (help.ts); before any command
  // is added, so that every command inherits it.
  .exitOverride();

/** The rooms' emulators' port options of `sandbox`. */
const SANDBOX_PORTS = sandboxPortOptions();

/** The commands that open the credential store: theirs is checked before they start. */
const USES_STORE = new Set(["serve", "start", "call"]);

function topCommand(command: Command): string {
  let current = command;
  while (current.parent && current.parent !== program) current = current.parent;
  return current.name();
}

// A malformed MARTECH_STEPS_KEY or MARTECH_STEPS_LOG_LEVEL, or a key file open to others, stops the
// command here with one error line, rather than at the first request of a running server. With --sandbox the user's
// store is not used at all.
program.hook("preAction", async (_program, action) => {
  logLevel(process.env);
  if (USES_STORE.has(topCommand(action)) && !action.opts().sandbox) {
    refuseStoppingSandbox(process.env);
    await checkCredentialStore(process.env);
  }
});

program
  .command("serve")
  .description(
    "Run the MCP server: stdio (default; logs go to stderr) or Streamable HTTP at /mcp with --http.",
  )
  .option("--http", "serve Streamable HTTP instead of stdio")
  .option(
    "--host <host>",
    "interface to bind with --http (default MARTECH_STEPS_HOST, else 127.0.0.1; others need MARTECH_STEPS_API_KEYS)",
  )
  .option("--port <port>", "port with --http (default MARTECH_STEPS_PORT, else 3333; 0 picks a free one)")
  .option("--workspace <name>", "workspace for stdio", DEFAULT_WORKSPACE)
  .option(
    "--sandbox",
    `serve on the embedded sandbox (${["emulators in this process", ...sandboxGives].join(", ")}); nothing real is used`,
  )
  .action(async (options: ServeOptions) => (await import("./serve.js")).serve(options));

program
  .command("start")
  .description(
    "Run the MCP HTTP server and the browser console (prints its login link), on the sandbox for every service that is not configured (npm start).",
  )
  .option("--host <host>", "interface to bind (default MARTECH_STEPS_HOST, else 127.0.0.1)")
  .option("--port <port>", "port (default MARTECH_STEPS_PORT, else 3333; 0 picks a free one)")
  .action(async (options: { host?: string; port?: string }) => {
    await (await import("./start.js")).start(options);
  });

const sandbox = program.command("sandbox").description(sandboxDescription(SANDBOX_PORTS));
// One port option per room with an emulator.
for (const port of SANDBOX_PORTS) sandbox.addOption(port.option);
sandbox
  .option(
    "--detach",
    'run in the background and exit: eval "$(martech-steps sandbox --detach)"; stop with --unset',
  )
  .addOption(
    new Option(
      "--unset",
      'stop the sandbox of this shell (waiting until it has exited) and print the line that undoes its exports: eval "$(martech-steps sandbox --unset)"',
    ).conflicts(["detach", ...SANDBOX_PORTS.map((port) => port.attribute)]),
  )
  .addOption(new Option("--report-to-parent").hideHelp())
  .action(async (options) => (await import("./sandbox.js")).runSandbox(options));

program
  .command("console-link")
  .description(
    "Print a new one-time login link of the console that start is running (no restart; the server must be on loopback).",
  )
  .option("--port <port>", "the console's port, when several are running")
  .option("--workspace <name>", "the workspace to log in to", DEFAULT_WORKSPACE)
  .action(async (options: { port?: string; workspace?: string }) => {
    const { consoleLink } = await import("./console-link.js");
    process.stdout.write(`${await consoleLink(process.env, options)}\n`);
  });

program
  .command("search")
  .description('Search the tool step catalog, e.g. search "marketing automation".')
  .argument("<words...>", "search words")
  .option("--json", "print JSON")
  .action(async (words: string[], options: { json?: boolean }) => {
    const { searchToolSteps } = await import("../tools/registry.js");
    const hits = searchToolSteps(words.join(" "));
    if (options.json) return printJson(hits);
    if (hits.length === 0) process.stdout.write("No tool step matches.\n");
    for (const hit of hits) process.stdout.write(`${hit.id}\t${hit.title}\t(${hit.category})\n`);
  });

program
  .command("manifest")
  .description("Print manifest.json as generated from the registry.")
  .action(async () => printJson((await import("../manifest.js")).buildManifest()));

/** `--input @file`: a file that cannot be read is invalid input (exit 2), named, with no stack. */
async function readInputFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ValidationError("--input", `the file ${path} cannot be read (${code}).`, {
      hint: "Give JSON text, @ followed by the path of a JSON file, or - to read stdin.",
    });
  }
}

const call = program
  .command("call")
  .description("Run one tool step and print its result as JSON.")
  .argument("<step-id>", `tool step id, e.g. ${WORDS.find((words) => words.step)?.step}`)
  // Required, but checked in the action: commander checks required options first, so a misspelt
  // --inptu or a missing step id would be reported as a missing --input.
  .option("--input <json>", "input as JSON, @file to read a file, or - to read stdin (required)")
  .option("--workspace <name>", "workspace", DEFAULT_WORKSPACE)
  .option("--sandbox", "run on the embedded sandbox, started for this call; nothing real is used")
  .action(
    async (
      id: string,
      options: { input?: string; workspace?: string; sandbox?: boolean },
      command: Command,
    ) => {
      if (options.input === undefined) {
        command.error("error: required option '--input <json>' not specified", {
          code: "commander.missingMandatoryOptionValue",
        });
      }
      const text =
        options.input === "-"
          ? await readStdin()
          : options.input.startsWith("@")
            ? await readInputFile(options.input.slice(1))
            : options.input;
      let input: unknown;
      try {
        input = JSON.parse(text);
      } catch {
        throw new ValidationError("--input", "it is not valid JSON.", {
          hint: `Example: --input '{"method":"GET"}'.`,
        });
      }
      const sandbox = options.sandbox
        ? await (await sandboxWiring()).startSandboxSession(options.workspace)
        : undefined;
      await withWorkspace(
        options.workspace,
        async (workspace) => {
          const controller = new AbortController();
          onSignals(["SIGINT"], () => controller.abort());
          const context = await workspace.toolContext({
            signal: controller.signal,
            progress: (p) => process.stderr.write(`… ${p.message ?? p.progress}\n`),
          });
          const { runToolStep } = await import("../tools/run.js");
          const result = await runToolStep(id, input, context);
          process.stderr.write(`${result.summary}\n`);
          printJson(result.data);
        },
        sandbox?.workspace,
      ).finally(() => sandbox?.close());
    },
  );

// The connection rooms' commands (configure a service, connect its accounts), in registry order.
for (const name of registerRoomCommands(program)) USES_STORE.add(name);
addHelpExamples(program, call);

program.parseAsync(process.argv).catch(async (error: unknown) => {
  // A failed command exits at once: nothing it started may keep the process alive.
  await closeSandboxSessions();
  const code = failure(error);
  process.exitCode = code;
  // Redis clients reconnect for ever: whichever part opened one (the shared state, the store, kept
  // results), a failed command closes it. Loaded only here: a command that never used Redis has none.
  await (await import("../state/ioredis.js")).closeOpenRedisClients();
  exitSoon(code);
});

/** Says why a command failed (one `error:` line), and the exit code: 2 for a usage error or a refused input, else 1. */
function failure(error: unknown): number {
  // Commander has already printed the usage error (or the help, or the version).
  const usage = commanderExitCode(error);
  if (usage !== undefined) return usage;
  if (isMartechError(error)) {
    process.stderr.write(`error: ${error.message}\n`);
    return error.code === "invalid_input" ? 2 : 1;
  }
  log.error({ err: error }, "unexpected failure");
  process.stderr.write("error: unexpected failure (details above).\n");
  return 1;
}

/**
 * What a failed command opened is closed above and where it was opened; should anything still hold the
 * process (a handle nobody closed), it exits after a moment all the same, naming what was left open in the
 * debug log (tests run at debug level and fail on that line). The timer itself holds nothing.
 */
function exitSoon(code: number): void {
  setTimeout(() => {
    log.debug({ open: process.getActiveResourcesInfo() }, "a failed command left resources open");
    process.exit(code);
  }, 1_000).unref();
}
