/**
 * Whether leads are on a static list, read from Marketo with Member of List
 * (GET /rest/v1/lists/{listId}/leads/ismember.json with the leads' ids as `id`, at most 300: each id's
 * status is memberof or notmemberof, or skipped for a lead Marketo lacks;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/list-membership).
 * Read before an add (which leads were there already: Marketo answers "added" for them too) and after an
 * add or a remove (trial s8, finding 1: nothing showed that the leads were now members, and the console
 * has no screen of a list's members): the result says, per lead, what the list holds now.
 */
import { useEffect, useState } from "react";
import { type RunResult, type RunStopped, runStep } from "../api.ts";

type Input = Record<string, unknown>;

/** The list and the leads' ids of an add (POST, ids in the body) or a remove (DELETE, ids as `id`). */
export function listChangeOf(input: Input): { list: string; ids: string[] } | undefined {
  const list = /^\/rest\/v1\/lists\/(\d+)\/leads\.json$/.exec(String(input.endpoint))?.[1];
  if (!list) return undefined;
  const given =
    input.method === "POST"
      ? ((input.body as { input?: { id?: unknown }[] } | undefined)?.input ?? []).map((one) => one?.id)
      : input.method === "DELETE"
        ? [(input.query_parameters as { id?: unknown } | undefined)?.id ?? []].flat()
        : [];
  const ids = given.flatMap((id) => (typeof id === "number" || typeof id === "string" ? [String(id)] : []));
  return ids.length > 0 ? { list, ids } : undefined;
}

/** Each id's membership as Marketo answers it: true (memberof) or false (notmemberof); skipped ones absent. */
export async function readMembership(
  step: string,
  list: string,
  ids: readonly string[],
  signal: AbortSignal,
): Promise<Map<string, boolean>> {
  const check = {
    method: "GET",
    endpoint: `/rest/v1/lists/${list}/leads/ismember.json`,
    query_parameters: { id: ids.map(Number) },
  };
  const members = new Map<string, boolean>();
  for await (const event of runStep(step, check, signal)) {
    if (event.type === "error") throw new Error(event.error.message);
    if (event.type !== "result" || !Array.isArray(event.data.result)) continue;
    for (const row of event.data.result as Record<string, unknown>[]) {
      if (row.status === "memberof") members.set(String(row.id), true);
      if (row.status === "notmemberof") members.set(String(row.id), false);
    }
  }
  return members;
}

/** Whether each lead is on the list now, as the page says it under "On the list now". */
export type Membership = ReadonlyMap<string, boolean> | "reading" | "unread";

/** After an add or remove that ran, each lead's membership read back (once per result). */
export function useListMembership(
  step: string,
  result: RunResult | RunStopped | undefined,
  input: Input,
): Membership | undefined {
  const change = result?.type === "result" ? listChangeOf(input) : undefined;
  // The list and ids as one text: the read runs again only for another result or other leads.
  const key = change ? `${change.list}:${change.ids.join(",")}` : "";
  const [members, setMembers] = useState<{ of: unknown; now: Membership }>();
  useEffect(() => {
    if (!key) return;
    const [list = "", ids = ""] = key.split(":");
    const controller = new AbortController();
    readMembership(step, list, ids.split(","), controller.signal).then(
      (now) => setMembers({ of: result, now }),
      () => !controller.signal.aborted && setMembers({ of: result, now: "unread" }),
    );
    return () => controller.abort();
  }, [step, result, key]);
  if (!change) return undefined;
  return members && members.of === result ? members.now : "reading";
}
