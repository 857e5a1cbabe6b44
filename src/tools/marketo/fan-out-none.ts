/**
 * Why a fan-out's ids gave no records (fan-out-read.ts): each id's reason in words, grouped, and the error when no
 * id gave any, which is Marketo's own when it refused every id alike for a reason not about the ids.
 */

import type { MarketoCallResult } from "../../connectors/marketo/types.js";
import { UpstreamError } from "../../errors.js";
import type { FanOut } from "./fan-out.js";

export type Id = FanOut["ids"][number];

/** One id's read: its records, or why it gave none. */
export type IdRead =
  | { id: Id; result: MarketoCallResult }
  | { id: Id; refused: UpstreamError }
  /** Not read: max_items records were read before it. */
  | { id: Id; skipped: true };

/** Marketo's codes for an id that is not there, in words (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/error-codes). */
export const CODE_WORDS: Record<string, string> = {
  "610": "not found",
  "702": "not found",
  "1013": "not found",
  "1003": "invalid",
  "1004": "not found",
};

/** Why an id gave no records: "not found (1013)", Marketo's warning, or "no records". */
function whyNone(read: IdRead): string | undefined {
  if ("refused" in read) {
    const code = read.refused.serviceCode ?? "";
    // Any other refusal keeps Marketo's own words (trial s8, N30: "refused (701)" hid "filterType cannot be blank").
    return CODE_WORDS[code] ? `${CODE_WORDS[code]} (${code})` : `refused (${code}): ${read.refused.message}`;
  }
  if ("skipped" in read || read.result.result.length > 0) return undefined;
  // Its own full stop left out: the words go on ("criteria.." read twice, review s30, finding 12).
  return read.result.warnings[0]?.replace(/\.$/, "") ?? "no records";
}

/** "ids 1004, 1007", or in the placeholder's own word ("programIds 1004, 1007"). */
export const idsWords = (ids: readonly Id[], word = "id") =>
  `${word}${ids.length === 1 ? "" : "s"} ${ids.join(", ")}`;

/** "ids 1004, 1007: not found (702); id 1009: no records", grouped by reason. */
export function noneWords(reads: IdRead[]): string | undefined {
  const groups = new Map<string, Id[]>();
  for (const read of reads) {
    const why = whyNone(read);
    if (why !== undefined) groups.set(why, [...(groups.get(why) ?? []), read.id]);
  }
  if (groups.size === 0) return undefined;
  return [...groups].map(([why, ids]) => `${idsWords(ids)}: ${why}`).join("; ");
}

/** An id that failed: Marketo refused it, or answered no records with only a warning (the Asset API's "not found"). */
export const failed = (read: IdRead): boolean =>
  "refused" in read ||
  ("result" in read && read.result.result.length === 0 && read.result.warnings.length > 0);

/**
 * With status, an asset without a version of that status answers the same (an email never approved has only a
 * draft): trial s26, N341 read it as wrong ids, and review s30 (finding 12) met it for some ids of a read. The Asset
 * API's status filter: "draft or approved"
 * (https://developer.adobe.com/marketo-apis/api/asset/#tag/Emails/operation/getEmailByIdUsingGET).
 */
export function statusWords(status: unknown): string {
  if (status !== "approved" && status !== "draft") return "";
  const other = status === "approved" ? "draft" : "approved";
  return `; with status ${status}, an asset that has no ${status} version answers the same: read it with status ${other}`;
}

/** The connector's words for a path Marketo does not have (service-codes.ts notFoundHint). */
export const NO_PATH = /is no Marketo endpoint/;

/**
 * A hint about the first id's path, said of the endpoint with its {placeholder}: "Call GET …/emailTemplate/1001/content"
 * read one template of the several asked (review s37, 7); "…/emailTemplate/{id}/content" reads them all.
 */
function asTemplate(hint: string, fan: FanOut, id: Id | undefined): string {
  const at = fan.template.indexOf(`{${fan.name}}`);
  if (id === undefined || at < 0) return hint;
  const concrete = `${fan.template.slice(0, at)}${String(id)}`;
  const escaped = concrete.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return hint.replace(new RegExp(`${escaped}(?![\\w-])`, "g"), `${fan.template.slice(0, at)}{${fan.name}}`);
}

/**
 * No id gave records: an error naming each id and why. When Marketo refused every id with one code that is not
 * about an id (a missing parameter, a method the path does not take), its own error and advice are the answer:
 * "Check the ids" sent the agent the wrong way (trial s8, N30 and N36).
 */
export function noneGave(fan: FanOut, reads: IdRead[], status?: unknown): UpstreamError {
  const refusals = reads.flatMap((read) => ("refused" in read ? [read.refused] : []));
  const codes = new Set(refusals.map((error) => error.serviceCode ?? ""));
  const [first] = refusals;
  // An emulator's 610 for a real path it does not serve is about the path, not the ids (trial s23, N294).
  const notServed = refusals.every((error) => /does not emulate/i.test(error.message));
  // A path Marketo does not have is about the path too: its "did you mean" is the answer (review s27, 12).
  const noPath = refusals.every((error) => NO_PATH.test(`${error.message} ${error.hint ?? ""}`));
  const aboutIds = CODE_WORDS[first?.serviceCode ?? ""] !== undefined && !notServed && !noPath;
  if (first && refusals.length === reads.length && codes.size === 1 && !aboutIds) {
    // Its message already ends with its hint (MartechError): given again as this error's hint, it read twice.
    const said =
      first.hint && first.message.endsWith(first.hint)
        ? first.message.slice(0, -first.hint.length).trim()
        : first.message;
    const hint = first.hint && asTemplate(first.hint, fan, reads.find((read) => "refused" in read)?.id);
    return new UpstreamError(`Marketo refused ${fan.template} for every id the same way: ${said}`, {
      ...(hint ? { hint } : {}),
      ...(first.serviceCode ? { serviceCode: first.serviceCode } : {}),
    });
  }
  const code = first?.serviceCode;
  return new UpstreamError(
    `No id of query_parameters.${fan.name} gave records from ${fan.template}: ${noneWords(reads)}.`,
    {
      hint:
        `Check the ids (GET one alone with it in the endpoint), and that ${fan.template} is the endpoint for them` +
        `${statusWords(status)}.`,
      ...(code ? { serviceCode: code } : {}),
    },
  );
}
