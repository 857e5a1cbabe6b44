/**
 * A `:columns` table whose sum is a date ("count_by": "leadId,activityType:columns", "sum": "activityDate"): dates
 * are not added, so each cell counts its records and each row gets the first and last date of its records, `min`
 * and `max`. It was refused ("columns cannot add dates"), and a fresh agent spent a call for a per-lead table's
 * last delivery beside it, twice (trial s46, N630, N633; N634 the same).
 */
import { rankOf } from "./sum.js";

interface Span {
  min?: { rank: number; value: unknown };
  max?: { rank: number; value: unknown };
}

/** The first and last date of each pivot row (keyed by the row's own object), from its count rows' min and max. */
export class RowDates<Line extends object> {
  readonly #spans = new Map<Line, Span>();
  readonly #zone: string | undefined;

  constructor(zone: string | undefined) {
    this.#zone = zone;
  }

  /** A count row's first and last date, added to its pivot row's. */
  add(line: Line, min: unknown, max: unknown): void {
    const span = this.#spans.get(line) ?? {};
    this.#spans.set(line, span);
    for (const [end, value] of [
      ["min", min],
      ["max", max],
    ] as const) {
      if (typeof value !== "string" && typeof value !== "number") continue;
      const rank = rankOf(value, this.#zone);
      if (Number.isNaN(rank)) continue;
      const at = span[end];
      if (!at || (end === "min" ? rank < at.rank : rank > at.rank)) span[end] = { rank, value };
    }
  }

  /** The row's min and max (null for a row of no dated record), set on its laid-out row. */
  put(line: Line, row: Record<string, unknown>): void {
    const span = this.#spans.get(line);
    row.min = span?.min?.value ?? null;
    row.max = span?.max?.value ?? null;
  }
}

/** The columns a dated pivot's rows add after their cells and total. */
export const DATE_SPAN_COLUMNS = ["min", "max"] as const;
