/**
 * count_by's date buckets: a field written "createdAt:day", ":week", ":month", ":quarter" or ":year" counts
 * records per calendar day, ISO week (Monday to Sunday, named by its Monday's date), month, calendar quarter
 * ("2026-Q4") or year of the field's datetime, on the clock of the call's time zone when it names one, else
 * UTC (a model left with months added them into quarters itself: agent trial s9, N54); ":weekday" (Monday …
 * Sunday) and ":hour" (00 … 23) are cyclic, every one listed: a model left to group 3,057 email activities
 * by weekday and hour itself read 98,675 characters (agent trial s8, N35). A model left to bucket timestamps
 * itself read 89,560 characters and miscounted (agent trial s7, N23). The zone's clock is Intl's (../zone-clock.ts), so a
 * day around a DST change is the zone's own 23 or 25 hours.
 */

import { ValidationError } from "../../errors.js";
import { type Expression, expressionFields } from "../filter/ast.js";
import { wallAt } from "../zone-clock.js";
import { edgeLabel, edgeLabels, edgeRank, edgesSuffix, edgeWords } from "./band-edges.js";
import { compareBy, type SortKey } from "./order.js";
import { type FieldReader, fieldReader, numberOf, textOf, timeOf } from "./values.js";

export const BUCKET_UNITS = ["day", "week", "month", "quarter", "year", "weekday", "hour"] as const;
/** A date unit, or "band": a number's band of `width` ("leadScore:25": 0 to <25, 25 to <50, …). */
export type BucketUnit = (typeof BUCKET_UNITS)[number] | "band";

/** A count_by column that counts by date or by a number's band: its column as written, the field it reads, the unit. */
export interface Bucket {
  column: string;
  field: string;
  unit: BucketUnit;
  /** A band's width. */
  width?: number;
  /** Or the bands' edges, "npsScore:(0,7,9)" (band-edges.ts). */
  edges?: number[];
}

/**
 * The most buckets listed between the first and the last seen: beyond it (2.7 years of days) the gaps are
 * not filled in, and the answer says to count by a longer unit.
 */
export const MAX_FILLED = 1_000;

/** The cyclic units' labels, in the order they are listed: every one, a label with no record at 0. */
export const CYCLES: Readonly<Partial<Record<BucketUnit, readonly string[]>>> = {
  weekday: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  hour: Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, "0")),
};

const DAY_MS = 86_400_000;
/** The narrowest band: past a millionth, labels rounded to the billionth ran together ("21 to <21"; review s30, 9). */
const MIN_WIDTH = 0.000001;
const SUFFIX = /^(.*[^:\s]):([A-Za-z]+|\d+(?:\.\d+)?)$/;

/** The units as a refusal lists them: ":day, :week, … and :hour". */
export const UNITS_WORDS = `${BUCKET_UNITS.slice(0, -1)
  .map((unit) => `:${unit}`)
  .join(", ")} and :${BUCKET_UNITS.at(-1)}`;

/** "createdAt:day" as its field and unit; a part with no suffix is undefined; an unknown suffix is refused. */
export function bucketSuffix(
  part: string,
): { head: string; unit: BucketUnit; width?: number; edges?: number[]; written?: string } | undefined {
  const edged = edgesSuffix(part);
  if (edged) return { ...edged, unit: "band" };
  // A quoted name keeps its colons ("a:b"); a suffix follows the closing quote.
  const match = SUFFIX.exec(part.trim());
  if (!match || /^["'][^"']*$/.test(match[1] as string)) return undefined;
  const unit = (match[2] as string).toLowerCase();
  // Score bands from per-score counts were worked out by the model (trials s23, s24; trial s25, N317 and N321).
  if (/^\d/.test(unit)) {
    const width = Number(unit);
    // The column keeps the width as written ("leadScore:25.0"), which order_by names (review s30, finding 9).
    if (width >= MIN_WIDTH) return { head: match[1] as string, unit: "band", width, written: unit };
    const rule = width > 0 ? `is at least ${MIN_WIDTH} wide` : "must be wider than 0";
    throw new ValidationError("count_by", `${JSON.stringify(part.slice(0, 60))}: a band ${rule}.`, {
      hint: 'E.g. "leadScore:25" counts leads by score bands 0 to <25, 25 to <50, ….',
    });
  }
  if ((BUCKET_UNITS as readonly string[]).includes(unit))
    return { head: match[1] as string, unit: unit as BucketUnit };
  throw new ValidationError(
    "count_by",
    `${JSON.stringify(part.slice(0, 60))}: ":${match[2]}" is not a date bucket; the buckets are ${UNITS_WORDS}, or a number's band (:25).`,
    {
      hint: 'E.g. "createdAt:day", "createdAt:quarter" or "activityDate:weekday,activityDate:hour"; double-quote a name that has a colon.',
    },
  );
}

const dateText = (wall: number) => new Date(wall).toISOString().slice(0, 10);

/** "2026-11-30" (or "2026-11") as its calendar quarter, "2026-Q4". */
const quarterOf = (date: string) => `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;

/**
 * A value's bucket, as text ("2026-11-30", the week's Monday "2026-11-30", "2026-11", "2026-Q4", "2026",
 * "Monday", "09"), or null when empty. Each dated label's text order is its date order.
 * A value that is no date or datetime is refused, naming the field and the value.
 */
export function bucketLabel(bucket: Bucket, value: unknown, zone: string | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (bucket.unit === "band") return bandLabel(bucket, value);
  const instant = timeOf(value, zone);
  if (instant === undefined) {
    throw new ValidationError(
      "count_by",
      `${bucket.column} counts by date, and ${bucket.field} holds ${JSON.stringify(textOf(value).slice(0, 60))}, which is not a date or an ISO 8601 datetime.`,
      {
        hint: `Count by a date field with :${bucket.unit} (createdAt, updatedAt, activityDate), or by ${bucket.field} alone.`,
      },
    );
  }
  const wall = zone === undefined ? instant : wallAt(zone, instant);
  const day = Math.floor(wall / DAY_MS) * DAY_MS;
  if (bucket.unit === "hour") return CYCLES.hour?.[new Date(wall).getUTCHours()] ?? null;
  // getUTCDay: 0 is Sunday; an ISO week starts on Monday.
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  if (bucket.unit === "weekday") return CYCLES.weekday?.[weekday] ?? null;
  if (bucket.unit === "day") return dateText(day);
  if (bucket.unit === "month") return dateText(day).slice(0, 7);
  if (bucket.unit === "quarter") return quarterOf(dateText(day));
  if (bucket.unit === "year") return dateText(day).slice(0, 4);
  return dateText(day - weekday * DAY_MS);
}

/** A number's band, "25 to <50" (a value that is no number refused, naming the field). */
function bandLabel(bucket: Bucket, value: unknown): string {
  const number = numberOf(value);
  const width = bucket.width ?? 1;
  if (number === undefined) {
    throw new ValidationError(
      "count_by",
      `${bucket.column} counts by bands${bucket.edges ? "" : ` of ${width}`}, and ${bucket.field} holds ${JSON.stringify(textOf(value).slice(0, 60))}, which is not a number.`,
      {
        // The bands as asked: edges, not a width (review s60, F4).
        hint: `Count by a numeric field with :${bucket.edges ? `(${bucket.edges.join(",")})` : width} (leadScore), or by ${bucket.field} alone.`,
      },
    );
  }
  if (bucket.edges) return edgeLabel(bucket.edges, number);
  return bandOf(bandIndex(number, width) * width, width);
}

/** The decimals a number is written with ("0.25": 2), or undefined past MAX_DECIMALS or in exponent form. */
function decimalsOf(value: number): number | undefined {
  const text = String(value);
  if (/e/i.test(text)) return undefined;
  const decimals = text.split(".")[1]?.length ?? 0;
  return decimals <= MAX_DECIMALS ? decimals : undefined;
}

const MAX_DECIMALS = 12;

/**
 * Which band of `width` a number is in, counted from 0: in whole units of the last decimal either has, since
 * 0.3 / 0.1 is 2.9999999999999996 in floating point and put 0.3 in "0.2 to <0.3" (review s30, finding 1).
 */
function bandIndex(number: number, width: number): number {
  const decimals = Math.max(decimalsOf(number) ?? MAX_DECIMALS, decimalsOf(width) ?? MAX_DECIMALS);
  const scale = 10 ** decimals;
  const whole = Math.round(number * scale);
  const step = Math.round(width * scale);
  if (Number.isSafeInteger(whole) && step > 0) return Math.floor(whole / step);
  return Math.floor(number / width + 1e-9);
}

/** A band's label from its low end; fractions as a person writes them, without float noise. */
const bandOf = (low: number, width: number) => {
  const text = (value: number) => String(Math.round(value * 1e9) / 1e9);
  return `${text(low)} to <${text(low + width)}`;
};

/** Where a band's label sorts: by its low end ("under 0" first). */
const bandLow = edgeRank;

/** The bucket after a label's. */
function next(unit: BucketUnit, label: string, width = 1): string {
  if (unit === "band") return bandOf(bandLow(label) + width, width);
  if (unit === "year") return String(Number(label) + 1);
  if (unit === "quarter") {
    const [year, quarter] = label.split("-Q").map(Number) as [number, number];
    return quarter === 4 ? `${year + 1}-Q1` : `${year}-Q${quarter + 1}`;
  }
  if (unit === "month") {
    const [year, month] = label.split("-").map(Number) as [number, number];
    return dateText(Date.UTC(year, month, 1)).slice(0, 7);
  }
  return dateText(Date.parse(`${label}T00:00:00Z`) + (unit === "week" ? 7 : 1) * DAY_MS);
}

/**
 * Every bucket from the first to the last of `labels` (text order is date order), or undefined when there are
 * more than MAX_FILLED of them.
 */
export function bucketSpan(
  unit: BucketUnit,
  labels: readonly string[],
  width?: number,
  edges?: readonly number[],
): string[] | undefined {
  const cycle = CYCLES[unit];
  if (cycle) return [...cycle];
  if (edges) {
    const ranks = labels.map(edgeRank);
    const [low, high] = [Math.min(...ranks), Math.max(...ranks)];
    return edgeLabels(edges).filter((label) => edgeRank(label) >= low && edgeRank(label) <= high);
  }
  const rank = (label: string) => (unit === "band" ? bandLow(label) : label);
  const sorted = [...labels].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  const first = sorted[0];
  const last = sorted.at(-1);
  if (first === undefined || last === undefined) return [];
  const span = [first];
  while (rank(span.at(-1) as string) < rank(last)) {
    if (span.length >= MAX_FILLED) return undefined;
    span.push(next(unit, span.at(-1) as string, width));
  }
  return span;
}

/** How a unit reads in the summary: "day", "week (Monday to Sunday, named by its Monday)", "month". */
export function unitWords(unit: BucketUnit, width?: number, edges?: readonly number[]): string {
  if (unit === "band" && edges) return edgeWords(edges);
  if (unit === "band") return `band of ${width} (0 to <${width}: from 0, under ${width})`;
  if (unit === "weekday") return "weekday (Monday to Sunday)";
  if (unit === "quarter") return "calendar quarter (Q1 is January to March)";
  if (unit === "hour") return "hour of day (00 to 23)";
  return unit === "week" ? "week (Monday to Sunday, shown as its Monday's date)" : unit;
}

/** Where a cyclic label sorts (Monday before Tuesday), or undefined for a dated unit, whose text sorts. */
export function cycleRank(unit: BucketUnit, label: unknown): number | undefined {
  if (unit === "band") {
    // An empty band (null) reads NaN: no rank.
    const low = bandLow(label);
    return Number.isNaN(low) ? undefined : low;
  }
  const at = CYCLES[unit]?.indexOf(String(label));
  return at === undefined || at < 0 ? undefined : at;
}

type Row = Readonly<Record<string, unknown>>;

/** Rows compared by the keys in turn, a cyclic bucket's by its place in the cycle (Monday before Tuesday). */
export function compareRows(
  keys: readonly SortKey[],
  buckets: readonly Bucket[] = [],
  zone?: string,
): (a: Row, b: Row) => number {
  const parts = keys.map((key) => {
    const unit = buckets.find((bucket) => bucket.column === key.field)?.unit;
    if (!unit || (!CYCLES[unit] && unit !== "band")) return compareBy([key], zone);
    const sign = key.desc ? -1 : 1;
    // An empty value (no band, no weekday) sorts last either way: NaN sorted a blank row between bands (review
    // s31, finding 4).
    return (a: Row, b: Row) => {
      const [x, y] = [cycleRank(unit, a[key.field]), cycleRank(unit, b[key.field])];
      if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
      return sign * (x - y);
    };
  });
  return (a, b) => {
    for (const part of parts) {
      const c = part(a, b);
      if (c !== 0) return c;
    }
    return 0;
  };
}

/**
 * A count_by bucket named in where ("createdAt:weekday") is no field: an export sent it to Marketo, which refused
 * it as an unknown field, and the advice to list the fields did not help (trial s26, N348).
 */
export function refuseBucketInWhere(expression: Expression): void {
  const isBucket = (field: string) => {
    try {
      return bucketSuffix(field) !== undefined;
    } catch {
      return false;
    }
  };
  const bucket = expressionFields(expression).find(isBucket);
  if (bucket === undefined) return;
  throw new ValidationError(
    "where",
    `${bucket} is a count_by bucket, not a field: where tests the records' fields.`,
    {
      hint: `Count by ${bucket} instead, or test its field in where (e.g. ${bucket.split(":")[0]} >= ${
        bucketSuffix(bucket)?.unit === "band" ? "25" : '"2026-11-01"'
      }).`,
    },
  );
}

/**
 * A row of count 0 for each bucket no record fell in: between the first and last counted of the first
 * column's dates, or every weekday or hour; when every column is cyclic, every combination (7 × 24 cells).
 */
export function gapRows(
  fields: readonly string[],
  buckets: readonly Bucket[] | undefined,
  counted: readonly Row[],
): Row[] | { unfilled: number } {
  const bucketOf = (field: string) => buckets?.find((bucket) => bucket.column === field);
  const cyclic = fields.every((field) => CYCLES[bucketOf(field)?.unit ?? "day"] !== undefined);
  const fill = (cyclic ? fields : fields.slice(0, 1)).map((field) => bucketOf(field) as Bucket);
  const spans: string[][] = [];
  for (const bucket of fill) {
    const labels = counted.map((row) => row[bucket.column]).filter((l) => typeof l === "string");
    const span = bucketSpan(bucket.unit, labels as string[], bucket.width, bucket.edges);
    if (!span) return { unfilled: new Set(labels).size };
    spans.push(span);
  }
  const key = (row: Readonly<Record<string, unknown>>) => JSON.stringify(fill.map((b) => row[b.column]));
  const seen = new Set(counted.map(key));
  let cells: Row[] = [{}];
  fill.forEach((bucket, i) => {
    cells = cells.flatMap((cell) => (spans[i] ?? []).map((label) => ({ ...cell, [bucket.column]: label })));
  });
  return cells
    .filter((cell) => !seen.has(key(cell)))
    .map((cell) => ({
      ...Object.fromEntries(fields.map((field) => [field, cell[field] ?? null])),
      count: 0,
    }));
}

/**
 * A bucket's refusal (a unit that is none, a band too narrow) as the input that named it: per, count_distinct
 * (bucketSuffix words them as count_by's).
 */
export function asInput<T>(run: () => T, input: string): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof ValidationError) || error.field !== "count_by") throw error;
    const hint = error.hint;
    const text = error.message.slice("Invalid count_by: ".length, hint ? -(hint.length + 1) : undefined);
    throw new ValidationError(input, text, hint ? { hint: hint.replace(/^Count by /, "List ") } : {});
  }
}

/** A name as the bucket it is ("activityDate:day", "leadScore:25"), or undefined for a plain field. */
export function bucketNamed(name: string, input: string): Bucket | undefined {
  const suffix = asInput(() => bucketSuffix(name), input);
  if (!suffix) return undefined;
  return {
    column: name,
    field: suffix.head,
    unit: suffix.unit,
    ...(suffix.width !== undefined ? { width: suffix.width } : {}),
    ...(suffix.edges ? { edges: suffix.edges } : {}),
  };
}

/**
 * A bucket's reader: its field's value as the bucket it falls in, on the zone's clock (else UTC); a value that is no
 * date, or no number for a band, is refused as the input that named it (count_by, per, count_distinct).
 */
export function bucketReader(bucket: Bucket, zone: string | undefined, input = "count_by"): FieldReader {
  const read = fieldReader(bucket.field);
  if (input === "count_by") return (record) => bucketLabel(bucket, read(record), zone);
  return (record) => asInput(() => bucketLabel(bucket, read(record), zone), input);
}

/** A name's reader: a path, or the bucket or band it is written as ("activityDate:day"), for `input`. */
export function namedReader(name: string, zone: string | undefined, input: string): FieldReader {
  const bucket = bucketNamed(name, input);
  return bucket ? bucketReader(bucket, zone, input) : fieldReader(name);
}
