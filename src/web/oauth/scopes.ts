/**
 * What an OAuth token's scopes let a caller do on /mcp. Two scopes: `steps:read` for every request that
 * changes nothing (initialize, listing, reads through the steps), `steps:write` for a call that may change
 * something at Marketo or Google; a write token may also read (a client that stepped up to write keeps
 * working). A call is a write when its step is not read-only (its `readOnlyHint` annotation: Create Key
 * Events, Create Properties) or, for the API Call steps, when its method is not GET: a POST counts as a
 * write even where the endpoint only reads (GA's :runReport), since this check cannot know every endpoint.
 * An unknown tool or a method it cannot read counts as a write, so a doubt never lets a read token write.
 */
import { TOOL_STEPS } from "../../tools/registry.js";

export const READ_SCOPE = "steps:read";
export const WRITE_SCOPE = "steps:write";
export const SCOPES_SUPPORTED = [READ_SCOPE, WRITE_SCOPE] as const;

export type Access = "read" | "write";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

let withMethod: Set<string> | undefined;

/** The steps whose input has a `method` (built once: a schema is not free to build). */
function methodSteps(): Set<string> {
  withMethod ??= new Set(
    TOOL_STEPS.filter((s) => "method" in s.input({ accounts: [] }).shape).map((s) => s.id),
  );
  return withMethod;
}

/** Whether one JSON-RPC message may change something. */
function messageAccess(message: unknown): Access {
  if (!isObject(message) || message.method !== "tools/call") return "read";
  const params = isObject(message.params) ? message.params : {};
  const step = TOOL_STEPS.find((s) => s.id === params.name);
  if (!step) return "write";
  if (step.annotations.readOnlyHint) return "read";
  const args = isObject(params.arguments) ? params.arguments : {};
  // The API Call steps take a method (lower case accepted: tools/input/api-call.ts); the others write.
  return methodSteps().has(step.id) && typeof args.method === "string" && args.method.toUpperCase() === "GET"
    ? "read"
    : "write";
}

/** What a request body asks for: a write when any message of it is one (a 2025-03-26 batch is an array). */
export function accessOf(body: unknown): Access {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => messageAccess(message) === "write") ? "write" : "read";
}

/** Whether granted scopes allow an access. */
export function allows(scopes: readonly string[], access: Access): boolean {
  if (scopes.includes(WRITE_SCOPE)) return true;
  return access === "read" && scopes.includes(READ_SCOPE);
}

/**
 * The scopes to name in a challenge: the exact set to ask for (MCP 2026-07-28). A 401 (no valid token yet)
 * names both, so one consent lets a client read and write (a client need not support stepping up); a 403
 * names what the refused request needs.
 */
export function scopesFor(access: Access | "all"): string {
  if (access === "all") return SCOPES_SUPPORTED.join(" ");
  return access === "write" ? WRITE_SCOPE : READ_SCOPE;
}
