/** How an answer states limit: as given, and where limit per's cut falls in a tie (records/limit-each.ts). */
import { n, plural } from "../numbers-in-words.js";
import type { ComputeSpec } from "../records/compute.js";
import { limitEachText, tieKeys } from "../records/limit-each.js";

/** limit as given: "limit 10", "limit 1 per programId". */
export const limitWords = (spec: ComputeSpec, read = 0): string =>
  spec.each ? `limit ${limitEachText(spec.each)}` : `limit ${n(spec.limit ?? read)}`;

/** limit per's groups whose last kept row ties the next: which is kept is the order's, not a rank. */
export function tieWords(spec: ComputeSpec, tied: number | undefined): string {
  if (!spec.each || !tied) return "";
  // The group's own fields are alike within it: the tie is on the others.
  const on =
    tieKeys(spec)
      .filter((field) => !spec.each?.fields.includes(field))
      .join(", ") || (spec.columns ? "total" : "count");
  return ` (in ${plural(tied, "group")} (by ${spec.each.fields.join(" and ")}) the next row ties the last one kept on ${on}: add a field to order_by to choose between them)`;
}
