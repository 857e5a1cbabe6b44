/** The inputs where, order_by, count_by and limit, and what computeSpec parses them into (compute.ts). */
import type { Expression } from "../filter/ast.js";
import type { Bucket } from "./buckets.js";
import type { CountCondition, CountInput } from "./count-fields.js";
import type { KeptJoin } from "./kept-join.js";
import type { LimitEach } from "./limit-each.js";
import type { SortKey } from "./order.js";
import type { Difference, SumOf } from "./sum-difference.js";

export interface ComputeInput extends CountInput {
  where?: string | undefined;
  order_by?: string | undefined;
  count_by?: string | undefined;
  /** The first results only, after where, order_by and count_by (the caller cuts finish's rows); "3 per programId". */
  limit?: number | string | undefined;
  /** An IANA zone: where's dates and count_by's date buckets on its clock (validated by the caller). */
  time_zone?: string | undefined;
}

/** The parsed inputs: what `see` tests, how `finish` sorts, what it counts. */
export interface ComputeSpec {
  where?: { text: string; expression: Expression };
  order?: SortKey[];
  countBy?: string[];
  /** With countBy: only the values counted at least this often are the answer's rows. */
  minCount?: number;
  /** With countBy: values grouped ignoring case and outer spaces. */
  ignoreCase?: boolean;
  /** With countBy: each group's count is the number of distinct values of this field among its records. */
  distinct?: string;
  /** With countBy: a numeric field each group adds (its rows' `sum`). */
  sum?: string;
  /** With sum written "a - b": its two fields (sum is that text). */
  difference?: Difference;
  /** With sum: a percentile of each group's values beside the median (its rows' `p90`). */
  percentile?: number;
  /** The count_by columns that count by date ("createdAt:day"): the field each reads and its unit. */
  buckets?: Bucket[];
  /** The count_by columns that are conditions ("leadScore > 50"): true or false for each record. */
  conditions?: CountCondition[];
  /** count_by's conditions holding `in result(…)`, by their text as written: that text with the values in place. */
  keptConditions?: ReadonlyMap<string, string>;
  /** The count_by field written with ":columns": its values are the columns of one row per other value. */
  columns?: string;
  /** The zone whose clock where's dates and the buckets read (else UTC). */
  zone?: string;
  /** The first results only (the caller cuts finish's rows, which it counts first). */
  limit?: number;
  /** The first results of each value of some fields ("3 per programId"; the caller cuts finish's rows). */
  each?: LimitEach;
  /** Fields read from every record beside these (per's listed fields): checked, and entered, as where's are. */
  reads?: { input: string; field: string }[];
  /** Each record gets `joined`, a kept result's row, before anything tests it (kept-join.ts). */
  join?: KeptJoin;
  /** Fields the records already hold as bucket labels (per's rows by "leadScore:25"), which order_by ranks as count_by does. */
  labelled?: Bucket[];
}

/** What the spec's sum reads: its difference's two fields, or its one field. */
export const sumOfSpec = (spec: { sum?: string; difference?: Difference }): SumOf | undefined =>
  spec.difference ?? spec.sum;
