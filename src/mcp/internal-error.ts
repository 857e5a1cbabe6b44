import type { CallToolResult } from "@modelcontextprotocol/server";
import { log } from "../log.js";

/**
 * A tool call that failed with an unexpected error (not a MartechError): its message may carry anything
 * (a path, a fragment of an answer), so the client gets a generic text and the server log the details.
 */
export function internalErrorResult(stepId: string, error: unknown, what: string): CallToolResult {
  log.error({ tool: stepId, err: error }, what);
  return {
    isError: true,
    content: [
      { type: "text", text: `${stepId} failed with an internal error. The server log has the details.` },
    ],
  };
}
