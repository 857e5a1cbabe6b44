import { API_CALL_ALIASES } from "../input/api-call.js";
import type { InputAliases } from "../input/normalise.js";

/** The Google Analytics API Call step: the property is part of the path there. */
export const GOOGLE_API_CALL_ALIASES: InputAliases = {
  ...API_CALL_ALIASES,
  unsupported: {
    ...API_CALL_ALIASES.unsupported,
    propertyId: "put the property in endpoint, e.g. v1beta/properties/123:runReport",
    property: "put the property in endpoint, e.g. v1beta/properties/123:runReport",
  },
};
