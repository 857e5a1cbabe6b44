import { z } from "zod";

/** A query parameter's value; arrays of them are sent comma-separated (Marketo) or repeated (Google). */
export const QueryScalar = z.union([z.string(), z.number(), z.boolean()]);

/** The input that resumes a capped answer: the next_cursor it gave, with the same request. */
export function cursorInput(description: string) {
  return z.string().min(1).max(4_096).optional().describe(description);
}
