/**
 * A triggered campaign's leads, one row each (issue 28 §2): Request Campaign answers only the campaign's
 * id ("Request Campaign",
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns), so
 * the rows come from the request: the campaign's name, each lead by name and email (as the confirm read
 * them, console/src/ConfirmTrigger.tsx, so not read again; any it did not read in one Get Leads by
 * filterType id read), and whether Marketo accepted it (a lead it skipped is among the answer's record
 * errors, by its position in the request).
 */
import { useEffect, useState } from "react";
import { type RunResult, type RunStopped, runStep } from "../api.ts";
import { filterValueParts } from "./lead-emails.ts";
import { leadName } from "./marketo-words.ts";

type Row = Record<string, unknown>;

export function requestedIds(input: Row): string[] {
  const leads = (input.body as { input?: { leads?: unknown[] } } | undefined)?.input?.leads ?? [];
  return leads.flatMap((lead) => {
    const id = (lead as { id?: unknown } | null)?.id;
    return typeof id === "number" || typeof id === "string" ? [String(id)] : [];
  });
}

/** Each requested lead's fate: accepted, or the reasons Marketo gave for skipping it. */
function fates(result: RunResult, ids: string[]): string[] {
  const errors = Array.isArray(result.data.record_errors)
    ? (result.data.record_errors as { index: number; reasons?: { message: string }[] }[])
    : [];
  return ids.map((_, index) => {
    const error = errors.find((one) => one.index === index);
    if (!error) return "accepted";
    return `not accepted: ${(error.reasons ?? []).map((reason) => reason.message).join("; ") || "skipped"}`;
  });
}

/**
 * Reads the leads' names and emails with the step (one call per 300 ids, Get Leads by Filter Type's
 * limit, none when `known` has them all); those it cannot read keep their id. The map holds the known
 * leads too.
 */
export async function readLeads(
  step: string,
  wanted: string[],
  signal: AbortSignal,
  known: ReadonlyMap<string, Row> = new Map(),
): Promise<Map<string, Row>> {
  const found = new Map<string, Row>(known);
  const ids = wanted.filter((id) => !known.has(id));
  if (ids.length === 0) return found;
  for (const part of filterValueParts(ids)) {
    const input = {
      method: "GET",
      endpoint: "/rest/v1/leads.json",
      query_parameters: {
        filterType: "id",
        filterValues: part.join(","),
        fields: "id,email,firstName,lastName",
      },
    };
    for await (const event of runStep(step, input, signal)) {
      if (event.type !== "result" || !Array.isArray(event.data.result)) continue;
      for (const lead of event.data.result as Row[]) found.set(String(lead.id), lead);
    }
  }
  return found;
}

/** The rows of a triggered campaign's result, or undefined for any other result. */
export function useTriggeredLeads(
  step: string,
  result: RunResult | RunStopped | undefined,
  input: Row,
  campaign: string,
  /** The leads already read (by the confirm, or typed as emails): not read again. */
  known: ReadonlyMap<string, Row>,
): Row[] | undefined {
  const [leads, setLeads] = useState<ReadonlyMap<string, Row>>(known);
  const ids = result?.type === "result" ? requestedIds(input) : [];
  const key = ids.join(",");
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    // The rows show by id first; a lead that cannot be read stays so (the trigger itself succeeded).
    readLeads(step, key.split(","), controller.signal, known).then(setLeads, () => undefined);
    return () => controller.abort();
  }, [step, key, known]);
  if (result?.type !== "result" || ids.length === 0) return undefined;
  const fate = fates(result, ids);
  return ids.map((id, index) => ({
    Campaign: campaign,
    Lead: leadName(leads.get(id) ?? { id }),
    "Lead ID": Number(id),
    Request: fate[index],
  }));
}
