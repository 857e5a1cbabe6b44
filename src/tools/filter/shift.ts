import type { Shift, ShiftUnit } from "./ast.js";

/**
 * The units a shift is written in after a second field (`joined.activityDate - 24h`, `+ 7 days`): s40 N570 asked
 * for members "created at most 24 hours before joining", which a comparison of two fields alone could not say.
 */
const UNITS: Record<string, ShiftUnit> = {
  m: "minute",
  min: "minute",
  mins: "minute",
  minute: "minute",
  minutes: "minute",
  h: "hour",
  hr: "hour",
  hrs: "hour",
  hour: "hour",
  hours: "hour",
  d: "day",
  day: "day",
  days: "day",
  w: "week",
  week: "week",
  weeks: "week",
};

const MS: Record<ShiftUnit, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

const LETTER: Record<ShiftUnit, string> = { minute: "m", hour: "h", day: "d", week: "w" };

/** The unit a word names (h, hours, d, days…), or undefined. */
export const shiftUnit = (word: string): ShiftUnit | undefined =>
  Object.hasOwn(UNITS, word.toLowerCase()) ? UNITS[word.toLowerCase()] : undefined;

/** A shift's span in milliseconds (with a unit). */
export const shiftMs = (shift: Shift): number => shift.amount * (shift.unit ? MS[shift.unit] : 1);

/** A shift as the parser reads it back: ` - 24h`, ` + 10`. */
export function printShift(shift: Shift | undefined): string {
  if (!shift) return "";
  const sign = shift.amount < 0 || Object.is(shift.amount, -0) ? "-" : "+";
  return ` ${sign} ${String(Math.abs(shift.amount))}${shift.unit ? LETTER[shift.unit] : ""}`;
}

/** A shift in words: ` − 24 hours`, ` + 10`. */
export function shiftWords(shift: Shift | undefined): string {
  if (!shift) return "";
  const size = Math.abs(shift.amount);
  const unit = shift.unit ? ` ${shift.unit}${size === 1 ? "" : "s"}` : "";
  return ` ${shift.amount < 0 ? "−" : "+"} ${size.toLocaleString("en-US", { maximumFractionDigits: 20 })}${unit}`;
}
