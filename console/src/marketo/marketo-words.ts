/**
 * A Marketo result's headline in a marketer's words (issue 28 §1): what happened to which leads, list or
 * campaign, by name ("Added 3 leads to Webinar Registrants Q3"), where the step's own summary speaks to
 * an agent ("POST /rest/v1/lists/12/leads.json: Marketo answered 3 results: added 3, 1 call"). That summary
 * stays on the page, under Details. Built from what the page has: the task's values, the names picked for
 * them and the records Marketo answered (src/schemas/marketo.ts, MarketoApiCallOutput).
 */
import type { RunResult } from "../api.ts";
import { dayWords } from "../time-words.js";

type Row = Record<string, unknown>;

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;
const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** A lead as a person names it: "Ada Kowalski (ada@example.com)", or what of it is known. */
export function leadName(lead: Row): string {
  const name = [text(lead.firstName), text(lead.lastName)].filter(Boolean).join(" ");
  const email = text(lead.email);
  if (name && email) return `${name} (${email})`;
  return name || email || (lead.id === undefined ? "a lead" : `lead ${String(lead.id)}`);
}

/** "A, B and C", "A, B, C and 4 more" (of `total`, of which `names` were read). */
function listed(names: string[], total: number, shown = 3): string {
  const head = names.slice(0, shown);
  const more = total - head.length;
  const all = more > 0 ? [...head, `${count(more)} more`] : head;
  return all.length <= 1 ? (all[0] ?? "") : `${all.slice(0, -1).join(", ")} and ${all.at(-1)}`;
}

/** How many records Marketo answered with each status ("added", "skipped"…). */
function byStatus(rows: Row[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const status = text(row.status);
    if (status) counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return counts;
}

/** The records read: the kept result's count when there is one (an export), else the answer's own. */
function rowsOf(result: RunResult): { rows: Row[]; total: number } {
  const rows = Array.isArray(result.data.result) ? (result.data.result as Row[]) : [];
  return { rows, total: result.kept?.items ?? rows.length };
}

function skippedWords(result: RunResult): string {
  const skipped = Array.isArray(result.data.record_errors) ? result.data.record_errors.length : 0;
  return skipped > 0 ? `; ${plural(skipped, "lead")} not processed (below)` : "";
}

function foundLeads(result: RunResult, values: Record<string, string>): string {
  const { rows, total } = rowsOf(result);
  const wanted = values.by === "name" ? text(values.name) : text(values.email);
  if (total === 0) return `No lead found for ${wanted || "the search"}`;
  return `Found ${plural(total, "lead")}: ${listed(rows.map(leadName), total)}`;
}

/**
 * An add or remove, per lead: Marketo answers "added" for a lead already on the list too, so the leads
 * the page found there before the add (`already`, console/src/task-prepare.ts) are said apart.
 */
function listChange(
  result: RunResult,
  values: Record<string, string>,
  list: string,
  already: ReadonlySet<string>,
): string {
  const { rows } = rowsOf(result);
  const verb = values.action === "remove" ? "removed" : "added";
  const done = rows.filter((row) => text(row.status) === verb);
  const there = verb === "added" ? done.filter((row) => already.has(String(row.id))).length : 0;
  const changed = done.length - there;
  const other = rows.length - done.length;
  const head =
    verb === "added"
      ? `Added ${plural(changed, "lead")} to ${list}`
      : `Removed ${plural(changed, "lead")} from ${list}`;
  const were = there === 1 ? "was" : "were";
  const was = there > 0 ? `; ${plural(there, "lead")} ${were} on it already` : "";
  if (there > 0 && changed === 0 && other === 0)
    return `${plural(there, "lead")} ${were} on ${list} already: none added${skippedWords(result)}`;
  return `${head}${was}${other > 0 ? `; ${count(other)} not ${verb} (see the table)` : ""}${skippedWords(result)}`;
}

/**
 * A list's members as read (Get Leads By List answers no total): the count when the read reached the end,
 * else how many were read and that there are more (the kept read's cursor, or the answer's own).
 */
function members(result: RunResult, list: string): string {
  const { total } = rowsOf(result);
  const more = result.kept ? result.kept.nextCursor !== undefined : result.data.complete === false;
  if (more) return `The first ${plural(total, "member")} of ${list}: the list has more`;
  return total === 0 ? `${list} has no members` : `${list} has ${plural(total, "member")}`;
}

/**
 * Marketo queues a requested campaign and its flow runs later ("Request Campaign",
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns).
 */
function triggered(result: RunResult, input: Row, campaign: string): string {
  const leads = (input.body as { input?: { leads?: unknown[] } } | undefined)?.input?.leads ?? [];
  const skipped = Array.isArray(result.data.record_errors) ? result.data.record_errors.length : 0;
  return `Campaign ${campaign} requested for ${plural(leads.length - skipped, "lead")}${skippedWords(result)}. Marketo queues the request, then runs the campaign's flow for them (its emails, changes and list moves)`;
}

function exported(result: RunResult, values: Record<string, string>): string {
  const what = values.what === "activities" ? "activity" : "lead";
  const { total } = rowsOf(result);
  const where = text(values.where);
  return `Export ready: ${plural(total, what).replace(/ys$/, "ies")}${where ? ` where ${where}` : ""}, ${createdIn(values)}`;
}

/**
 * The period as the form asked it, with the zone its days were read in (trial s8, finding 5: "Created
 * until 29 Nov" meant 23:59:59 UTC, unsaid): "created 23 Nov 2026 to 29 Nov 2026 (days in UTC)".
 */
export function createdIn(values: Record<string, string>): string {
  const zone = text(values.zone) || "UTC";
  const days = [text(values.from), text(values.to)].map(dayWords);
  return `created ${days[0] === days[1] ? `on ${days[0]}` : days.join(" to ")} (days in ${zone})`;
}

/** "Updated 1 lead, created 1": the noun said once. `notSent`: the rows left out of the call (no value to match on). */
function upserted(result: RunResult, notSent: number): string {
  // A skipped row is said once, as skipped (the table says why), not also as a status.
  const [first, ...rest] = [...byStatus(rowsOf(result).rows)].filter(([status]) => status !== "skipped");
  const refused = Array.isArray(result.data.record_errors) ? result.data.record_errors.length : 0;
  const skipped = refused + notSent;
  const after = skipped > 0 ? `; ${plural(skipped, "row")} skipped (see the table)` : "";
  if (!first) return `No lead created or updated${after}`;
  const head = `${first[0].charAt(0).toUpperCase()}${first[0].slice(1)} ${plural(first[1], "lead")}`;
  return `${[head, ...rest.map(([status, n]) => `${status} ${count(n)}`)].join(", ")}${after}`;
}

/**
 * The headline of a Marketo task's result, or undefined for a task it does not know. `names` holds the
 * names of the objects picked by name (a list, a campaign), by field.
 */
export function taskHeadline(
  task: string,
  values: Record<string, string>,
  names: Record<string, string>,
  result: RunResult,
  input: Row,
  already: ReadonlySet<string> = new Set(),
  notSent = 0,
): string | undefined {
  const headline = {
    find_lead: () => foundLeads(result, values),
    list_members: () => listChange(result, values, names.list ?? `list ${values.list ?? ""}`, already),
    show_members: () => members(result, names.list ?? `List ${values.list ?? ""}`),
    trigger_campaign: () => triggered(result, input, names.campaign ?? values.campaign ?? ""),
    export: () => exported(result, values),
    upsert_leads: () => upserted(result, notSent),
  }[task];
  return headline ? `${headline()}.` : undefined;
}

/**
 * A count's headline: its rows are counts, not records (review s57, note: a `:columns` table of 980 count rows read
 * "Marketo returned 980 records").
 */
function countedHeadline(result: RunResult, rows: number): string {
  const computed = result.data.computed as Record<string, unknown> | undefined;
  const read = typeof computed?.read === "number" ? computed.read : undefined;
  return read === undefined
    ? `Counted in ${plural(rows, "row")}.`
    : `Marketo returned ${plural(read, "record")}, counted in ${plural(rows, "row")}.`;
}

/**
 * A REST call's headline, without the step's paths and counts of calls: records read, or what Marketo
 * answered per record for a change.
 */
export function restHeadline(input: Row, result: RunResult): string {
  const trigger = /^\/rest\/v1\/campaigns\/(\d+)\/trigger\.json$/.exec(String(input.endpoint));
  if (input.method === "POST" && trigger) return `${triggered(result, input, trigger[1] ?? "")}.`;
  const { rows, total } = rowsOf(result);
  const read = input.method === "GET" || (input.query_parameters as Row | undefined)?._method === "GET";
  if (read && input.count_by !== undefined) return countedHeadline(result, total);
  if (read) return `Marketo returned ${plural(total, "record")}.`;
  const counts = [...byStatus(rows)].map(([status, n]) => `${status} ${count(n)}`);
  return counts.length > 0
    ? `Marketo answered for ${plural(rows.length, "record")}: ${counts.join(", ")}${skippedWords(result)}.`
    : `Marketo accepted the request${skippedWords(result)}.`;
}
