import { API_CALL_ALIASES } from "../input/api-call.js";
import type { InputAliases, ValueConverter } from "../input/normalise.js";

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
