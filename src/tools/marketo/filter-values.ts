/**
 * filterValues is a comma-separated list of values, at most 300 a call (Get Leads by Filter Type,
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#query). A range
 * written "1..5000" is one value no record has: Marketo answers no records and no error, which an agent read as
 * "no leads" (trial s27, N367).
 */
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";

const RANGE = /^\s*-?\d+\s*(?:\.\.\.?|…)\s*-?\d+\s*$/;
/** With filterType id (whole numbers), "1-50" and "1 to 50" are ranges too (review s31, finding 5). */
const ID_RANGE = /^\s*\d+\s*(?:-|–|to)\s*\d+\s*$/i;

/** Refuses filterValues written as a range of numbers, which Marketo would read as one value. */
export function checkFilterValues(input: Pick<MarketoApiCallInput, "query_parameters">): void {
  const values = input.query_parameters?.filterValues;
  if (values === undefined) return;
  const list = Array.isArray(values) ? values.map(String) : String(values).split(",");
  const ids = /^id$/i.test(String(input.query_parameters?.filterType ?? ""));
  const range = list.find((value) => RANGE.test(value) || (ids && ID_RANGE.test(value)));
  if (!range) return;
  throw new ValidationError(
    "query_parameters.filterValues",
    `"${range.trim()}" is read by Marketo as one value, not a range, and no record has it: filterValues lists each value, separated by commas, at most 300 a call.`,
    {
      hint: 'List the values, e.g. {"filterType":"id","filterValues":"1,2,3"}; past 300, send the rest in further calls, or export the records (/bulk/v1/leads/export/create.json with run_to_completion).',
    },
  );
}
