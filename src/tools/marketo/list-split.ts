/**
 * Adding leads to a static list, or removing them, takes at most 300 ids a call: Marketo's Lead Database
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
const LIST_MEMBERS = /^\/rest\/v1\/lists?\/\d+\/leads\.json$/;

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

/** The ids one call sends. */
function idsIn(input: MarketoApiCallInput): number {
  if (isPlainObject(input.body) && Array.isArray(input.body.input)) return input.body.input.length;
  return String(input.query_parameters?.id ?? "").split(",").length;
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
  for (const call of calls) {
    const answer = await send(call);
    joined.result.push(...answer.result);
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
