export { chicagoDay, nextChicagoMidnight } from "./chicago-day.js";
export { MarketoConnector } from "./connector.js";
export type * from "./types.js";
export { checkMarketoPath, ENDPOINT_RULES, encodeQuery, MAX_URI_CHARS, parseRestEndpoint } from "./url.js";
