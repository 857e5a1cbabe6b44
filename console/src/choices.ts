/**
 * The suggestions of a picker (Combobox.tsx) as data: which choices match what was typed, in which order,
 * and which one a typed text names. Pure, so a test checks it without a page.
 */
export interface Choice {
  /** What the form keeps and sends: an API name. */
  value: string;
  /** What a person reads and types: a UI name. */
  label: string;
  /** The heading it is listed under (a GA category). */
  group: string;
  /** Shown beside the label in the list: a count, or why it is the usual one. */
  detail?: string;
  /** Shown only on hover: a GA field's API name (trial s9, finding 8: not in code font in the list). */
  hover?: string;
  /**
   * Other words that find it (an older name: "Conversions" for Key events), and what the list then says
   * beside it in place of its detail ("Conversions, now called Key events").
   */
  also?: { words: readonly string[]; says: string };
}

/** Past this many matches the list shows the first ones and says how many more to narrow down. */
export const MAX_SHOWN = 150;

const fold = (text: string) => text.trim().toLowerCase();

/** Whether `text` names the choice by one of its other words: `exact`ly, or as part of one. */
const byOtherWord = (choice: Choice, wanted: string, exact: boolean) =>
  (choice.also?.words ?? []).some((word) => (exact ? fold(word) === wanted : fold(word).includes(wanted)));

/** A text's words, folded: "1-day active users" → 1, day, active, users. */
const wordsOf = (text: string) => fold(text).match(/[a-z0-9]+/g) ?? [];

/** Past every whole-word rank: a name that holds the typed text only inside a word. */
const INSIDE_A_WORD = 1000;

/**
 * How well a choice answers the typed text, lower first. The ranking rule (trial s9, finding 10: "users"
 * listed 1-day active users before Total users):
 * 0. the very name typed: its label, its value or one of its other words;
 * 1. a label or value that starts with the text ("Sessions per user" for "sessions");
 * 2. a label holding the typed words as whole words, side by side: 2 plus its count of other words, so
 *    the plainest name comes first ("Total users" and "Active users", 2 + 1, before "1-day active
 *    users", 2 + 3; "Purchase revenue" before "Gross item revenue");
 * 3. a name holding the text inside a word ("Crash-affected users" for "affect"): after all of those.
 * Ties keep the catalog's order.
 */
export function matchRank(choice: Choice, typed: string): number {
  const wanted = fold(typed);
  const [label, value] = [fold(choice.label), fold(choice.value)];
  if (label === wanted || value === wanted || (wanted && byOtherWord(choice, wanted, true))) return 0;
  if (label.startsWith(wanted) || value.startsWith(wanted)) return 1;
  const [typedWords, labelWords] = [wordsOf(wanted), wordsOf(label)];
  const at = labelWords.findIndex((_, start) =>
    typedWords.every((word, i) => labelWords[start + i] === word),
  );
  return typedWords.length > 0 && at >= 0 ? 2 + labelWords.length - typedWords.length : INSIDE_A_WORD;
}

/** A group named by the typed words ("Revenue" for "revenue", "User" for "users"). */
const namesGroup = (group: string, typed: string) => {
  const singular = (word: string) => word.replace(/s$/, "");
  const [named, wanted] = [wordsOf(group).map(singular), wordsOf(typed).map(singular)];
  return wanted.length > 0 && named.join(" ") === wanted.join(" ");
};

/**
 * The choices whose label, value or other words contain the typed text (any case; all of them when
 * nothing is typed), group by group (the list shows them under one heading each), each in its group by
 * `matchRank`. The groups come by their best-ranked choice ("Views" lists Views before Promotion views,
 * whose group comes first); between groups that tie, one named by the typed words first (typing
 * "revenue", the Revenue group's Purchase revenue and Total revenue before Ecommerce's Item revenue),
 * then in the order groups first appear. A choice found only by another word says so.
 */
export function matching(choices: readonly Choice[], typed: string): Choice[] {
  const wanted = fold(typed);
  const named = (choice: Choice) =>
    fold(choice.label).includes(wanted) || fold(choice.value).includes(wanted);
  const found = choices
    .filter((choice) => named(choice) || (wanted && byOtherWord(choice, wanted, false)))
    .map((choice, index) => ({ choice, index, rank: matchRank(choice, typed) }));
  const best = new Map<string, number>();
  for (const { choice, rank } of found)
    best.set(choice.group, Math.min(rank, best.get(choice.group) ?? Number.POSITIVE_INFINITY));
  const groups = [...new Set(choices.map((choice) => choice.group))];
  const groupOrder = (group: string) => [
    best.get(group) ?? 0,
    namesGroup(group, wanted) ? 0 : 1,
    groups.indexOf(group),
  ];
  const byGroup = (a: string, b: string) => {
    const [x, y] = [groupOrder(a), groupOrder(b)];
    return x.reduce((diff, value, i) => diff || value - (y[i] ?? 0), 0);
  };
  return found
    .sort((a, b) => byGroup(a.choice.group, b.choice.group) || a.rank - b.rank || a.index - b.index)
    .map(({ choice }) => (named(choice) || !choice.also ? choice : { ...choice, detail: choice.also.says }));
}

/** The choice a typed text names exactly (its label or its value, any case), if any. */
export function namedChoice(choices: readonly Choice[], typed: string): Choice | undefined {
  const wanted = fold(typed);
  if (!wanted) return undefined;
  return (
    choices.find((choice) => choice.value === typed.trim()) ??
    choices.find((choice) => fold(choice.label) === wanted || fold(choice.value) === wanted) ??
    choices.find((choice) => byOtherWord(choice, wanted, true))
  );
}

/** What the input shows for a value: its choice's label, or the value itself when no choice has it. */
export const shownFor = (choices: readonly Choice[], value: string | undefined): string =>
  value === undefined ? "" : (choices.find((choice) => choice.value === value)?.label ?? value);

/**
 * What the input shows once the choices or the value change, from what it shows `now`. A value shown as
 * itself (drawn before its choices came: a picker drawn again after a pick starts with none) shows as its
 * label once they come; before, a typed text naming the value won first and kept "activeUsers" in the box
 * for good (CI, stop 35). What a person is typing stays when only the choices change.
 */
export function typedFor(
  choices: readonly Choice[],
  value: string | undefined,
  now: string,
  valueChanged: boolean,
): string {
  if (value !== undefined && now === value) return shownFor(choices, value);
  if (namedChoice(choices, now)?.value === value) return now;
  return valueChanged ? shownFor(choices, value) : now;
}
