/**
 * Run Reports' periods as the step labels them and as a person reads them (issue 28, newcomer trial
 * 2026-12-02-s7, finding 10). The step names a preset's period by the preset ("last7days") in its merged
 * columns and comparison, and an unnamed one by its dates ("2026-11-25…2026-12-01"); the console says
 * "Last 7 days (25 Nov – 1 Dec 2026)" from the dates the answer states (`date_ranges`, in the property's
 * zone). A name a person gave a period stays theirs, with its dates beside it. No imports: the browser
 * bundle shares it.
 */

interface Stated {
  start_date: string;
  end_date: string;
  name?: string;
}

/** "2026-11-18…2026-11-24" (one day: "2026-11-24"): a period in an agent's answer. */
export function rangeText(range: Stated): string {
  return range.start_date === range.end_date ? range.start_date : `${range.start_date}…${range.end_date}`;
}

/**
 * The label of each range in column names: its name, else its dates; two unnamed ranges of the same dates
 * are told apart by GA's own names for them (date_range_0, date_range_1).
 */
export function rangeLabels(ranges: readonly Stated[]): string[] {
  const labels = ranges.map((range) => range.name ?? rangeText(range));
  return labels.map((label, index) =>
    labels.indexOf(label) === labels.lastIndexOf(label) ? label : `date_range_${index}`,
  );
}

// The months spelled out here: ICU's en-GB short month is "Sept" in some versions, "Sep" in others.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-25" → [25, "Nov", 2026]. */
const parts = (iso: string): [number, string, number] => {
  const [year, month, day] = iso.split("-").map(Number);
  return [day ?? 0, MONTHS[(month ?? 1) - 1] ?? "", year ?? 0];
};

/** "25 Nov – 1 Dec 2026", "1 – 30 Oct 2026", "28 Dec 2025 – 3 Jan 2026", one day "1 Dec 2026". */
export function dates(start: string, end: string): string {
  const [d1, m1, y1] = parts(start);
  const [d2, m2, y2] = parts(end);
  if (start === end) return `${d2} ${m2} ${y2}`;
  if (y1 !== y2) return `${d1} ${m1} ${y1} – ${d2} ${m2} ${y2}`;
  if (m1 !== m2) return `${d1} ${m1} – ${d2} ${m2} ${y2}`;
  // Thin spaces around the dash of one month's days, as ICU's en-GB formatRange writes them.
  return `${d1}\u2009–\u2009${d2} ${m2} ${y2}`;
}

/**
 * A text's YYYY-MM-DD days and spans of days ("2026-11-01…2026-11-30", rangeText's) in the words `dates` gives
 * them ("1 – 30 Nov 2026"): the page's one style of dates, where an answer written for an agent said them
 * in ISO beside a comparison's "25 Nov – 1 Dec 2026" (trial s9, finding 5).
 */
export function datesInWords(text: string): string {
  return text
    .replace(/\b(\d{4}-\d{2}-\d{2})…(\d{4}-\d{2}-\d{2})\b/g, (_, start: string, end: string) =>
      dates(start, end),
    )
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, (day) => dates(day, day));
}

/** "last28days" → "Last 28 days", "thisMonth" → "This month". */
export const presetLabel = (preset: string): string => {
  const words = preset
    .replace(/(\d+)/g, " $1 ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/\s+/g, " ");
};

/** The step's presets (DATE_PRESETS of src/schemas/google-analytics.ts, which imports zod). */
const PRESET = /^(today|yesterday|last\d+days|(this|last)(Week|Month|Quarter|Year))$/;

/** A preset's words ("last7days" → "Last 7 days"); any other name as it is (a chart's legend). */
export const presetWords = (name: string): string => (PRESET.test(name) ? presetLabel(name) : name);

/** A preset inside a sentence: "the last 7 days", "this month". */
const inSentence = (preset: string) => {
  const words = presetLabel(preset).toLowerCase();
  return words.startsWith("last ") && words.endsWith(" days") ? `the ${words}` : words;
};

/** One period in words: a preset's words or a person's name, each with its dates; an unnamed one, its dates. */
function periodText(range: Stated, sentence: boolean, dated: boolean): string {
  const span = dates(range.start_date, range.end_date);
  if (range.name === undefined) return span;
  const name = PRESET.test(range.name)
    ? sentence
      ? inSentence(range.name)
      : presetLabel(range.name)
    : range.name;
  return dated ? `${name} (${span})` : name;
}

/**
 * The words of each label the step gives a report's periods (column "sessions[last7days]", comparison
 * "last7days", a row's dateRange, GA's "date_range_2" for an unnamed one), from the stated `date_ranges`:
 * a heading's "Last 7 days (25 Nov – 1 Dec 2026)", or inside a sentence "the last 7 days (25 Nov – 1 Dec
 * 2026)". A person's name carries its dates too, "this week (25 Nov – 1 Dec 2026)": a name says what was
 * meant, the dates what was compared, and an example's "last 28 days" left on 7 other days showed no dates
 * at all (trial 2026-12-02-s8, finding 3). `dated` false gives the names alone, for a sentence after one
 * that gave the dates. Any other text reads as itself.
 */
export function periodWords(ranges: unknown, sentence = false, dated = true): (label: string) => string {
  if (!Array.isArray(ranges)) return (label) => label;
  const stated = ranges.filter(
    (r): r is Stated => typeof r?.start_date === "string" && typeof r?.end_date === "string",
  );
  const labels = rangeLabels(stated);
  const words = new Map<string, string>();
  stated.forEach((range, index) => {
    const text = periodText(range, sentence, dated);
    // GA names an unnamed range's rows date_range_<its index> when a report's ranges are not merged.
    if (range.name === undefined) words.set(`date_range_${index}`, text);
    words.set(labels[index] as string, text);
  });
  return (label) => words.get(label) ?? label;
}
