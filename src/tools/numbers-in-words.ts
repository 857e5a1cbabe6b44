/**
 * Numbers as the answers write them: with thousands separators, and a count with its noun ("1 row",
 * "2,856 leads"). One place, so every answer spells a figure the same way (text = JSON = CSV = table).
 */

/** A number with en-US thousands separators: 2856 → "2,856". */
export const n = (value: number): string => value.toLocaleString("en-US");

/** A count with its noun, made plural by an "s" unless the count is 1: plural(2, "lead") → "2 leads". */
export const plural = (value: number, word: string): string => `${n(value)} ${word}${value === 1 ? "" : "s"}`;
