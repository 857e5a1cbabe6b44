/** sum's percentile after its field ("next_hours:p90"), parsed and refused before anything is read (count-fields.ts). */
import { ValidationError } from "../../errors.js";

/** A percentile after sum's field: "next_hours:p90" (trial s42, N588: a model listed 44 rows for a 90th percentile). */
const PERCENTILE = /\s*:\s*p(\d{1,2})$/i;

export /** sum's field and its percentile ("next_hours:p90"), one outside p1 to p99 refused before the read. */
function sumPercentile(sum: string | undefined): {
  sumText: string | undefined;
  percentile: number | undefined;
} {
  const input = { sum };
  const marked = input.sum === undefined ? undefined : PERCENTILE.exec(input.sum);
  const percentile = marked ? Number(marked[1]) : undefined;
  const sumText = marked && input.sum !== undefined ? input.sum.slice(0, marked.index) : input.sum;
  // p100, p95.5 or :median were refused as a field no record has, after the read (review s52, 6).
  const near = marked ? undefined : /:\s*(p[^:]*|median|mean|percentile[^:]*)$/i.exec(input.sum ?? "");
  if (near)
    throw new ValidationError(
      "sum",
      `${JSON.stringify(near[1])} is no percentile: p1 to p99, a whole number.`,
      {
        hint: `E.g. sum "${(input.sum ?? "").slice(0, near.index)}:p90"; each row has its median already (of numbers, its mean too).`,
      },
    );
  if (percentile === 0) {
    throw new ValidationError(
      "sum",
      "its percentile is p1 to p99 (p0 is min, p100 max, which each row has).",
      {
        hint: `E.g. sum "${sumText}:p90": each row's p90 is the value 90 % of its values are at or below.`,
      },
    );
  }
  return { sumText, percentile };
}
