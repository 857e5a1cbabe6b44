/**
 * A report's numbers in the reader's locale: 2 decimals or 4 significant digits, whichever is more precise
 * (roundingPriority "morePrecision":
 * https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Intl/NumberFormat/NumberFormat#roundingpriority),
 * as src/tools/ga/report-compare.ts rounds a change: -0.0046 reads -0.0046, not -0, and 12,335 stays 12,335.
 */
export function reportNumbers(locale?: string): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, {
    maximumFractionDigits: 2,
    maximumSignificantDigits: 4,
    roundingPriority: "morePrecision",
  });
}
