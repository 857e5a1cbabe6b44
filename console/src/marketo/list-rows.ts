/**
 * An add to or remove from a list, one row per lead: the lead by name and email when the page read it
 * (typed as an email), its id, and what happened to it, "already on the list" for a lead the page found
 * there before the add (Marketo answers "added" for it too: console/src/task-prepare.ts).
 */
import type { RunResult, RunStopped } from "../api.ts";
import type { Lead } from "./lead-emails.ts";
import { leadName } from "./marketo-words.ts";

type Row = Record<string, unknown>;

/** The reasons Marketo gave for a lead it skipped, in its words without the codes. */
const reasons = (row: Row) =>
  (Array.isArray(row.reasons) ? (row.reasons as { message?: unknown }[]) : [])
    .map((reason) => (typeof reason.message === "string" ? reason.message : ""))
    .filter(Boolean)
    .join("; ");

export function listRows(
  result: RunResult | RunStopped,
  leads: ReadonlyMap<string, Lead>,
  already: ReadonlySet<string>,
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
    return { Lead: leadName(leads.get(id) ?? { id }), "Lead ID": Number(id), Result: what };
  });
}
