/**
 * `GET|POST /identity/oauth/token` (ADE authentication.md; Swagger identity). Credentials come as
 * query parameters or, as production clients send them, in an x-www-form-urlencoded POST body.
 * Errors are OAuth-style with HTTP 401/400, unlike every other Marketo error.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { mediaType, sendJson } from "../wire/http-io.js";
import type { TokenStore } from "./tokens.js";

export interface IdentityConfig {
  clientId: string;
  clientSecret: string;
  apiUserEmail: string;
}

/** Token responses must never be cached (GRP recording headers). */
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export function handleIdentity(
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
  body: string,
  tokens: TokenStore,
  config: IdentityConfig,
): void {
  if (req.method !== "GET" && req.method !== "POST") {
    sendJson(
      res,
      405,
      { error: "invalid_request", error_description: "Unsupported HTTP method" },
      { Allow: "GET, POST" },
    );
    return;
  }
  const params = new URLSearchParams(query);
  if (req.method === "POST" && mediaType(req) === "application/x-www-form-urlencoded") {
    for (const [k, v] of new URLSearchParams(body)) if (!params.has(k)) params.set(k, v);
  }
  const grantType = params.get("grant_type");
  if (grantType !== "client_credentials") {
    const description = grantType ? `Unsupported grant type: ${grantType}` : "Missing grant type";
    sendJson(res, 400, { error: "unsupported_grant_type", error_description: description }, NO_STORE);
    return;
  }
  // Marketo tells the two failures apart (maintainer of marketo-rest-python, issue #2): an unknown
  // Client Id is "No client with requested id", a known one with the wrong secret "Bad client credentials".
  if (params.get("client_id") !== config.clientId) {
    sendJson(
      res,
      401,
      { error: "invalid_client", error_description: "No client with requested id" },
      NO_STORE,
    );
    return;
  }
  if (params.get("client_secret") !== config.clientSecret) {
    sendJson(res, 401, { error: "invalid_client", error_description: "Bad client credentials" }, NO_STORE);
    return;
  }
  const { token, expiresIn } = tokens.issue();
  sendJson(
    res,
    200,
    { access_token: token, token_type: "bearer", expires_in: expiresIn, scope: config.apiUserEmail },
    NO_STORE,
  );
}
