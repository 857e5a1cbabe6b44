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
import { isObject, itemListOf } from "./values.js";

type Row = Readonly<Record<string, unknown>>;

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
  /** Records counted as themselves, having no item of the list (an empty list, or none). */
  whole = 0;
  /** The lists whose items were counted. */
  readonly lists = new Set<string>();
  /** Whether where chose the items counted (it names a key of their items). */
  itemsMeetWhere = false;
  /** With sum: its total over the records whose items were counted, each once (compute-words.ts says it). */
  recordsSum = 0;
  readonly #paths: [string, string][];
  readonly #named: string[];
  readonly #test: RecordTest | undefined;
  readonly #sum: string | undefined;
  readonly #sumOf: ((record: Row) => number) | undefined;

  /**
   * `fields`: what count_by reads (a bucket's field, not a condition's); `where` and its record `test`; `sum`,
   * the field a sum adds.
   */
  constructor(
    fields: readonly string[],
    o: {
      where?: Expression | undefined;
      test?: RecordTest | undefined;
      sum?: string | undefined;
      sumOf?: ((record: Row) => number) | undefined;
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
      this.whole += 1;
      return [record];
    }
    this.#check(heads, head, record);
    this.lists.add(head);
    // Only a where that reads a key of the items tests each item ("tokens.value"); one that reads a value by
    // its name ("tokens.Headline") is about the record, whose items all count (review s26, finding 6).
    // Mixed with a value by name (tokens.Headline … and tokens.type …), the where is about the record, whose
    // items then all count: a one-item list has no name but its own (review s27, finding 6).
    const under = this.#named.filter((field) => field.startsWith(`${head}.`));
    const byItem = under.length > 0 && under.every((field) => itemListOf(record, field) === head);
    const test = byItem ? this.#test : undefined;
    if (test) this.itemsMeetWhere = true;
    const items = (record[head] as unknown[]).filter((item) => !test || test({ ...record, [head]: [item] }));
    this.items += items.length;
    if (this.#sumOf && items.length > 0) this.recordsSum += this.#sumOf(record);
    return items.map((item) => ({ ...record, [head]: item }));
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
    const sum = this.#sum;
    if (sum?.startsWith(`${head}.`) && itemListOf(record, sum) !== head) {
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
  },
  test: RecordTest | undefined,
): Unnest {
  const where = spec.where?.expression;
  const { sum } = spec;
  const summing = sumItems(sum, where, test).sumItems;
  return new Unnest(readFields(spec), {
    ...{ where, test, sum },
    sumOf: sum ? (record) => recordSum(record, sum, summing) : undefined,
  });
}
