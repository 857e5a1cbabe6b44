/** What a Counter is given (count.ts), and how it reads each count_by field of a record. */
import { expressionFields } from "../filter/ast.js";
import { type Bucket, bucketReader } from "./buckets.js";
import type { CountCondition } from "./count-fields.js";
import { itemWise, recordTest } from "./match.js";
import type { SumOf } from "./sum-difference.js";
import { type FieldReader, fieldReader } from "./values.js";

export interface CounterOptions {
  /** Values grouped ignoring case and outer spaces (and, with distinct, its values compared so too). */
  ignoreCase?: boolean;
  /** Each group counts the distinct values of this field among its records, not the records. */
  distinct?: string;
  /** The fields that count by date ("createdAt:day"): each such field's value read as its bucket. */
  buckets?: readonly Bucket[];
  /** The fields that are conditions ("leadScore > 50"): each record's value is whether it holds. */
  conditions?: readonly CountCondition[];
  /** The zone whose clock the buckets read (else UTC). */
  zone?: string;
  /** A numeric field whose values each group adds (a path through a list adds every item's). */
  sum?: SumOf;
  /** With sum: a percentile of each group's values, in a column p<percent> after the median. */
  percentile?: number;
  /** With sum through a list that where names: only the list's items this test holds for are added. */
  sumItems?: { list: string; test: (record: Readonly<Record<string, unknown>>) => boolean };
}

/** The reader of a count_by field: its value, or for a date bucket the bucket its value falls in. */
export function countReader(field: string, options: CounterOptions): FieldReader {
  const condition = options.conditions?.find((candidate) => candidate.column === field);
  if (condition) {
    const fields = expressionFields(condition.expression);
    const test = itemWise(recordTest(condition.expression, options.zone, "count_by"), fields);
    return (record) => test(record);
  }
  const bucket = options.buckets?.find((candidate) => candidate.column === field);
  return bucket ? bucketReader(bucket, options.zone) : fieldReader(field);
}
