import {
  type ClientCapabilities as ModernCapabilities,
  Client as ModernClient,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createMcpServer, type McpServerHandle } from "../../src/mcp/server.js";
import type { Workspace } from "../../src/workspace.js";

export interface McpSession {
  client: Client;
  close(): Promise<void>;
}

export interface SessionOptions {
  capabilities?: ClientCapabilities;
  offerSignIn?: boolean;
  /** Collects every message the server sends (to search them for secrets). */
  record?: JSONRPCMessage[];
}

function linkedPair(record: JSONRPCMessage[] | undefined) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (record) {
    const send = serverSide.send.bind(serverSide);
    serverSide.send = async (message, sendOptions) => {
      record.push(message);
      return send(message, sendOptions);
    };
  }
  return { clientSide, serverSide };
}

function serverFor(workspace: Workspace, options: SessionOptions): McpServerHandle {
  return createMcpServer({
    workspace,
    ...(options.offerSignIn === undefined ? {} : { offerSignIn: options.offerSignIn }),
  });
}

/**
 * The MCP server of a workspace and an SDK v1 client (protocol 2025-11-25), linked in memory.
 */
export async function mcpSession(workspace: Workspace, options: SessionOptions = {}): Promise<McpSession> {
  const handle = serverFor(workspace, options);
  const { clientSide, serverSide } = linkedPair(options.record);
  await handle.server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  // The v1 client and the v2 in-memory transport speak the same messages; only their types differ.
  await client.connect(clientSide as unknown as Transport);
  return {
    client,
    async close() {
      await client.close();
      await handle.close();
    },
  };
}

export interface ModernSession {
  client: ModernClient;
  close(): Promise<void>;
}

/**
 * The same server behind the SDK's connection entry (as `serve` runs it over stdio), and an SDK v2
 * client pinned to protocol 2026-07-28, linked in memory.
 */
export async function modernMcpSession(
  workspace: Workspace,
  options: SessionOptions = {},
): Promise<ModernSession> {
  const { clientSide, serverSide } = linkedPair(options.record);
  const entry = serveStdio(() => serverFor(workspace, options).server, { transport: serverSide });
  const client = new ModernClient(
    { name: "test", version: "1.0.0" },
    {
      capabilities: (options.capabilities ?? {}) as ModernCapabilities,
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    },
  );
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await entry.close();
    },
  };
}
