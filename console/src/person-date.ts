/**
 * A day as a person types it with the month in words, "18 Nov 2026", "18 November 2026" or "Nov 18,
 * 2026", as the form's YYYY-MM-DD (trial 2026-12-02-s7, finding 11: "18 Nov 2026" was refused with
 * "use YYYY-MM-DD, NdaysAgo…"). A day written in numbers only, "18/11/2026" or "11/18/2026", reads
 * differently by country: it is left as typed, and the check refuses it.
 */
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** A month's word: at least its first three letters, no more than its name ("Sept" is September). */
const monthOf = (word: string): number | undefined => {
  const lower = word.toLowerCase();
  const index = lower.length >= 3 ? MONTHS.findIndex((name) => name.startsWith(lower)) : -1;
  return index >= 0 ? index + 1 : undefined;
};

const DAY_MONTH_YEAR = /^(\d{1,2})\.?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})$/;
const MONTH_DAY_YEAR = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/;

/** "18 Nov 2026" → "2026-11-18"; undefined for anything else, or a day the calendar does not have. */
export function isoFromWords(text: string): string | undefined {
  const trimmed = text.trim();
  const dmy = DAY_MONTH_YEAR.exec(trimmed);
  const mdy = dmy ? undefined : MONTH_DAY_YEAR.exec(trimmed);
  const [day, word, year] = dmy ? [dmy[1], dmy[2], dmy[3]] : mdy ? [mdy[2], mdy[1], mdy[3]] : [];
  const month = word === undefined ? undefined : monthOf(word);
  if (day === undefined || year === undefined || month === undefined) return undefined;
  const iso = `${year}-${String(month).padStart(2, "0")}-${day.padStart(2, "0")}`;
  const time = Date.parse(`${iso}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(iso) ? iso : undefined;
}
