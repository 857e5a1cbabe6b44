/**
 * Adding leads to a static list, or removing them, or setting their status in a program, takes at most 300 ids a
 * call: Marketo's Lead Database
 * batch limit (REAL-API.md A5, "Lead DB: 300 (… list add/remove/ismember ids …)", from Adobe's list
 * membership guide, https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/static-lists).
 * More ids (a body `input`, or a DELETE's query `id` list) are sent as consecutive calls of at most 300,
 * each through the connector's normal send path (its rate limiter, retries and daily count), and their
 * per-id statuses are joined in input order, so one tool call does what the agent asked (trial N07: 864 ids).
 */
import type { MarketoCallResult } from "../../connectors/marketo/types.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { isPlainObject } from "../input/schema-walk.js";

export const LIST_IDS_MAX = 300;
/**
 * The writes of at most 300 leads a call that are split: list adds and removals, and a program's member statuses
 * (Change Lead Program Status, Sync Program Member Status, Delete Program Members: the same Lead Database batch
 * limit, REAL-API.md A5; a list's 600 members into a program took the agent two calls, trial s23, N282).
 */
const LIST_MEMBERS =
  /^\/rest\/v1\/(lists?\/\d+\/leads|leads\/programs\/\d+\/status|programs\/\d+\/members\/(status|delete))\.json$/;

/** Consecutive slices of at most 300. */
function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += LIST_IDS_MAX)
    out.push(items.slice(start, start + LIST_IDS_MAX));
  return out;
}

/**
 * The consecutive calls, when the call adds or removes more than 300 list members (a body `input`, or the
 * query's `id` list a DELETE takes); else undefined.
 */
export function listCalls(input: MarketoApiCallInput, path: string): MarketoApiCallInput[] | undefined {
  if ((input.method !== "POST" && input.method !== "DELETE") || !LIST_MEMBERS.test(path)) return undefined;
  const body = input.body;
  if (isPlainObject(body) && Array.isArray(body.input) && body.input.length > LIST_IDS_MAX) {
    return slices(body.input).map((part) => ({ ...input, body: { ...body, input: part } }));
  }
  const raw = input.query_parameters?.id;
  const ids = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",").map((id) => id.trim()) : [];
  if (ids.length <= LIST_IDS_MAX) return undefined;
  return slices(ids).map((part) => ({
    ...input,
    query_parameters: { ...input.query_parameters, id: part.join(",") },
  }));
}

/** The ids one call sends, as the caller wrote them. */
function idsOf(input: MarketoApiCallInput): string[] {
  if (isPlainObject(input.body) && Array.isArray(input.body.input)) {
    // A program member's input names its lead as leadId (Sync Program Member Status), a list's as id.
    return input.body.input.map((item) => String(isPlainObject(item) ? (item.id ?? item.leadId) : item));
  }
  return String(input.query_parameters?.id ?? "").split(",");
}
const idsIn = (input: MarketoApiCallInput): number => idsOf(input).length;

/** The most ids a failure's words list one by one; past it, the positions and the first and last id. */
const IDS_LISTED = 600;

function idWords(ids: readonly string[]): string {
  return ids.length <= IDS_LISTED
    ? ids.join(",")
    : `${ids.length.toLocaleString("en-US")} ids, ${ids[0]} … ${ids.at(-1)}`;
}

/**
 * A part that failed after others were applied (trial s4, item 7): the error says which calls were
 * applied and which ids were not, and how to send only those. The failed call's ids count as not applied:
 * Marketo gave no statuses for them (adding or removing a list member again is harmless).
 */
function partWords(calls: readonly MarketoApiCallInput[], failed: number): string {
  const first = calls[0] as MarketoApiCallInput;
  const applied = calls.slice(0, failed).flatMap(idsOf);
  const rest = calls.slice(failed).flatMap(idsOf);
  const where =
    isPlainObject(first.body) && Array.isArray(first.body.input) ? "body.input" : "query_parameters.id";
  const done =
    failed === 0
      ? "none was applied"
      : `calls 1–${failed} were applied (the first ${applied.length.toLocaleString("en-US")} ids: ${idWords(applied)})`;
  return (
    `Sent as ${calls.length} calls of at most ${LIST_IDS_MAX} ids: ${done}; call ${failed + 1} failed` +
    (failed + 1 < calls.length ? ` and calls ${failed + 2}–${calls.length} were not sent` : "") +
    `, so these ${rest.length.toLocaleString("en-US")} ids were not applied: ${idWords(rest)}. To send only the rest, ` +
    `call again with ${where} holding the ids from position ${applied.length + 1} of your list on.`
  );
}

/** The error of part `failed`, its message followed by what was applied and what was not. */
function partFailure(error: unknown, calls: readonly MarketoApiCallInput[], failed: number): unknown {
  if (!(error instanceof Error)) return error;
  error.message = `${error.message} ${partWords(calls, failed)}`;
  return error;
}

/** Sends the calls one after the other and joins their answers: results and record errors in input order. */
export async function sendInTurn(
  calls: readonly MarketoApiCallInput[],
  send: (input: MarketoApiCallInput) => Promise<MarketoCallResult>,
): Promise<MarketoCallResult> {
  const joined: MarketoCallResult = {
    result: [],
    warnings: [],
    recordErrors: [],
    requestIds: [],
    pages: 0,
    callsUsed: 0,
    positions: [],
    complete: true,
    extra: {},
  };
  let offset = 0;
  for (const [index, call] of calls.entries()) {
    const answer = await send(call).catch((error: unknown) => {
      throw partFailure(error, calls, index);
    });
    // Marketo numbers each call's records from 0 (seq): renumbered to the position in the whole input, as the
    // record errors are, so seq 400 is the 401st lead given (review s28, finding 10).
    joined.result.push(
      ...answer.result.map((record) =>
        isPlainObject(record) && typeof record.seq === "number"
          ? { ...record, seq: record.seq + offset }
          : record,
      ),
    );
    joined.warnings.push(...answer.warnings.filter((w) => !joined.warnings.includes(w)));
    // Each call's record errors count from its own first id: shifted to the position in the whole input.
    joined.recordErrors.push(...answer.recordErrors.map((e) => ({ ...e, index: e.index + offset })));
    joined.requestIds.push(...answer.requestIds);
    joined.pages += answer.pages;
    joined.callsUsed += answer.callsUsed;
    offset += idsIn(call);
  }
  joined.extra = { split_calls: calls.length, ids_per_call_max: LIST_IDS_MAX };
  return joined;
}
