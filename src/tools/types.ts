import type { z } from "zod";
import type { GoogleAnalyticsConnector } from "../connectors/google/connector.js";
import type { MarketoConnector } from "../connectors/marketo/connector.js";
import type { InputAliases } from "./input/normalise.js";

export type ServiceId = "marketo" | "google_analytics";
/** The admin-side connection a step needs: Marketo credentials or a connected Google account. */
export type ConnectionKind = "marketo" | "google";

/** MCP tool annotations (https://modelcontextprotocol.io/specification/2025-06-18/server/tools). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a step's input schema may depend on: the workspace's connected Google account labels. */
export interface SchemaContext {
  accounts: readonly string[];
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** What a handler gets: connectors already bound to the workspace, never a credential. */
export interface ToolContext {
  /** The workspace's Marketo connector; throws ConfigurationError when Marketo is not configured. */
  marketo(): Promise<MarketoConnector>;
  /** The connector of a connected Google account (by label; the only one when omitted). */
  google(account: string | undefined): Promise<GoogleAnalyticsConnector>;
  signal?: AbortSignal | undefined;
  progress(update: ProgressUpdate): void;
}

export interface ToolResult<O> {
  data: O;
  /** A short human/model-readable summary of the result. */
  summary: string;
}

export interface ToolStep<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  id: string;
  title: string;
  service: ServiceId;
  category: string;
  keywords: readonly string[];
  /** What it does, when to use it, and a doc link. */
  description: string;
  docUrl: string;
  connection: ConnectionKind;
  /** OAuth scopes the step needs (Google); empty for Marketo (permissions sit on the API user's role). */
  scopes: readonly string[];
  annotations: ToolAnnotations;
  /** The input's strict schema: an unknown field is refused with the nearest accepted name. */
  input(context: SchemaContext): I;
  /** Other spellings of the input (the seed's, Google's camelCase) accepted and normalised before validation. */
  aliases?: InputAliases;
  output: O;
  handler(input: z.output<I>, context: ToolContext): Promise<ToolResult<z.output<O>>>;
}
