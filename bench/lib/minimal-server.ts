import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

/**
 * The floor of an MCP call: the SDK's minimal one-tool server (its README's example), whose tool
 * fetches the same URL as our step and returns the JSON as text.
 */
export function minimalServer(fetchLead: () => Promise<unknown>): McpServer {
  const server = new McpServer({ name: "minimal", version: "1.0.0" });
  server.registerTool(
    "get_lead",
    { description: "Gets a lead", inputSchema: z.object({ id: z.number() }) },
    async () => ({ content: [{ type: "text", text: JSON.stringify(await fetchLead()) }] }),
  );
  return server;
}
