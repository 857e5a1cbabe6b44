/**
 * The sentences a report gets for what has no row. GA's Data API leaves out a row whose metrics are all 0
 * (RunReportRequest `keepEmptyRows`: "If false or unspecified, each row with all metrics equal to 0 will not
 * be returned", https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/runReport),
 * and a value with no events at all has no row even with it. An agent counted what it was given (trial
 * 2026-12-03, N39: email sessions by date answered "6 rows of 6" for 8 days; N56: countries Germany, Austria,
 * Switzerland answered Germany alone, and nothing was said of the other two), so the answer names them.
 *
 * Named only where every row is in hand and an absent row can only mean 0: the report is not cut by its
 * limit or offset, no metric filter drops rows (they would be absent for being small, not 0), and GA neither
 * thresholded rows nor grouped values into "(other)". The rows stay GA's: filling in zero rows would make
 * row_count and next_offset disagree with GA's paging.
 */
import type { RunReportResponse } from "../../connectors/google/types.js";
import type { StatedRange } from "./date-presets.js";
import type { FilterExpression } from "./filter-expression.js";
import { filterFields, type SplitFilters } from "./filter-split.js";
import { CALENDARS, dayOf } from "./report-calendar.js";
import type { UiNames } from "./report-chart.js";
import type { FlatReport } from "./report-flatten.js";

const DAY_MS = 86_400_000;
const SHOWN = 5;

/** GA's time dimensions: a dimension filter on one of them leaves days out of a report on purpose. */
const TIME_FIELD =
  /^(?:date(?:Hour(?:Minute)?)?|day|dayOfWeek(?:Name)?|hour|minute|month|week|year|yearMonth|yearWeek|isoWeek|isoYear|isoYearIsoWeek|nth(?:Day|Week|Month|Year|Hour|Minute))$/;

/** Whether the dimension filter names a field of `fields` (it leaves those values out on purpose). */
const filtersOn = (filter: FilterExpression | undefined, fields: RegExp) =>
  filter !== undefined && filterFields(filter).some((name) => fields.test(name));

const WHY = "Google Analytics returns no row where every metric is 0";

interface Of {
  /** How many values were expected, and what they are ("days", "values the filter lists for Country"). */
  total: number;
  unit: string;
  /** Said after a short list: " (Country, listed in the filter)". */
  where?: string;
  /** Said after "read them as 0". */
  tail?: string;
  /** Listed one by one up to this many (default SHOWN): the 24 hours' short labels are all listed. */
  shown?: number;
}

/** "No rows for A and B: …", or with many, "No rows for 12 of the 30 days (A, …, E and 7 more): …". */
function noRows(labels: readonly string[], of: Of): string {
  const them = labels.length === 1 ? "it" : "them";
  const why = `${WHY}; read ${them} as 0${of.tail ?? ""}.`;
  const shown = of.shown ?? SHOWN;
  if (labels.length <= shown) {
    const listed = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
    return `No rows for ${listed}${of.where ?? ""}: ${why}`;
  }
  const first = labels.slice(0, shown).join(", ");
  return (
    `No rows for ${labels.length} of the ${of.total} ${of.unit} ` +
    `(${first} and ${labels.length - shown} more): ${why}`
  );
}

const dimensionsOf = (response: Pick<RunReportResponse, "dimensionHeaders">) =>
  (response.dimensionHeaders ?? []).flatMap((h) => h.name ?? []);

/**
 * The days (weeks, months…) of the one range asked, up to today, that have no row in a report by that
 * calendar dimension alone.
 */
function calendarNote(
  flat: FlatReport,
  dimensions: readonly string[],
  stated: readonly StatedRange[] | undefined,
  today: string,
  dimensionFilter: FilterExpression | undefined,
): string | undefined {
  const [dimension] = dimensions;
  const calendar = dimensions.length === 1 && dimension ? CALENDARS[dimension] : undefined;
  const range = stated?.length === 1 ? stated[0] : undefined;
  if (!calendar || !dimension || !range) return undefined;
  if (filtersOn(dimensionFilter, TIME_FIELD)) return undefined;
  const end = Math.min(dayOf(range.end_date), dayOf(today));
  const seen = new Set(flat.rows.map((row) => String(row[dimension])));
  const expected = new Map<string, number>();
  for (let ms = dayOf(range.start_date); ms <= end; ms += DAY_MS) {
    const value = calendar.value(ms);
    if (!expected.has(value)) expected.set(value, ms);
  }
  const missing = [...expected].filter(([value]) => !seen.has(value)).map(([, ms]) => calendar.label(ms));
  return missing.length > 0 ? noRows(missing, { total: expected.size, unit: calendar.unit }) : undefined;
}

/** The fields whose filter leaves hours of the day out of a report on purpose. */
const HOUR_FIELD = /^(?:hour|dateHour|dateHourMinute|minute|nthHour|nthMinute)$/;

/**
 * The hours of the day (GA's `hour`, "00" to "23") without a row, in a report by hour alone over at least one
 * whole past day, where every hour happened: an agent read "23 rows of 23" as the whole day (trial s20, N225).
 */
function hourNote(
  flat: FlatReport,
  dimensions: readonly string[],
  stated: readonly StatedRange[] | undefined,
  today: string,
  dimensionFilter: FilterExpression | undefined,
): string | undefined {
  const range = stated?.length === 1 ? stated[0] : undefined;
  if (dimensions.length !== 1 || dimensions[0] !== "hour" || !range) return undefined;
  if (dayOf(range.start_date) >= dayOf(today)) return undefined;
  if (filtersOn(dimensionFilter, HOUR_FIELD)) return undefined;
  const seen = new Set(flat.rows.map((row) => String(row.hour)));
  const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"));
  const missing = hours.filter((hour) => !seen.has(hour)).map((hour) => `hour ${hour}`);
  // All of them: 24 short labels, and an agent diffed the hours by hand (review s23, finding 9).
  return missing.length > 0 ? noRows(missing, { total: 24, unit: "hours of the day", shown: 24 }) : undefined;
}

interface Listing {
  field: string;
  values: string[];
  caseSensitive: boolean;
}

/** The values one condition lists for one field: an in list, an exact match, or an or of those. */
function listing(e: FilterExpression): Listing | undefined {
  if ("orGroup" in e) {
    const parts = e.orGroup.expressions.map(listing);
    const [first] = parts;
    if (!first || parts.some((p) => p?.field !== first.field || p.caseSensitive !== first.caseSensitive))
      return undefined;
    return { ...first, values: parts.flatMap((p) => p?.values ?? []) };
  }
  if (!("filter" in e)) return undefined;
  const { filter } = e;
  if ("inListFilter" in filter) {
    const { values, caseSensitive } = filter.inListFilter;
    return { field: filter.fieldName, values, caseSensitive: caseSensitive === true };
  }
  if ("stringFilter" in filter && filter.stringFilter.matchType === "EXACT") {
    const { value, caseSensitive } = filter.stringFilter;
    return { field: filter.fieldName, values: [value], caseSensitive: caseSensitive === true };
  }
  return undefined;
}

/** The listings every row must pass: the filter itself, or the members of its and. */
const listings = (e: FilterExpression): Listing[] =>
  "andGroup" in e ? e.andGroup.expressions.flatMap(listings) : [listing(e) ?? []].flat();

/** The values a dimension filter lists, for a dimension of the report, that no row has. */
function listedNote(
  flat: FlatReport,
  dimensions: readonly string[],
  dimensionFilter: FilterExpression | undefined,
  uiNames: UiNames,
): string[] {
  if (!dimensionFilter) return [];
  return listings(dimensionFilter).flatMap(({ field, values, caseSensitive }) => {
    if (!dimensions.includes(field)) return [];
    const key = (value: string) => (caseSensitive ? value : value.toLowerCase());
    const seen = new Set(flat.rows.map((row) => key(String(row[field]))));
    const listed = [...new Set(values)];
    const missing = listed.filter((value) => !seen.has(key(value)));
    if (missing.length === 0) return [];
    const name = uiNames[field] ?? field;
    return noRows(
      missing.map((value) => `"${value}"`),
      {
        ...{ total: listed.length, unit: `values the filter lists for ${name}` },
        where: ` (${name}, listed in the filter)`,
        // A value GA spells otherwise ("USA" for United States) has no row either.
        tail: `, if ${missing.length === 1 ? "it is" : "they are"} spelled as in Google Analytics`,
      },
    );
  });
}

/**
 * The notes on values without a row: the calendar's (days, weeks, months… of the range, or the hours of the
 * day) and the filter's (values it lists). None where an absent row might not be 0.
 */
export function noRowsNotes(
  flat: FlatReport,
  response: Pick<RunReportResponse, "dimensionHeaders" | "metadata">,
  uiNames: UiNames,
  asked: { stated: readonly StatedRange[] | undefined; today: string; filters: SplitFilters },
): string[] {
  const complete = flat.rows.length > 0 && flat.rows.length === flat.rowCount;
  const withheld = response.metadata?.subjectToThresholding || response.metadata?.dataLossFromOtherRow;
  if (!complete || withheld || asked.filters.metricFilter) return [];
  const dimensions = dimensionsOf(response);
  const { dimensionFilter } = asked.filters;
  const days =
    calendarNote(flat, dimensions, asked.stated, asked.today, dimensionFilter) ??
    hourNote(flat, dimensions, asked.stated, asked.today, dimensionFilter);
  return [...(days ? [days] : []), ...listedNote(flat, dimensions, dimensionFilter, uiNames)];
}
