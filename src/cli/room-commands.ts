/**
 * The connection rooms' commands (`martech-steps marketo ...`, `martech-steps accounts ...`): each room
 * declares its command (`cli.command`, src/connections/types.ts) and this registers them, in registry order,
 * naming no service. Registering reads only the declarations (words and flags); a subcommand's action, the
 * workspace and the terminal it is given load when it runs (room-action.ts): `serve` starts without them.
 */
import type { Command } from "commander";
import {
  type AnyRoom,
  CONNECTION_KINDS,
  CONNECTION_ROOMS,
  type ConnectionKind,
} from "../connections/registry.js";
import type { RoomCommandOptions, RoomSubcommand } from "../connections/types.js";
import { DEFAULT_WORKSPACE } from "../workspace.js";

type Subcommand = NonNullable<AnyRoom["cli"]["command"]>["subcommands"][number];

/** Adds every room's command to the program; returns their names (each opens the workspace's store). */
export function registerRoomCommands(program: Command): string[] {
  return CONNECTION_KINDS.flatMap((kind) => {
    const declared = (CONNECTION_ROOMS[kind] as AnyRoom).cli.command;
    if (!declared) return [];
    const command = program.command(declared.name).description(declared.description);
    for (const subcommand of declared.subcommands) registerSubcommand(command, kind, subcommand);
    return [declared.name];
  });
}

/** One subcommand, with its argument, its options and then `--workspace`, as every room command takes it. */
function registerSubcommand(parent: Command, kind: ConnectionKind, declared: Subcommand): void {
  const command = parent.command(declared.name).description(declared.description);
  if (declared.argument) command.argument(declared.argument.name, declared.argument.description);
  for (const option of declared.options) {
    if (option.required) command.requiredOption(option.flags, option.description);
    else command.option(option.flags, option.description);
  }
  command.option("--workspace <name>", "workspace", DEFAULT_WORKSPACE);
  command.action(async (...args: unknown[]) => {
    const options = command.opts<RoomCommandOptions & { workspace: string }>();
    const argument = declared.argument ? String(args[0]) : undefined;
    await (await import("./room-action.js")).runRoomSubcommand(
      kind,
      declared as RoomSubcommand<unknown>,
      options,
      argument,
    );
  });
}
