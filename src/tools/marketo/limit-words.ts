/** How an answer states limit: as given, and where limit per's cut falls in a tie (records/limit-each.ts). */
import { n, plural } from "../numbers-in-words.js";
import type { ComputeSpec } from "../records/compute.js";
import { limitEachText, tieKeys } from "../records/limit-each.js";
import type { ReadAnswer } from "./read-calls.js";

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

/** What limit kept of `all` results, where they are shown, and what the link holds. */
export function limitShownWords(spec: ComputeSpec, answer: ReadAnswer, what: string, all: number): string {
  const { counts } = answer;
  const order = spec.order || spec.countBy ? "" : " in read order";
  // What is linked holds only what limit kept (review s22, finding 3: "it is one CSV … every row" read as the export;
  // review s47, 2: a top ten used as a list in result(…) is those ten).
  const place = answer.full?.file ? "file" : "full result";
  const linked = counts.kept
    ? ` and in the ${place} linked below, which holds only those ${n(counts.read)}`
    : "";
  // No cursor and nothing kept (a read per id, a sorted or counted read): say how the rest is had (review s23, 7).
  const rest =
    !counts.kept && answer.data.next_cursor === undefined
      ? " (raise limit, or leave it out, for the rest)"
      : "";
  const shown = counts.shown < counts.read ? "the result" : `shown here${linked}${rest}`;
  const first = spec.each
    ? `the first${spec.each.n === 1 ? "" : ` ${n(spec.each.n)}`} of each ${spec.each.fields.join(" and ")}, ${n(counts.read)} of the ${n(all)} ${what}${order},`
    : `the first ${n(counts.read)} of the ${n(all)} ${what}${order}`;
  return `${limitWords(spec, counts.read)}: ${first} are ${shown}${tieWords(spec, counts.tiedGroups)}`;
}
