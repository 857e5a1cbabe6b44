import { readFileSync } from "node:fs";
import { type Command, CommanderError } from "commander";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import type { RoomCliWords } from "../connections/types.js";
import { packageFile } from "../version.js";

/**
 * Usage errors (an unknown command or option, a missing argument) exit 2, as invalid input does
 * elsewhere in the CLI and as most Unix tools do (https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html);
 * commander exits 1 for them unless told otherwise (https://github.com/tj/commander.js#override-exit-and-output-handling).
 * Help and version exit 0. Returns undefined for errors that are not commander's.
 */
export function commanderExitCode(error: unknown): number | undefined {
  if (!(error instanceof CommanderError)) return undefined;
  return error.exitCode === 0 ? 0 : 2;
}

/** The rooms' lines of one kind of example, in registry order. */
function roomLines(part: "examples" | "callExamples"): string[] {
  return CONNECTION_KINDS.flatMap((kind) => {
    const words: RoomCliWords = (CONNECTION_ROOMS[kind] as AnyRoom).cli;
    return words[part] ?? [];
  });
}

const EXAMPLES = [
  "",
  "Examples:",
  "  $ martech-steps start                                   # console + MCP server on http://127.0.0.1:3333/mcp",
  "  $ martech-steps serve --sandbox                         # MCP over stdio on the embedded sandbox",
  "  $ martech-steps search marketing automation",
  ...roomLines("examples"),
  `  $ eval "$(martech-steps sandbox --detach)"              # the emulators in the background`,
  `  $ eval "$(martech-steps sandbox --unset)"               # stop them and restore your shell`,
  "  $ martech-steps call --help                             # the step ids and an example per command",
].join("\n");

const CALL_EXAMPLES = ["", "Examples:", ...roomLines("callExamples")].join("\n");

/**
 * The step ids `call` takes, from manifest.json (generated from the registry and shipped beside dist/):
 * reading it costs nothing at start, where loading the registry would load every step.
 */
function stepList(): string {
  const manifest = JSON.parse(readFileSync(packageFile("manifest.json"), "utf8")) as {
    steps: { id: string; title: string }[];
  };
  const width = Math.max(...manifest.steps.map((step) => step.id.length));
  return manifest.steps.map((step) => `  ${step.id.padEnd(width)}  ${step.title}`).join("\n");
}

/** Adds the examples to the top-level help, and the step ids and examples to `call --help`. */
export function addHelpExamples(program: Command, call: Command): void {
  program.addHelpText("after", EXAMPLES);
  call.addHelpText("after", () => `\nTool steps (<step-id>):\n${stepList()}\n${CALL_EXAMPLES}`);
}
