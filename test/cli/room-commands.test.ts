/**
 * The connection rooms' commands come from the rooms (src/connections/<service>/cli-command.ts, `cli.command`):
 * the CLI registers what each room declares, in registry order, and runs a subcommand with the workspace
 * `--workspace` names and the room's own handle of it (src/cli/room-commands.ts, room-action.ts).
 */
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerRoomCommands } from "../../src/cli/room-commands.js";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../../src/connections/registry.js";
import type { RoomCommand } from "../../src/connections/types.js";
import { tempDir } from "../helpers/temp.js";

const declared = CONNECTION_KINDS.flatMap((kind) => {
  const command = (CONNECTION_ROOMS[kind] as AnyRoom).cli.command;
  return command ? [{ kind, command }] : [];
});

function program(): Command {
  return new Command()
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
}

function subcommand(command: RoomCommand<unknown>, name: string) {
  const found = command.subcommands.find((sub) => sub.name === name);
  if (!found) throw new Error(`no subcommand ${name}`);
  return found;
}

beforeEach(async () => {
  vi.stubEnv("MARTECH_STEPS_HOME", await tempDir("room-commands-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("the rooms' commands", () => {
  it("are registered as each room declares them, in registry order, each subcommand taking --workspace last", () => {
    expect(declared.length).toBeGreaterThan(0);
    const cli = program();
    const names = registerRoomCommands(cli);
    expect(names).toEqual(declared.map(({ command }) => command.name));
    for (const { command } of declared) {
      const registered = cli.commands.find((c) => c.name() === command.name);
      expect(registered?.description()).toBe(command.description);
      expect(registered?.commands.map((c) => c.name())).toEqual(command.subcommands.map((sub) => sub.name));
      for (const sub of command.subcommands) {
        const options = registered?.commands.find((c) => c.name() === sub.name)?.options ?? [];
        expect(options.map((option) => option.flags)).toEqual([
          ...sub.options.map((option) => option.flags),
          "--workspace <name>",
        ]);
        expect(options.filter((option) => option.mandatory).map((option) => option.flags)).toEqual(
          sub.options.filter((option) => option.required).map((option) => option.flags),
        );
      }
    }
  });

  it("run a subcommand on the workspace --workspace names, with the room's handle, options and argument", async () => {
    for (const { kind, command } of declared) {
      const sub = command.subcommands.find((s) => s.argument) ?? command.subcommands.at(-1);
      if (!sub) continue;
      const run = vi.spyOn(sub, "run").mockResolvedValue(undefined);
      const cli = program();
      registerRoomCommands(cli);
      await cli.parseAsync(
        [command.name, sub.name, ...(sub.argument ? ["the-arg"] : []), "--workspace", "team"],
        { from: "user" },
      );
      expect(run).toHaveBeenCalledTimes(1);
      const [context, options, argument] = run.mock.calls[0] ?? [];
      expect(context?.workspace).toBe("team");
      expect(context?.isDefault).toBe(false);
      expect(context?.secrets.workspace).toBe("team");
      expect(context?.startingOver.workspace).toBe("team");
      // The room's own handle: what its open() builds (a handle of its kind has the room's methods).
      const own = (CONNECTION_ROOMS[kind] as AnyRoom).open({
        workspace: "team",
        isDefault: false,
        env: process.env,
        store: { read: async () => ({}) } as never,
        state: {} as never,
      });
      expect(Object.keys(context?.handle as object).sort()).toEqual(Object.keys(own as object).sort());
      expect(options?.workspace).toBe("team");
      expect(argument).toBe(sub.argument ? "the-arg" : undefined);
    }
  });

  it("give an action the --force and --no-browser flags as booleans, by their camel-cased names", async () => {
    const withConnect = declared.find(({ command }) =>
      command.subcommands.some((sub) => sub.name === "connect"),
    );
    if (!withConnect) throw new Error("no room declares connect");
    const connect = vi.spyOn(subcommand(withConnect.command, "connect"), "run").mockResolvedValue(undefined);
    const cli = program();
    registerRoomCommands(cli);
    await cli.parseAsync([withConnect.command.name, "connect", "--no-browser", "--label", "web"], {
      from: "user",
    });
    expect(connect.mock.calls[0]?.[1]).toEqual({ browser: false, label: "web", workspace: "default" });
    expect(connect.mock.calls[0]?.[0].isDefault).toBe(true);
  });
});
