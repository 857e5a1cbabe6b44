/**
 * Two periods compared like for like, or said not to be. A change between periods of different length
 * (lastMonth's 30 days against thisMonth's 1 day on the 1st) holds the difference in length, which the
 * summary puts as a figure (a count at an even daily rate changes by it from the length alone) rather than
 * claiming the changes are that difference: October's 31 days against November's 30 move a count by −3.2 %,
 * while its channels moved by −19 % to +153 %. A period that runs to today holds a day GA is still
 * collecting (data is final within 24–48 hours:
 * https://support.google.com/analytics/answer/11198161). Both ranges are named by their dates, whatever
 * names they were given, so the sentence compares like with like. The summary names the aligned
 * comparison: the same number of days from the start of each period, as date_ranges the step takes; for
 * whole calendar months (November against October), as the option it is, the months as they are being the
 * usual month-over-month reading.
 */
import { rangeText, type StatedRange } from "./date-presets.js";

const DAY_MS = 86_400_000;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const days = (range: StatedRange) => Math.round((day(range.end_date) - day(range.start_date)) / DAY_MS) + 1;

/** A range cut to its first `n` days, named after the whole one when the name allows it. */
function firstDays(range: StatedRange, n: number, label: string): StatedRange {
  if (n >= days(range)) return range;
  const name = label.endsWith(" same days") ? label : `${label} same days`;
  return {
    start_date: range.start_date,
    end_date: iso(day(range.start_date) + (n - 1) * DAY_MS),
    // The step's names: letters, digits, _ - and spaces, at most 64, not date_range_… (DateRange.name).
    ...(/^(?!date_range_|RESERVED_)[A-Za-z0-9_\- ]{1,64}$/.test(name) ? { name } : {}),
  };
}

const plainDays = (n: number) => `${n} day${n === 1 ? "" : "s"}`;

/** "-3.2 %": how much a count changes from `n` days to `m` at the same number per day. */
function lengthEffect(n: number, m: number): string {
  const pct = Math.round((m / n - 1) * 1000) / 10;
  return `${pct > 0 ? "+" : ""}${pct} %`;
}

/**
 * The summary's sentence on two periods of different length, or one running to `today` (YYYY-MM-DD in the
 * property's zone), with the aligned comparison as date_ranges; undefined when they compare like for like.
 */
export function periodNote(
  ranges: readonly StatedRange[],
  order: readonly [number, number],
  labels: readonly string[],
  today: string,
  firstDay?: string,
): string | undefined {
  const earlier = ranges[order[0]];
  const later = ranges[order[1]];
  if (!earlier || !later) return undefined;
  const [fromLabel, toLabel] = [labels[order[0]] ?? "", labels[order[1]] ?? ""];
  // A range wholly after today is not running: none of its days has data (review s26, finding 12).
  const running = ranges.filter((range) => range.start_date <= today && range.end_date >= today);
  const future = ranges.filter((range) => range.start_date > today);
  const [n, m] = [days(earlier), days(later)];
  if (n === m && running.length === 0 && future.length === 0) return undefined;
  // A range after today has no figures to compare: no length effect, no offer (review s28, finding 3d).
  if (future.length > 0)
    return `${future.map(rangeText).join(" and ")} lies after today: none of its days has data yet; compare ranges that end by today.`;
  const runs =
    running.length > 0
      ? `${running.map(rangeText).join(" and ")} runs to today, which GA is still collecting` +
        (running.some((range) => range.end_date > today) ? ", and its days after today have no data yet" : "")
      : "";
  // No offer of days before the property's first day: the data-start note has one (review s27, finding 8).
  const early = firstDay !== undefined && ranges.some((range) => range.start_date < firstDay);
  const offer = (aligned: StatedRange[], words: string) =>
    early
      ? ""
      : ` ${words}: date_ranges ${JSON.stringify(aligned.map((range) => ({ start_date: range.start_date, end_date: range.end_date, ...(range.name ? { name: range.name } : {}) })))}.`;
  if (runs) {
    // Like for like up to yesterday, the last whole day (review s28, finding 3a: no offer at all was made).
    const upTo = (last: string) => (range: StatedRange) =>
      days({ ...range, end_date: range.end_date < last ? range.end_date : last });
    // No whole day yet (today against yesterday): no offer, which would be the same call (review s29, finding 8).
    const k = Math.min(...[earlier, later].map(upTo(iso(day(today) - DAY_MS))));
    const words = "Like for like, compare the whole days of each";
    const same =
      k > 0
        ? offer([firstDays(later, k, toLabel), firstDays(earlier, k, fromLabel)], words)
        : " No day of it is whole yet: compare once today is over.";
    if (n === m) return `The comparison is not final: ${runs}.${same}`;
    return `The periods differ in length: ${rangeText(earlier)} has ${plainDays(n)}, ${rangeText(later)} ${plainDays(m)} (${runs}); from the length alone, a count at an even daily rate changes by ${lengthEffect(n, m)}.${same}`;
  }
  const aligned = n > m ? [later, firstDays(earlier, m, fromLabel)] : [firstDays(later, n, toLabel), earlier];
  const lengthOffer =
    wholeMonths(earlier) > 0 && wholeMonths(earlier) === wholeMonths(later)
      ? offer(
          aligned,
          "Both are whole calendar months, as a month-over-month comparison usually takes them; to compare the same number of days instead",
        )
      : offer(aligned, "Like for like, compare the same days of each");
  return (
    `The periods differ in length: ${rangeText(earlier)} has ${plainDays(n)}, ${rangeText(later)} ` +
    `${plainDays(m)}; from the length alone, a count at an even daily rate changes by ${lengthEffect(n, m)}.${lengthOffer}`
  );
}

/**
 * The comparison without its "Largest changes" when they would mislead (review s28, finding 3: "mobile −6,972
 * (−88.1 %)" headlined 30 days of November against 5 of December): a first metric that adds up over periods not
 * like for like, or any when a range is still being collected. The note says why and offers like for like.
 */
export function headlined<C extends { movers: string[] }>(
  merged: C | undefined,
  o: { note: string | undefined; stated: readonly StatedRange[]; today: string; addsUp: boolean },
): C | undefined {
  if (!merged || o.note === undefined) return merged;
  const running = o.stated.some((range) => range.end_date >= o.today);
  return running || o.addsUp ? { ...merged, movers: [] } : merged;
}

/**
 * How many calendar months a range covers when it is whole months (from a 1st to a month's last day), else
 * 0: October against November is read month over month as it is, 31 days against 30 (agent trial s4, T15).
 */
function wholeMonths(range: StatedRange): number {
  const start = new Date(day(range.start_date));
  const after = new Date(day(range.end_date) + DAY_MS);
  if (start.getUTCDate() !== 1 || after.getUTCDate() !== 1) return 0;
  return (after.getUTCFullYear() - start.getUTCFullYear()) * 12 + after.getUTCMonth() - start.getUTCMonth();
}

/**
 * The property's day when it is not UTC's: GA counts relative dates (yesterday, NdaysAgo, the presets) from
 * the property's day (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/DateRange).
 * On a Tokyo property, last90days ended on the 4th while an agent took the 4th for today, and it asked again
 * with exact dates (trial s18, N180).
 */
export function zoneDayNote(
  today: string,
  utcToday: string | undefined,
  zone: string | undefined,
): string | undefined {
  if (!zone || !utcToday || today === utcToday) return undefined;
  return (
    `Today in ${zone} is ${today} (in UTC ${utcToday}): presets and relative dates count back from the property's ` +
    "day, as the dates stated here do."
  );
}
