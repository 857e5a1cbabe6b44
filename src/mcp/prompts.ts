import type { GetPromptResult, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import type { RoomPrompt } from "../connections/types.js";

function userText(text: string): GetPromptResult {
  return { messages: [{ role: "user", content: { type: "text", text } }] };
}

/** A prompt's arguments as the schema the SDK checks and lists them with (each a described string). */
function argsSchema(prompt: RoomPrompt) {
  return z.object(
    Object.fromEntries(
      prompt.arguments.map((arg) => [
        arg.name,
        arg.optional ? z.string().optional().describe(arg.description) : z.string().describe(arg.description),
      ]),
    ),
  );
}

/**
 * A few ready-made requests a person can pick in their client, each room's (src/connections/<service>/
 * prompts.ts); each names the tool steps and arguments to use, so the model starts from a call that works.
 * Returns their names.
 */
export function registerPrompts(server: McpServer): readonly string[] {
  const rooms: readonly AnyRoom[] = CONNECTION_KINDS.map((kind) => CONNECTION_ROOMS[kind]);
  const prompts = rooms.flatMap((room) => room.prompts ?? []);
  for (const prompt of prompts) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: argsSchema(prompt) },
      (args: Record<string, string | undefined>) => userText(prompt.text(args)),
    );
  }
  return prompts.map((prompt) => prompt.name);
}
