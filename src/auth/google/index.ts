export { type ConnectOptions, GoogleAccounts, type GoogleAccountsDeps } from "./accounts.js";
export {
  DEFAULT_GOOGLE_ENDPOINTS,
  GA_SCOPES,
  type GoogleEndpoints,
  googleClientFrom,
  googleEndpointsFromEnv,
  isLoopbackHost,
  SCOPE_ANALYTICS,
  SCOPE_ANALYTICS_EDIT,
  SCOPE_ANALYTICS_READONLY,
} from "./config.js";
export { InvalidGrantError, pkceChallenge, type RevokeResult } from "./oauth.js";
export type { AccountSummary } from "./records.js";
export { type GoogleTokenSource, reconnectError } from "./token-source.js";
