export { type BackoffPolicy, backoffCeiling, backoffDelay, parseRetryAfter } from "./backoff.js";
export { type AccessTokenSource, getRequestHeaders, type RequestAuth } from "./bearer.js";
export { type ExchangeAnswer, type ExchangeOptions, type ExchangeRequest, exchange } from "./exchange.js";
export {
  AttemptFailure,
  classifyFailure,
  type Delivery,
  type FailureContext,
  type FailureKind,
  mayReplay,
} from "./failure.js";
