/**
 * A report's sentence as the page says it (console review s10, result words): Run Reports' summary names
 * its filter as the step read it, `deviceCategory = "mobile" and country = "United States"`, and its zone by
 * its IANA name, "America/New_York", which an agent writes back. The page says the filter by the names the
 * pickers and the chart's title show ("Device category = mobile and Country = United States") and the zone
 * as a place's time ("New York time"). The MCP answer keeps both as they are.
 */

/** Where the summary names the zone its dates are in (src/tools/ga/report-answer.ts: "dates in …"). */
const ZONE = /\bdates in ([A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+|UTC)\b/g;

/**
 * A time zone as a person reads it: the place it is named after, "America/New_York" → "New York time",
 * "America/Argentina/Buenos_Aires" → "Buenos Aires time"; UTC and GMT offsets (Etc/…) as they are.
 */
export function zoneWords(zone: string): string {
  if (zone === "UTC" || zone.startsWith("Etc/")) return zone.replace(/^Etc\//, "");
  const place = zone.split("/").pop() ?? zone;
  return `${place.replace(/_/g, " ")} time`;
}

/**
 * The summary with its zone in words and, when the page knows the filter's words (`only`, the chart's: by
 * the property's field names), its filter so too. `asked` is the filter the step was sent, as the summary
 * repeats it; a filter sent as a GA expression reads "its filter matches" there, also replaced.
 */
export function reportSentence(text: string, filter: { asked?: unknown; only?: string | undefined }): string {
  const zoned = text.replace(ZONE, (_, zone: string) => `dates in ${zoneWords(zone)}`);
  const { only } = filter;
  if (!only) return zoned;
  const asked = typeof filter.asked === "string" ? filter.asked.trim() : "";
  const said = asked ? `, only where ${asked}` : ", only where its filter matches";
  return zoned.includes(said) ? zoned.replace(said, () => `, only where ${only}`) : zoned;
}

/**
 * An empty filtered report's note as the page says it (console review s13, finding 2). Run Reports tells an
 * agent, by API names, what the same dates hold without the filter and which report to run next
 * (src/tools/ga/report-empty.ts: "without the filters, activeUsers is 12,343 on the same dates, so no data
 * matches the filters; to see the values they could match, run the report without the filter by the
 * filtered dimensions"); a person reads the filter and the metric by the names the pickers show, and what
 * to do on this page. The MCP answer keeps the agent's words. Any other note is as the step gives it.
 */
const FILTER_EMPTY =
  /^No rows matched: no row matches these filters on these dates \(this is not an error\)\. The property does have data then: without the filters, (\S+) is ([\d,]+) on the same dates\b/;
const DATES_EMPTY =
  /^No rows matched: no row matches these filters on these dates, and without the filters these dates have no (\S+) either\b/;

export function emptyReportNote(
  note: string,
  only: string | undefined,
  ui: (field: string) => string,
): string {
  const filtered = FILTER_EMPTY.exec(note);
  if (filtered) {
    const [, metric = "", total = ""] = filtered;
    const which = only ? `had ${only}` : "matched the filter";
    const several = only ? /\s(?:and|or)\s/.test(only) : true;
    const next = several
      ? "Check the values or remove a condition."
      : "Check the value or remove the condition.";
    return `No rows: no visit on these dates ${which} (without the filter, ${ui(metric)} is ${total}). ${next}`;
  }
  const bare = DATES_EMPTY.exec(note);
  if (bare) {
    const [, metric = ""] = bare;
    return `No rows: these dates have no data, with the filter or without it (${ui(metric)} is 0). Choose other dates.`;
  }
  return note;
}
