/**
 * where's `<field> [not] in result("<a kept result's link>"[, "<column>"])`: the values of a column of a result kept
 * earlier (default: the field's own name), so that a set question is answered without reading the set back. Trial
 * s32 N458 ("people on no static list and in no program"): both agents read the members of 10 lists and 30
 * programs whole (89,000 and 213,000 characters) to compare ids in Python; with the lists' and the programs' rows
 * kept, a lead export with where `id not in result(…) and id not in result(…)` answers in one call.
 *
 * The reference is replaced by the literal list before where is parsed; the answer's words keep the text as given.
 */
import { ValidationError } from "../../errors.js";
import { isObject } from "./values.js";

/** A field (bare or double-quoted), "not"?, "in result(", the link, and a column. */
const REFERENCE = /([A-Za-z_][\w.]*|"[^"]+")(\s+not)?\s+in\s+result\(\s*"([^"]+)"\s*(?:,\s*"([^"]+)"\s*)?\)/g;

/** A kept result's id in its link: martech-steps://results/<id>.json, .csv, ?page=…; a console's …/results/<id>. */
const RESULT_ID = /results\/([A-Za-z0-9_-]+)(?:\.(?:json|csv))?(?:\?[^"]*)?$/;

type KeptItems = (id: string) => Promise<readonly unknown[] | undefined>;

/**
 * `in result(…)` is where's: count_by's condition columns are named by their text, which a list of thousands of ids
 * would be (trial s32, third run: count_by "id in result(…)" was refused as a syntax error, naming neither).
 */
export function refuseOutsideWhere(inputs: { count_by?: string | undefined }): void {
  const condition = inputs.count_by?.match(/([A-Za-z_][\w.]*|"[^"]+")(\s+not)?\s+in\s+result\(/)?.[0];
  if (!condition) return;
  throw new ValidationError(
    "count_by",
    "in result(…) is taken by where only, not by count_by's conditions.",
    {
      hint: `Put it in where: where "${condition}…)" counts the records in it, where "${condition.replace(/\s+in\s+result\($/, " not in result(")}…)" the others.`,
    },
  );
}

/** where with each `in result(…)` replaced by its values, or undefined when it has none. */
export async function keptLists(
  where: string | undefined,
  kept: KeptItems | undefined,
): Promise<string | undefined> {
  if (where === undefined || !where.includes("result(")) return undefined;
  const references = [...where.matchAll(REFERENCE)];
  if (references.length === 0) return undefined;
  let out = where;
  for (const [whole, field = "", not = "", link = "", column] of references) {
    const name = column ?? field.replace(/^"|"$/g, "");
    const values = await columnValues(link, name, kept);
    out = out.replace(whole, `${field}${not} in (${values.join(", ")})`);
  }
  return out;
}

async function columnValues(link: string, column: string, kept: KeptItems | undefined): Promise<string[]> {
  if (!kept) {
    throw new ValidationError("where", "in result(…) reads a kept result, which this client does not keep.", {
      hint: "Give the values as a list, e.g. id in (1, 2, 3), or make both calls over MCP or in the console.",
    });
  }
  const id = RESULT_ID.exec(link)?.[1];
  const items = id === undefined ? undefined : await kept(id);
  if (!items) {
    throw new ValidationError(
      "where",
      `no kept result at ${link.slice(0, 200)}: it has expired, or is another workspace's.`,
      {
        hint: "Run the call that gave it again and put the link of its Full result (resource_link) in result(…).",
      },
    );
  }
  const rows = items.filter(isObject);
  if (!rows.some((row) => Object.hasOwn(row, column))) {
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].slice(0, 20);
    throw new ValidationError("where", `the kept result at ${link.slice(0, 200)} has no column ${column}.`, {
      hint: `Name its column after the link, e.g. result("${link.slice(0, 200)}", "${columns[0] ?? "id"}"); its columns: ${columns.join(", ")}.`,
    });
  }
  const values = [
    ...new Set(rows.map((row) => row[column]).filter((v) => v !== null && v !== undefined && v !== "")),
  ];
  if (values.length === 0) {
    throw new ValidationError(
      "where",
      `the kept result's column ${column} holds no value: nothing is in it.`,
      {
        hint: "Leave the condition out (nothing is in an empty result), or check the call that gave it.",
      },
    );
  }
  // Ids read from a file are text ("123"): written as numbers, they equal a record's 123 and "123" alike.
  return values.map((value) =>
    typeof value === "number" || /^-?\d+(\.\d+)?$/.test(String(value))
      ? String(value)
      : JSON.stringify(String(value)),
  );
}
