/**
 * What a read of activities since a date says when its first activity comes days after that date: Marketo
 * answers activities.json in date order from the paging token of `sinceDatetime`
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities), so the
 * first record read is the earliest of the types (and leads) asked for, and none lies between. An agent learned
 * that the log began on 3 Oct only from empty export windows (trial s13, N85 and N91; trial s14, N113).
 */
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { plural } from "../numbers-in-words.js";
import { dateWords } from "../zone-clock.js";
import { TYPES_A_READ } from "./activity-types.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const ACTIVITIES = "/rest/v1/activities.json";
const LATE_START = "The first activity read is on";
/** Whether a warning is activityStartWords' (said in the summary too: under the records it went unseen). */
export const isLateStartWarning = (warning: string): boolean => warning.startsWith(LATE_START);

/** The query parameters that narrow an activity read to some leads or assets. */
const FOR_SOME = ["leadIds", "listId", "assetIds"] as const;

/** Undefined unless the read began at sinceDatetime (no cursor, no token) and its first record is a day or more later. */
export function activityStartWords(
  input: Pick<MarketoApiCallInput, "method" | "endpoint" | "query_parameters" | "cursor">,
  first: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const query = input.query_parameters ?? {};
  // Both spellings are taken (connectors/marketo/activities.ts); sinceDateTime was passed over (review s20, 7).
  const since = query.sinceDatetime ?? query.sinceDateTime;
  if (input.method !== "GET" || input.endpoint.split("?")[0] !== ACTIVITIES || input.cursor) return undefined;
  if (typeof since !== "string" || query.nextPageToken !== undefined) return undefined;
  const from = Date.parse(since);
  const at = typeof first?.activityDate === "string" ? Date.parse(first.activityDate) : Number.NaN;
  if (!Number.isFinite(from) || !Number.isFinite(at) || at - from < DAY_MS) return undefined;
  const days = Math.floor((at - from) / DAY_MS);
  // Narrowed to some leads, a late first activity read as "these leads were inactive" where the log itself began
  // later (trial s19, N213): the same read for everyone tells the two apart.
  const narrowed = FOR_SOME.filter((name) => query[name] !== undefined);
  // More than 10 types are read in groups, whose caps a read of everyone's would spend on the first: a read of
  // each 10 with max_items 1 gives each group's first (review s21, finding 5).
  const grouped = String(query.activityTypeIds ?? "").split(",").length > TYPES_A_READ;
  const without = `without ${narrowed.join(" and ")}`;
  const check =
    narrowed.length === 0
      ? ""
      : grouped
        ? ` Whether the log itself begins later: a read ${without} of each ${TYPES_A_READ} of these types, max_items 1, gives the first of each in the whole log.`
        : ` Whether the log itself begins later: the same read ${without} gives the first of these types in the whole log.`;
  return (
    `${LATE_START} ${dateWords(at - (at % DAY_MS))} (${first?.activityDate}), ${plural(days, "day")} after ` +
    `sinceDatetime ${since}: Marketo returns activities in date order, so it has none of the types asked` +
    `${narrowed.length > 0 ? ` (for the ${narrowed.join(" and ")} given)` : ""} between them.${check}`
  );
}
