/**
 * Runs a connection room's subcommand (registered by room-commands.ts) on a workspace, loaded only when one
 * runs: the room's action gets the workspace's side of its connection and the terminal, and names no
 * module of the CLI.
 */
import { spawn } from "node:child_process";
import type { ConnectionKind } from "../connections/registry.js";
import type {
  RoomCommandContext,
  RoomCommandOptions,
  RoomSubcommand,
  RoomTerminal,
} from "../connections/types.js";
import { DEFAULT_WORKSPACE, type Workspace } from "../workspace.js";
import { printJson, prompt, readSecret } from "./io.js";
import { updateOrStartOver, withWorkspace } from "./workspace.js";

/** Best-effort browser launch; the URL is always printed too, for headless machines. */
function openBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No browser here: the printed URL is enough.
  }
}

const TERMINAL: RoomTerminal = {
  prompt,
  readSecret,
  printJson,
  say: (line) => process.stderr.write(`${line}\n`),
  openBrowser,
};

/** What a room's subcommand is given of the workspace the CLI opened. */
function commandContext(workspace: Workspace, kind: ConnectionKind): RoomCommandContext<unknown> {
  return {
    workspace: workspace.name,
    isDefault: workspace.name === DEFAULT_WORKSPACE,
    handle: workspace.handle(kind),
    secrets: workspace.secrets,
    // Written even over a store that cannot be opened: it starts over, and says where the old one is kept.
    startingOver: { ...workspace.secrets, update: (change) => updateOrStartOver(workspace, change) },
    accountsChanged: () => workspace.accountsChanged(),
    terminal: TERMINAL,
  };
}

/** Opens the `--workspace` given, runs the subcommand on it, and closes it. */
export async function runRoomSubcommand(
  kind: ConnectionKind,
  subcommand: RoomSubcommand<unknown>,
  options: RoomCommandOptions & { workspace: string },
  argument: string | undefined,
): Promise<void> {
  await withWorkspace(options.workspace, (workspace) =>
    subcommand.run(commandContext(workspace, kind), options, argument),
  );
}
