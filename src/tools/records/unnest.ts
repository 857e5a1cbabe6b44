/**
 * count_by through a list of objects each record holds: "tokens.type" of a program's `tokens: [{name, type,
 * value}]` (Get Tokens by Folder Id, https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/tokens),
 * "costs.startDate:month" of its `costs`. Each item of the list is counted, as if it were the record's only item,
 * so "tokens by type over 30 programs" is one call; the model counted 78 tokens by hand (trial s22, N275). When
 * `where` names a path in the same list ("tokens.value contains "2025""), only the items it holds for are counted
 * (as sum.ts's sumItems adds only those). A path whose next name is no key of the list's items reads the list as
 * before: a name/value list as an object of name → value (values.ts), so "tokens.Headline" is a token's value.
 */

import { ValidationError } from "../../errors.js";
import { type Expression, expressionFields } from "../filter/ast.js";
import type { RecordTest } from "./match.js";
import { recordSum, sumItems } from "./sum.js";
import { type Difference, type SumOf, sumFields } from "./sum-difference.js";
import { isObject, itemListOf, itemView } from "./values.js";

type Row = Readonly<Record<string, unknown>>;

/** A key as an item of a list holds it (camelCase), not a value's name ("Campaign Run ID"). */
const ITEM_KEY = /^[a-z][A-Za-z0-9]*$/;

/** The top-level list a path runs through ("tokens" of "tokens.type"), and the key it reads in each item. */
const partsOf = (field: string): [string, string] | undefined => {
  const [head, key] = field.split(".");
  return head && key ? [head, key] : undefined;
};

/** What count_by reads: each field, a bucket's field for a bucket, nothing for a condition. */
export function readFields(spec: {
  countBy?: readonly string[] | undefined;
  buckets?: readonly { column: string; field: string }[] | undefined;
  conditions?: readonly { column: string }[] | undefined;
}): string[] {
  return (spec.countBy ?? []).flatMap((column) =>
    spec.conditions?.some((condition) => condition.column === column)
      ? []
      : [spec.buckets?.find((bucket) => bucket.column === column)?.field ?? column],
  );
}

export class Unnest {
  /** Items counted in place of their records. */
  items = 0;
  /** Records counted as themselves, having no list whose items were counted. */
  whole = 0;
  /** Records with an empty list whose items other records had counted: stated apart, not counted. */
  none = 0;
  /**
   * Records with an empty list, kept until every record is seen: whether the path reads a key of the list's items
   * (costs.startDate) or a value by its name (attributes.Campaign Run ID) is known only from a record that has
   * items. Items are what the counts are of, so a program without costs is no item of costs (review s28,
   * finding 2: 22 programs without costs took half of "cost entries per month"); an activity without attributes
   * is still counted by an attribute's name (47e3689), in whatever order the records come.
   */
  readonly #empty: Row[] = [];
  /** The lists whose items were counted. */
  readonly lists = new Set<string>();
  /** Whether where chose the items counted (it names a key of their items). */
  itemsMeetWhere = false;
  /** With sum: its total over the records whose items were counted, each once (compute-words.ts says it). */
  recordsSum = 0;
  readonly #paths: [string, string][];
  readonly #named: string[];
  readonly #test: RecordTest | undefined;
  readonly #sum: SumOf | undefined;
  readonly #sumOf: SumOfRecord | undefined;

  /**
   * `fields`: what count_by reads (a bucket's field, not a condition's); `where` and its record `test`; `sum`,
   * the field a sum adds.
   */
  constructor(
    fields: readonly string[],
    o: {
      where?: Expression | undefined;
      test?: RecordTest | undefined;
      sum?: SumOf | undefined;
      sumOf?: SumOfRecord | undefined;
    },
  ) {
    this.#paths = fields.flatMap((field) => {
      const parts = partsOf(field);
      return parts ? [parts] : [];
    });
    this.#named = o.where ? expressionFields(o.where) : [];
    this.#test = o.test;
    this.#sum = o.sum;
    this.#sumOf = o.sumOf;
  }

  /** What a record counts as: its list's items (each in the list's place), or the record itself. */
  records(record: Row): Row[] {
    const heads = [
      ...new Set(
        this.#paths.flatMap(([name, key]) => {
          const list = record[name];
          // A record whose list is empty (a program without tokens) counts once, its value empty, as one
          // without the list does: none is dropped, in whatever order the records come.
          const holds =
            Array.isArray(list) && list.some((item) => isObject(item) && Object.hasOwn(item, key));
          return holds ? [name] : [];
        }),
      ),
    ];
    const [head] = heads;
    if (head === undefined) {
      const empty = this.#paths.some(([name]) => Array.isArray(record[name]) && record[name].length === 0);
      if (empty) this.#empty.push(record);
      else {
        this.whole += 1;
        // A record counted as itself is one of the records whose own total records_sum states (review s45, 1:
        // with a join, the 507 records with no joined rows were left out of it).
        if (this.#sumOf) this.recordsSum += this.#sumOf(record);
      }
      return empty ? [] : [record];
    }
    this.#check(heads, head, record);
    this.lists.add(head);
    // Only a where that reads a key of the items tests each item ("tokens.value"); one that reads only values
    // by their names ("tokens.Headline") is about the record, whose items all count (review s26, finding 6).
    // Mixed (tokens.Headline … and tokens.type …), each item is tested with the names read on the whole record
    // (itemView: review s27, finding 6; review s28, finding 1).
    const under = this.#named.filter((field) => field.startsWith(`${head}.`));
    const byItem = under.some((field) => itemListOf(record, field) === head);
    const test = byItem ? this.#test : undefined;
    if (test) this.itemsMeetWhere = true;
    const items = (record[head] as unknown[]).filter((item) => !test || test(itemView(record, head, item)));
    this.items += items.length;
    if (this.#sumOf && items.length > 0) this.recordsSum += this.#sumOf(record, { head, items });
    return items.map((item) => ({ ...record, [head]: item }));
  }

  /**
   * After the last record: the records with an empty list, counted as themselves only when the path reads a value
   * by its name. That is known from a record with items; when none has any, a key written as an item's key is
   * (camelCase: costs.note, tokens.type), a name is not (attributes.Campaign Run ID, Marketo's attribute names:
   * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities). Review s29,
   * finding 5: programs without costs read "4 entries with no note" when no matching program had a cost.
   */
  finish(add: (record: Row) => void): void {
    for (const record of this.#empty.splice(0)) {
      const counted = this.#paths.some(
        ([name, key]) => Array.isArray(record[name]) && (this.lists.has(name) || ITEM_KEY.test(key)),
      );
      if (counted) this.none += 1;
      else {
        this.whole += 1;
        if (this.#sumOf) this.recordsSum += this.#sumOf(record);
        add(record);
      }
    }
  }

  /** Refuses counting the items of two lists at once, and a sum of a value by name in the counted list. */
  #check(heads: readonly string[], head: string, record: Row): void {
    if (heads.length > 1) {
      throw new ValidationError(
        "count_by",
        `count_by counts the items of one list at a time, and ${heads.join(" and ")} are both lists of each record.`,
        { hint: `Count by the paths in ${heads[0]} in one call and those in ${heads[1]} in another.` },
      );
    }
    // Each field a sum reads, both of a difference's (review s56, F1: "a - b" was tested whole, never a key).
    const sum = sumFields(this.#sum).find((f) => f.startsWith(`${head}.`) && itemListOf(record, f) !== head);
    if (sum) {
      throw new ValidationError(
        "sum",
        `${sum} reads a value by its name in ${head}, whose items count_by counts one by one.`,
        { hint: `Sum a key of ${head}'s items (e.g. ${head}.value), or count by fields outside ${head}.` },
      );
    }
  }
}

/** The Unnest of a computation: what its count_by reads, its where, and its sum as each record adds it. */
export function unnestFor(
  spec: Parameters<typeof readFields>[0] & {
    where?: { expression: Expression } | undefined;
    sum?: string | undefined;
    difference?: Difference | undefined;
    zone?: string | undefined;
  },
  test: RecordTest | undefined,
): Unnest {
  const where = spec.where?.expression;
  const sum: SumOf | undefined = spec.difference ?? spec.sum;
  const summing = sumItems(sum, where, test).sumItems;
  // On the call's clock, as the rows' sums (review s56, F4).
  const sumOf: SumOfRecord | undefined =
    sum === undefined
      ? undefined
      : (record, counted) => {
          // A difference reading a key of the counted items: each item's own, as the rows add them (review s56, F1).
          if (
            typeof sum !== "string" &&
            counted &&
            sumFields(sum).some((f) => f.startsWith(`${counted.head}.`))
          )
            return counted.items.reduce<number>(
              (total, item) =>
                total + recordSum({ ...record, [counted.head]: item }, sum, undefined, spec.zone),
              0,
            );
          return recordSum(record, sum, summing, spec.zone);
        };
  return new Unnest(readFields(spec), { ...{ where, test, sum }, sumOf });
}

/** A record's own sum, once (records_sum); `counted`, the list whose items count_by counts and those counted. */
type SumOfRecord = (record: Row, counted?: { head: string; items: readonly unknown[] }) => number;
