/**
 * count_by through a list of objects each record holds: "tokens.type" of a program's `tokens: [{name, type,
 * value}]` (Get Tokens by Folder Id, https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/tokens),
 * "costs.startDate:month" of its `costs`. Each item of the list is counted, as if it were the record's only item,
 * so "tokens by type over 30 programs" is one call; the model counted 78 tokens by hand (trial s22, N275). When
 * `where` names a path in the same list ("tokens.value contains "2025""), only the items it holds for are counted
 * (as sum.ts's sumItems adds only those). A path whose next name is no key of the list's items reads the list as
 * before: a name/value list as an object of name → value (values.ts), so "tokens.Headline" is a token's value.
 */
import { type Expression, expressionFields } from "../filter/ast.js";
import type { RecordTest } from "./match.js";
import { isObject } from "./values.js";

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
  /** The lists whose items were counted. */
  readonly lists = new Set<string>();
  /** Whether where chose the items counted (it names a path in their list). */
  itemsMeetWhere = false;
  readonly #paths: [string, string][];
  readonly #itemTest: ((head: string) => RecordTest | undefined) | undefined;

  /** `fields`: what count_by reads (a bucket's field, not a condition's); `test`: where's record test. */
  constructor(fields: readonly string[], where: Expression | undefined, test: RecordTest | undefined) {
    this.#paths = fields.flatMap((field) => {
      const parts = partsOf(field);
      return parts ? [parts] : [];
    });
    const named = where ? expressionFields(where) : [];
    this.#itemTest =
      test && named.length > 0
        ? (head) => (named.some((field) => field.startsWith(`${head}.`)) ? test : undefined)
        : undefined;
  }

  /** What a record counts as: its list's items (each in the list's place), or the record itself. */
  records(record: Row): Row[] {
    const head = this.#paths.find(([name, key]) => {
      const list = record[name];
      // An empty list has no item to count (a program without tokens adds none).
      return (
        Array.isArray(list) &&
        (list.length === 0 || list.some((item) => isObject(item) && Object.hasOwn(item, key)))
      );
    })?.[0];
    if (head === undefined) return [record];
    this.lists.add(head);
    const test = this.#itemTest?.(head);
    if (test) this.itemsMeetWhere = true;
    const items = (record[head] as unknown[]).filter((item) => !test || test({ ...record, [head]: [item] }));
    this.items += items.length;
    return items.map((item) => ({ ...record, [head]: item }));
  }
}
