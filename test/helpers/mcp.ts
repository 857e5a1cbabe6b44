import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ClientCapabilities, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "../../src/mcp/server.js";
import type { Workspace } from "../../src/workspace.js";

export interface McpSession {
  client: Client;
  close(): Promise<void>;
}

/**
 * The MCP server of a workspace and an SDK client, linked in memory. `record` collects every message
 * the server sends (to search them for secrets).
 */
export async function mcpSession(
  workspace: Workspace,
  options: { capabilities?: ClientCapabilities; offerSignIn?: boolean; record?: JSONRPCMessage[] } = {},
): Promise<McpSession> {
  const handle = createMcpServer({
    workspace,
    ...(options.offerSignIn === undefined ? {} : { offerSignIn: options.offerSignIn }),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const record = options.record;
  if (record) {
    const send = serverSide.send.bind(serverSide);
    serverSide.send = async (message, sendOptions) => {
      record.push(message);
      return send(message, sendOptions);
    };
  }
  await handle.server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await handle.close();
    },
  };
}
