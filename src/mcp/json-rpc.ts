/** JSON-RPC as /mcp answers it over HTTP: the id of a request, and a refusal that answers it. */

/** A JSON-RPC request id, when the refused request had a readable one. */
export type JsonRpcId = string | number | null;

/** The id of a JSON-RPC request body, so that even a refusal answers the request it refuses. */
export function requestIdOf(body: unknown): JsonRpcId {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** A JSON-RPC error as an HTTP response (-32000: a transport-level refusal, as the SDK answers them). */
export function jsonRpcErrorResponse(
  status: number,
  message: string,
  id: JsonRpcId,
  code = -32000,
  headers: Record<string, string> = {},
): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code, message }, id },
    { status, headers: { ...headers, "content-type": "application/json" } },
  );
}
