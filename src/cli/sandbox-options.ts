/**
 * The `martech-steps sandbox` command's options, from the rooms that have an emulator (each room's
 * SandboxCommand, known without loading the emulators): one port option per room, in registry order.
 */
import { Option } from "commander";
import {
  type AnyRoom,
  CONNECTION_KINDS,
  CONNECTION_ROOMS,
  type ConnectionKind,
} from "../connections/registry.js";
import type { SandboxCommand } from "../connections/types.js";

/** A room's port option: its flag, commander's name for its value ("--x-port" gives xPort), its default. */
export interface PortOption extends SandboxCommand {
  kind: ConnectionKind;
  attribute: string;
  /** The option as commander registers it. */
  option: Option;
}

/** The port option of every room with an emulator, in registry order. */
export function sandboxPortOptions(): PortOption[] {
  return CONNECTION_KINDS.flatMap((kind) => {
    const room: AnyRoom = CONNECTION_ROOMS[kind];
    const command = room.sandboxCommand;
    if (!room.sandbox || !command) return [];
    const option = new Option(
      `${command.portFlag} <port>`,
      `${command.emulator} port (default ${command.defaultPort}; with --detach, a free port)`,
    );
    return [{ ...command, kind, attribute: option.attributeName(), option }];
  });
}

/** The command's description: what the emulators emulate, in registry order. */
export function sandboxDescription(ports: readonly PortOption[]): string {
  return (
    `Run the local ${ports.map((port) => port.emulates).join(", ")} emulators alone, with a credential store of their own; ` +
    "print the export lines that point martech-steps at them on stdout."
  );
}
