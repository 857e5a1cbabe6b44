import { type InputAliases, numberAsString } from "./normalise.js";
import { isPlainObject } from "./schema-walk.js";

/**
 * Both API Call steps (each adds its own in tools/marketo/ and tools/ga/api-call-aliases.ts): besides
 * queryParameters (the camelCase of query_parameters) and a lower-case method, `query` holding an object
 * can only mean the query parameters.
 */
export const API_CALL_ALIASES: InputAliases = {
  rename: { query: { to: "query_parameters", when: isPlainObject } },
  unsupported: {
    headers:
      "headers cannot be given: the connector sets authentication and content type itself; put parameters in " +
      "query_parameters and the payload in body",
  },
};

/** A GA4 property as Google's own APIs and the seed name it: propertyId, also as a number. */
export const PROPERTY_ALIASES: InputAliases = {
  rename: { propertyId: "property" },
  values: { property: numberAsString },
};
