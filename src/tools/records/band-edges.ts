/**
 * Bands of a number between edges the caller names, "npsScore:(0,7,9)": 0 to <7, 7 to <9, 9 or more (and under 0).
 * Equal bands ("leadScore:25") did not fit the questions agents were asked: NPS's detractors, passives and promoters
 * (trial s49, N660), or the hours from a lead's creation to its first email, under 1, 1 to 24, 24 to 168 and more
 * (N667); both counted by hand from finer bands, or by a script.
 */
import { ValidationError } from "../../errors.js";

/** Edges a band list takes at most: beyond, a table of bands is no summary. */
const MAX_EDGES = 30;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const EDGES = /^(.*[^:\s]):\(([^()]*)\)$/;

const text = (value: number) => String(Math.round(value * 1e9) / 1e9);

/** "npsScore:(0,7,9)" as its field and edges; a part written otherwise is undefined; edges not rising are refused. */
export function edgesSuffix(part: string): { head: string; edges: number[]; written: string } | undefined {
  const match = EDGES.exec(part.trim());
  if (!match) return undefined;
  const written = (match[2] as string).split(",").map((edge) => edge.trim());
  const edges = written.map(Number);
  const rising = edges.every((edge, i) => i === 0 || edge > (edges[i - 1] as number));
  if (written.some((edge) => !NUMBER.test(edge)) || !rising || edges.length > MAX_EDGES) {
    throw new ValidationError(
      "count_by",
      `${JSON.stringify(part.slice(0, 60))}: bands between edges take 1 to ${MAX_EDGES} numbers, each above the one before.`,
      { hint: 'E.g. "npsScore:(0,7,9)" counts 0 to <7, 7 to <9 and 9 or more (under 0 apart).' },
    );
  }
  return { head: match[1] as string, edges, written: `(${written.join(",")})` };
}

/** The band a number falls in: "under 0", "7 to <9" or "9 or more". */
export function edgeLabel(edges: readonly number[], number: number): string {
  const at = edges.findLastIndex((edge) => number >= edge);
  if (at < 0) return `under ${text(edges[0] as number)}`;
  const next = edges[at + 1];
  return next === undefined
    ? `${text(edges[at] as number)} or more`
    : `${text(edges[at] as number)} to <${text(next)}`;
}

/** Every band of the edges, lowest first ("under" first). */
export function edgeLabels(edges: readonly number[]): string[] {
  return [edges[0] as number, ...edges].map((edge, i) =>
    i === 0 ? `under ${text(edge)}` : edgeLabel(edges, edge),
  );
}

/**
 * Where a band's label sorts: its low end, "under x" below every other: the least finite number, whose difference
 * from itself is 0 (-Infinity's is NaN, which left a table's "under" rows unsorted: review s60, F3).
 */
export function edgeRank(label: unknown): number {
  return String(label).startsWith("under ") ? -Number.MAX_VALUE : Number.parseFloat(String(label));
}

/** How the bands read in the summary. */
export function edgeWords(edges: readonly number[]): string {
  // Every band when few, else the first three and "…" (review s60, F5: "…" followed the last band).
  const bands = edgeLabels(edges).slice(1);
  const listed = bands.length <= 4 ? bands.join(", ") : `${bands.slice(0, 3).join(", ")}, …`;
  return `band between the edges ${edges.map(text).join(", ")} (${listed}; under ${text(edges[0] as number)} apart)`;
}
