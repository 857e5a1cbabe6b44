/**
 * An add to or remove from a list, one row per lead: the lead by name and email when the page read it
 * (typed as an email), its id, and what happened to it, "already on the list" for a lead the page found
 * there before the add (Marketo answers "added" for it too: console/src/task-prepare.ts), and whether it
 * is on the list now, as Marketo answers when asked again after the change (list-membership.ts).
 */
import type { RunResult, RunStopped } from "../api.ts";
import type { Lead } from "./lead-emails.ts";
import type { Membership } from "./list-membership.ts";
import { leadName } from "./marketo-words.ts";

type Row = Record<string, unknown>;

/** The reasons Marketo gave for a lead it skipped, in its words without the codes. */
/** What the list holds now of a lead: yes or no as Marketo answered, while read, or that it could not be. */
function onListNow(members: Membership, id: string): string {
  if (members === "reading") return "checking…";
  if (members === "unread") return "could not be checked";
  const member = members.get(id);
  return member === undefined ? "unknown to Marketo" : member ? "yes" : "no";
}

const reasons = (row: Row) =>
  (Array.isArray(row.reasons) ? (row.reasons as { message?: unknown }[]) : [])
    .map((reason) => (typeof reason.message === "string" ? reason.message : ""))
    .filter(Boolean)
    .join("; ");

export function listRows(
  result: RunResult | RunStopped,
  leads: ReadonlyMap<string, Lead>,
  already: ReadonlySet<string>,
  members: Membership,
): Row[] | undefined {
  if (result.type !== "result" || !Array.isArray(result.data.result)) return undefined;
  return (result.data.result as Row[]).map((row) => {
    const id = String(row.id ?? "");
    const status = typeof row.status === "string" ? row.status : "";
    const what =
      status === "added" && already.has(id)
        ? "already on the list"
        : status === "skipped"
          ? `not changed: ${reasons(row) || "skipped"}`
          : status;
    return {
      Lead: leadName(leads.get(id) ?? { id }),
      "Lead ID": Number(id),
      Result: what,
      "On the list now": onListNow(members, id),
    };
  });
}
