import { ValidationError } from "../errors.js";

/** Query parameters the connector or its connection sets itself: lower-cased name → why the caller may not. */
export type ReservedQuery = ReadonlyMap<string, string>;

/**
 * Refuses a caller's query parameter that would change how the request is authenticated or which
 * method it runs, named as `query_parameters.<name>` (any case: a lenient server may read it too).
 * Nothing is sent.
 */
export function checkReservedQuery(query: object | undefined, reserved: ReservedQuery): void {
  if (query === null || typeof query !== "object") return;
  for (const [key, value] of Object.entries(query)) {
    const why = reserved.get(key.toLowerCase());
    if (why === undefined || value === undefined) continue;
    throw new ValidationError(`query_parameters.${key}`, why, {
      hint: `Remove ${key} from query_parameters and call again; nothing was sent.`,
    });
  }
}
