// The floor of a stdio cold start: the SDK's minimal one-tool server (plain JavaScript, as published),
// served the way our `serve` is served (serveStdio, both protocol eras).
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "minimal", version: "1.0.0" });
  server.registerTool(
    "get_lead",
    { description: "Gets a lead", inputSchema: z.object({ id: z.number() }) },
    async ({ id }) => ({ content: [{ type: "text", text: String(id) }] }),
  );
  return server;
});
