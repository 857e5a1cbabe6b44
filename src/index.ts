/**
 * martech-steps as a plugin package: the registry of tool steps, the catalog search, the runner, the
 * connectors, the error classes and the MCP server factory. manifest.json (package root) describes
 * the same steps for platforms that read a manifest.
 */

export type { CredentialStore, WorkspaceSecrets } from "./auth/credential-store.js";
export { FileCredentialStore, MemoryCredentialStore } from "./auth/credential-store.js";
export { type AccountSummary, GoogleAccounts } from "./auth/google/accounts.js";
export type { GoogleAccountRecord, GoogleOAuthClient } from "./auth/google/stored.js";
export type { ChartModel } from "./charts/model.js";
export { renderChartPng } from "./charts/render-png.js";
export type { MarketoCredentials } from "./connections/marketo/index.js";
export {
  CONNECTION_ROOMS,
  type ConnectionKind,
  type ConnectorOf,
  type ServiceId,
} from "./connections/registry.js";
export { GoogleAnalyticsConnector } from "./connectors/google/connector.js";
export type { GoogleApi, GoogleRequest } from "./connectors/google/types.js";
export { MarketoConnector } from "./connectors/marketo/connector.js";
export type {
  MarketoCallResult,
  MarketoConnectorConfig,
  MarketoPage,
  MarketoRequest,
  PaginateOptions,
} from "./connectors/marketo/types.js";
export * from "./errors.js";
export { type HttpServerHandle, type HttpServerOptions, startHttpServer } from "./host/http.js";
export { buildManifest, CONNECTIONS, type Manifest } from "./manifest.js";
export type { ResourceProvider } from "./mcp/resources.js";
export {
  createMcpServer,
  type ExtraTool,
  type McpServerHandle,
  type McpServerOptions,
} from "./mcp/server.js";
export type { JsonSchema } from "./schemas/json-schema.js";
export { toJsonSchema } from "./schemas/json-schema.js";
export { createState } from "./state/index.js";
export type { SharedState } from "./state/types.js";
export type { CatalogHit } from "./tools/catalog.js";
export { type ConnectorMakers, connectionFrom } from "./tools/connection-from.js";
export { getToolStep, searchToolSteps, TOOL_STEPS } from "./tools/registry.js";
export { runToolStep } from "./tools/run.js";
export type {
  ProgressUpdate,
  SchemaContext,
  ToolAnnotations,
  ToolContext,
  ToolLogEntry,
  ToolLogLevel,
  ToolResult,
  ToolStep,
} from "./tools/types.js";
export { DEFAULT_WORKSPACE, Workspace, type WorkspaceOptions } from "./workspace.js";
