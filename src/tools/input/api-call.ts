import { type InputAliases, numberAsString, type ValueConverter } from "./normalise.js";
import { isPlainObject } from "./schema-walk.js";

/**
 * The two API Call steps: besides queryParameters (the camelCase of query_parameters) and a lower-case
 * method, `query` holding an object can only mean the query parameters.
 */
export const API_CALL_ALIASES: InputAliases = {
  rename: { query: { to: "query_parameters", when: isPlainObject } },
  unsupported: {
    headers:
      "headers cannot be given: the connector sets authentication and content type itself; put parameters in " +
      "query_parameters and the payload in body",
  },
};

/** A list of field names (["-leadScore", "email"]) as the one comma-separated text the schema takes. */
const namesAsText: ValueConverter = (value) =>
  Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string")
    ? value.join(",")
    : value;

/**
 * The Marketo step: order_by and count_by also as lists of names; `filter` holding text, and `sort`, are
 * the names other tools give where and order_by (a bulk export's own filter stays in body.filter).
 */
export const MARKETO_API_CALL_ALIASES: InputAliases = {
  ...API_CALL_ALIASES,
  rename: {
    ...API_CALL_ALIASES.rename,
    filter: { to: "where", when: (value) => typeof value === "string" },
    sort: "order_by",
  },
  values: { order_by: namesAsText, count_by: namesAsText },
};

/** The Google Analytics API Call step: the property is part of the path there. */
export const GOOGLE_API_CALL_ALIASES: InputAliases = {
  ...API_CALL_ALIASES,
  unsupported: {
    ...API_CALL_ALIASES.unsupported,
    propertyId: "put the property in endpoint, e.g. v1beta/properties/123:runReport",
    property: "put the property in endpoint, e.g. v1beta/properties/123:runReport",
  },
};

/** A GA4 property as Google's own APIs and the seed name it: propertyId, also as a number. */
export const PROPERTY_ALIASES: InputAliases = {
  rename: { propertyId: "property" },
  values: { property: numberAsString },
};
