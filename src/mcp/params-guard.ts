import {
  type JSONRPCRequest,
  type LoggingLevel,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { LOG_LEVELS } from "./logging.js";

/*
 * The SDK checks a request's params with its wire schemas before a handler runs, and answers a
 * mismatch with -32603 (internal error) and the raw list of zod issues for every method but
 * tools/call (Protocol.setRequestHandler throws a plain Error). It also looks tool and prompt names up
 * in plain objects, so "constructor" or "__proto__" are found on Object.prototype and answered as
 * "disabled". JSON-RPC says wrong params are -32602 (https://www.jsonrpc.org/specification#error_object),
 * so every served method is checked here first, with own-name lookups, and answers in one sentence.
 */

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The SDK's table of request handlers (Protocol#_requestHandlers): no public way to put a check before its own. */
interface HandlerTable {
  _requestHandlers?: Map<string, Handler>;
}

/** What the server serves by name: a name is one of these, never a property every object has. */
export interface ServedNames {
  tools: readonly string[];
  prompts: readonly string[];
}

type Params = Record<string, unknown>;
type Check = (params: Params, names: ServedNames) => string | undefined;

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a ${type}`;
}

const isObject = (value: unknown): value is Params =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function needString(method: string, params: Params, field: string, what: string): string | undefined {
  const value = params[field];
  return typeof value === "string"
    ? undefined
    : `${method} needs "${field}" to be a string (${what}), not ${kind(value)}.`;
}

function optionalCursor(method: string): Check {
  return (params) =>
    params.cursor === undefined || typeof params.cursor === "string"
      ? undefined
      : `${method} takes "cursor" as the string a previous page returned, not ${kind(params.cursor)}.`;
}

const shown = (name: string) => JSON.stringify(name.slice(0, 64));

const CHECKS: Record<string, { required: boolean; check: Check }> = {
  "tools/list": { required: false, check: optionalCursor("tools/list") },
  "prompts/list": { required: false, check: optionalCursor("prompts/list") },
  "resources/list": { required: false, check: optionalCursor("resources/list") },
  "resources/templates/list": { required: false, check: optionalCursor("resources/templates/list") },
  "tools/call": {
    required: true,
    check: (params, names) => {
      const wrong = needString("tools/call", params, "name", "the tool's name");
      if (wrong) return wrong;
      const name = params.name as string;
      if (!names.tools.includes(name)) return `There is no tool ${shown(name)}: tools/list names them.`;
      if (params.arguments !== undefined && !isObject(params.arguments)) {
        return `tools/call needs "arguments" to be an object, not ${kind(params.arguments)}.`;
      }
      return undefined;
    },
  },
  "prompts/get": {
    required: true,
    check: (params, names) => {
      const wrong = needString("prompts/get", params, "name", "the prompt's name");
      if (wrong) return wrong;
      const name = params.name as string;
      if (!names.prompts.includes(name)) return `There is no prompt ${shown(name)}: prompts/list names them.`;
      const args = params.arguments;
      if (args === undefined) return undefined;
      if (!isObject(args) || Object.values(args).some((v) => typeof v !== "string")) {
        return 'prompts/get needs "arguments" to be an object of strings.';
      }
      return undefined;
    },
  },
  "resources/read": {
    required: true,
    check: (params) => needString("resources/read", params, "uri", "the resource's URI"),
  },
  "logging/setLevel": {
    required: true,
    check: (params) =>
      typeof params.level === "string" && LOG_LEVELS.includes(params.level as LoggingLevel)
        ? undefined
        : `logging/setLevel needs "level" to be one of ${LOG_LEVELS.join(", ")}.`,
  },
};

/**
 * A plain error from the SDK's own check carries zod's issues as JSON: one sentence from the first,
 * for whatever the checks above do not cover (a wrongly typed `_meta`, say).
 */
function plainIssue(method: string, error: unknown): ProtocolError | undefined {
  if (!(error instanceof Error) || Number.isSafeInteger((error as { code?: unknown }).code)) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return undefined;
  }
  const first = Array.isArray(issues) ? (issues[0] as { path?: unknown; message?: unknown }) : undefined;
  if (!first || typeof first.message !== "string") return undefined;
  const path = Array.isArray(first.path) ? first.path.map(String).join(".") : "";
  const message = first.message.replace(/^Invalid input: /, "").replace(/\.$/, "");
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `The params of ${method} are not valid: ${path ? `${path}: ` : ""}${message.slice(0, 200)}.`,
  );
}

function guard(method: string, handler: Handler, names: ServedNames): Handler {
  const rule = CHECKS[method];
  return async (request, ctx) => {
    const params: unknown = request.params;
    if (rule) {
      if (params === undefined && rule.required) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${method} needs params.`);
      }
      if (params !== undefined && !isObject(params)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${method} needs params to be an object.`);
      }
      const wrong = rule.check(params ?? {}, names);
      if (wrong) throw new ProtocolError(ProtocolErrorCode.InvalidParams, wrong);
    }
    try {
      return await handler(request, ctx);
    } catch (error) {
      throw plainIssue(method, error) ?? error;
    }
  };
}

/**
 * Puts the checks in front of every request handler the server has once everything is registered
 * (the SDK registers its own when the server is built, ours replace some: this runs last).
 */
export function guardParams(server: McpServer, names: ServedNames): void {
  const table = (server.server as unknown as HandlerTable)._requestHandlers;
  // Without the table the checks would silently not run: fail where it shows, at the first server built.
  if (!(table instanceof Map)) throw new Error("The MCP SDK no longer keeps its request handlers in a Map.");
  for (const [method, handler] of table) {
    if (method === "initialize") continue;
    table.set(method, guard(method, handler, names));
  }
}
