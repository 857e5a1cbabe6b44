import type { Literal, Shift, ShiftUnit } from "./ast.js";
import type { Token } from "./lexer.js";

/**
 * A shift after a second field (`joined.activityDate - 24h`, `+ 7 days`, `+ 10`): s40 N570 asked for members "created
 * at most 24 hours before joining", which a comparison of two fields alone could not say. Units are minutes, hours,
 * days and weeks, fixed spans; months and years are not (their length varies), and a capital M is no unit (review
 * s51, 7: `- 6M` read as minutes).
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

export const UNIT_MS: Record<ShiftUnit, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};

const LETTER: Record<ShiftUnit, string> = { minute: "m", hour: "h", day: "d", week: "w" };

/**
 * The farthest a time moves: 100,000 days (about 270 years), inside a JavaScript date's range and after year 100,
 * below which a zone's clock reads a two-digit year (review s51, 4: larger crashed; review s52, 10).
 */
const MAX_SPAN = 8.64e12;

/** The unit a word names (h, hours, d, days…), or undefined; one letter in lower case only. */
export function shiftUnit(word: string): ShiftUnit | undefined {
  if (word.length === 1 && word !== word.toLowerCase()) return undefined;
  const lower = word.toLowerCase();
  return Object.hasOwn(UNITS, lower) ? UNITS[lower] : undefined;
}

/** A shift's span: milliseconds with a unit, else the number itself. */
export const shiftSpan = (shift: Shift): number => shift.amount * (shift.unit ? UNIT_MS[shift.unit] : 1);

/** A shift as the parser reads it back: ` - 24h`, ` + 10`. */
export function printShift(shift: Shift | undefined): string {
  if (!shift) return "";
  const sign = shift.amount < 0 || Object.is(shift.amount, -0) ? "-" : "+";
  return ` ${sign} ${shift.text}${shift.unit ? LETTER[shift.unit] : ""}`;
}

/** A shift in words: ` − 24 hours`, ` + 10`. */
export function shiftWords(shift: Shift | undefined): string {
  if (!shift) return "";
  const unit = shift.unit ? ` ${shift.unit}${Math.abs(shift.amount) === 1 ? "" : "s"}` : "";
  return ` ${shift.amount < 0 || Object.is(shift.amount, -0) ? "−" : "+"} ${shift.text}${unit}`;
}

/** What the parser lends the shift's reading: its tokens, its errors, its number check, its keywords. */
export interface ShiftCursor {
  peek(): Token;
  next(): Token;
  fail(message: string, token?: Token): Error;
  number(token: Token): Literal;
  keyword(word: string): boolean;
  /** Whether the token follows the one before it with no space between. */
  glued(token: Token): boolean;
  /** The text from the token up to a space, a parenthesis or a comma, as written. */
  rest(token: Token): string;
}

/** A name with a dash quoted as a dotted path's last part (joined."utm-source"), or "" when it has no head. */
function dashedName(other: string, rest: string): string {
  const dot = other.lastIndexOf(".");
  return dot > 0 ? `${other.slice(0, dot)}.${JSON.stringify(`${other.slice(dot + 1)}${rest}`)}` : "";
}

/** Whether a token is a shift's sign: "+" or "-", or a number glued to its "-" (-24h). */
export const isShiftSign = (token: Token): boolean =>
  (token.kind === "op" && (token.text === "+" || token.text === "-")) ||
  (token.kind === "number" && token.text.startsWith("-"));

/** The shift after a second field, when a sign follows it; undefined when none does. */
export function readShift(at: ShiftCursor, other: string): Shift | undefined {
  const sign = at.peek();
  if (!isShiftSign(sign)) return undefined;
  const op = sign.kind === "op";
  // joined.utm-2 read as joined.utm minus 2, silently (review s51, 6): a shift's sign has a space before it.
  if (at.glued(sign)) {
    // A dash may be part of a name (joined.utm-source): its whole rest quoted, as written (review s52, 3).
    const rest = at.rest(sign);
    const quoted = rest.startsWith("-") ? dashedName(other, rest) : "";
    const spaced = `${other} ${rest[0]} ${rest.slice(1)}`;
    throw at.fail(
      `a shift is written with a space before its sign (${spaced})${quoted ? `; a name with a dash is quoted after its head: ${quoted}` : ""}`,
      sign,
    );
  }
  if (op) at.next();
  const size = at.next();
  const written = op ? sign.text : "-";
  if (size.kind !== "number" || (op && size.text.startsWith("-")))
    throw at.fail(`expected a number after ${other} ${written}: e.g. ${other} - 24h, + 7d, + 10`, size);
  const number = at.number(size);
  // The number's own sign is the shift's when glued to it (-24h): its size is what follows the sign.
  const amount = (written === "-" ? -1 : 1) * Math.abs(number.kind === "number" ? number.value : 0);
  const text = size.text.replace(/^-/, "");
  const word = at.peek();
  if (word.kind !== "word" || at.keyword(word.text)) return { amount, text };
  const unit = shiftUnit(word.text);
  if (!unit)
    throw at.fail(
      `${JSON.stringify(word.text)} is no unit of a shift: m, h, d or w (minutes, hours, days, weeks; months and years vary in length, so give days), e.g. ${other} - 30d`,
      word,
    );
  at.next();
  if (Math.abs(amount * UNIT_MS[unit]) > MAX_SPAN)
    throw at.fail("a shift moves a time at most 100,000 days (about 270 years)", size);
  return { amount, text, unit };
}
