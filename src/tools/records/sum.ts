/**
 * count_by's `sum`: a number per record added per group, e.g. a program's period costs, `costs.cost`, whose
 * path runs through a list (Get Program by Id's `costs: [{startDate, cost, note}]`, Adobe's Programs page,
 * "Costs": https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs), so
 * every item's value is added. Left to the model, "spend per program" was its own arithmetic (issue 27).
 */
import { ValidationError } from "../../errors.js";
import { innerObject, isEmpty, isObject, numberOf, textOf } from "./values.js";

/** The values a path reads in a record, through objects, name/value lists and lists of objects. */
export function valuesAt(record: Readonly<Record<string, unknown>>, field: string): unknown[] {
  if (Object.hasOwn(record, field)) return spread([record[field]]);
  const parts = field.split(".");
  let at: unknown[] = [record];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    at = at.flatMap((container) => {
      if (!isObject(container) || !Object.hasOwn(container, part)) return [];
      // A name/value list or JSON text is entered as an object (an activity's attributes); a list item by item.
      const inner = last ? undefined : innerObject(container, part);
      return inner ? [inner] : spread([container[part]]);
    });
  });
  return at.filter((value) => !isEmpty(value));
}

const spread = (values: unknown[]): unknown[] => values.flatMap((v) => (Array.isArray(v) ? v : [v]));

/** The sum of a record's values at `field` (0 when it has none); a value that is no number is refused. */
export function recordSum(record: Readonly<Record<string, unknown>>, field: string): number {
  let sum = 0;
  for (const value of valuesAt(record, field)) {
    const number = numberOf(value);
    if (number === undefined) {
      throw new ValidationError(
        "sum",
        `${field} holds ${JSON.stringify(textOf(value).slice(0, 60))}, which is not a number: sum adds numbers.`,
        { hint: `Sum a numeric field (e.g. costs.cost), or count by ${field} instead.` },
      );
    }
    sum += number;
  }
  return sum;
}
