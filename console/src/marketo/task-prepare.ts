/**
 * What the page does with a Marketo task's values before the server builds the call (src/tools/marketo/
 * tasks.ts): an export's `where` typed with the lead fields' display names becomes their API names, and
 * leads typed as emails become their ids (console/src/lead-emails.ts). Before an add to a list, which
 * members are already on it: Marketo answers "added" for a lead already on the list too (the sandbox
 * does as the service, src/sandbox/marketo/lists/lists.ts), so the page asks Member of List first
 * (console/src/marketo/list-membership.ts).
 */
import type { TaskView } from "../../../src/tools/tasks.ts";
import type { ErrorInfo } from "../api.ts";
import { csvHeaderInApiNames, fieldListInApiNames, fieldNamed, noField } from "../column-names.ts";
import { taskFieldHelp } from "../field-words.ts";
import { inApiNames, nameProblem } from "../person-filters.ts";
import { type Lead, LeadLookupError, type Lookups, leadsFromEmails, unknownEmails } from "./lead-emails.ts";
import { marketoLeadFields } from "./lead-fields.ts";
import { listChangeOf, readMembership } from "./list-membership.ts";

type Values = Record<string, string>;

export interface Prepared {
  values: Values;
  /** The leads read while preparing, by id (the confirm and the result name them from here). */
  leads: Map<string, Lead>;
  /** Emails typed that no lead has. */
  unknown: string[];
}

const fieldTitle = (task: TaskView, name: string) => task.fields.find((f) => f.name === name)?.title ?? name;

/** Whether the task names lead fields: an export of leads, or an upsert. */
const namesLeadFields = (task: TaskView, values: Values) =>
  (task.id === "export" && values.what !== "activities") || task.id === "upsert_leads";

/**
 * The values with the lead fields named as a person sees them (display names, any case: "First Name,
 * Lead Score", a CSV header "Email") in API names: an export's columns and `where`, an upsert's header
 * line and its field to match on. As typed when the instance's fields cannot be read.
 */
async function inLeadFieldNames(
  task: TaskView,
  values: Values,
  signal: AbortSignal,
): Promise<{ values: Values; problem?: undefined } | { problem: ErrorInfo }> {
  // A copy: the caller's values are the form's state, which the ids found for emails must not change.
  const next = { ...values };
  if (!namesLeadFields(task, values)) return { values: next };
  const fields = await marketoLeadFields(task.step, signal).catch(() => undefined);
  if (!fields || fields.length === 0) return { values: next };
  const refuse = (field: string, message: string) => ({
    problem: nameProblem(field, fieldTitle(task, field), message),
  });
  const where = values.where?.trim();
  if (task.id === "export" && where) {
    const named = inApiNames(where, fields, "where", fieldTitle(task, "where"));
    if (named.problem) return { problem: named.problem };
    next.where = named.text;
  }
  if (task.id === "export" && values.fields) {
    const list = fieldListInApiNames(values.fields, fields);
    if (!list.ok) return refuse("fields", `${list.message} ${fieldHelp(task, "fields")}`);
    next.fields = list.value.join(", ");
  }
  if (task.id === "upsert_leads" && values.csv) {
    const csv = csvHeaderInApiNames(values.csv, fields);
    if (!csv.ok) return refuse("csv", `${csv.message} ${fieldHelp(task, "csv")}`);
    next.csv = csv.value;
  }
  if (task.id === "upsert_leads" && values.match) {
    const match = fieldNamed(values.match, fields);
    if (!match) return refuse("match", `${noField(values.match.trim(), fields, "lead field")}`);
    next.match = match.api;
  }
  return { values: next };
}

/** The help the form shows under a field: a refused name is told the same rule (trial s8, finding 4). */
const fieldHelp = (task: TaskView, name: string) =>
  taskFieldHelp(task.id, name, task.fields.find((field) => field.name === name)?.help) ?? "";

/** The values the server gets, or the problem to show under a field. */
export async function prepareTask(
  task: TaskView,
  values: Values,
  signal: AbortSignal,
  lookups?: Lookups,
): Promise<{ prepared: Prepared; problem?: undefined } | { problem: ErrorInfo }> {
  const named = await inLeadFieldNames(task, values, signal);
  if (named.problem) return { problem: named.problem };
  const next = named.values;
  if (!task.fields.some((field) => field.name === "leads") || !values.leads)
    return { prepared: { values: next, leads: new Map(), unknown: [] } };
  try {
    const typed = await leadsFromEmails(task.step, values.leads, signal, lookups);
    if (!typed.ids && typed.unknown.length > 0)
      return { problem: nameProblem("leads", fieldTitle(task, "leads"), `${unknownEmails(typed.unknown)}.`) };
    next.leads = typed.ids;
    return { prepared: { values: next, leads: typed.leads, unknown: typed.unknown } };
  } catch (error) {
    if (error instanceof LeadLookupError) return { problem: error.info };
    throw error;
  }
}

/** The ids of the leads an add would put on a list that are on it already (none for any other call). */
export async function alreadyOnList(
  task: TaskView,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Set<string>> {
  const change = listChangeOf(input);
  if (task.id !== "list_members" || input.method !== "POST" || !change) return new Set();
  const members = await readMembership(task.step, change.list, change.ids, signal);
  return new Set([...members].flatMap(([id, member]) => (member ? [id] : [])));
}
