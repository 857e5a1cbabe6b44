import type { McpServer } from "@modelcontextprotocol/server";
import type { Workspace } from "../workspace.js";

/** What a resource provider may depend on: the workspace of the MCP server it registers on. */
export interface ResourceScope {
  workspace: Workspace;
}

/**
 * Registers resources on one MCP server instance. Instances are built per connection (stdio, a
 * 2025-11-25 session) or per request (2026-07-28 over HTTP), so a provider registers on each and
 * reads what it serves from its scope, never from another workspace.
 */
export type ResourceProvider = (server: McpServer, scope: ResourceScope) => void;
