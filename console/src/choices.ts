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
  /** Shown beside the label in the list: the API name, or a count. */
  detail?: string;
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

/**
 * The choices whose label, value or other words contain the typed text (any case; all of them when
 * nothing is typed), group by group (the list shows them under one heading each): the groups that hold
 * the very name typed first ("Views" lists Views before Promotion views, whose group comes first), then
 * in the order groups first appear; in a group, the one named exactly first, then those that start with
 * the text ("Sessions" before "Average session duration"). A choice found only by another word says so.
 */
export function matching(choices: readonly Choice[], typed: string): Choice[] {
  const wanted = fold(typed);
  // The very name typed first, then names that start with it, then the others that contain it.
  const rank = (choice: Choice) => {
    const [label, value] = [fold(choice.label), fold(choice.value)];
    if (label === wanted || value === wanted || (wanted && byOtherWord(choice, wanted, true))) return 0;
    return label.startsWith(wanted) || value.startsWith(wanted) ? 1 : 2;
  };
  const named = (choice: Choice) =>
    fold(choice.label).includes(wanted) || fold(choice.value).includes(wanted);
  const found = choices.filter((choice) => named(choice) || (wanted && byOtherWord(choice, wanted, false)));
  const exactGroups = new Set(found.filter((choice) => rank(choice) === 0).map((choice) => choice.group));
  const groups = [...new Set(choices.map((choice) => choice.group))];
  const groupRank = (group: string) => (exactGroups.has(group) ? 0 : groups.length) + groups.indexOf(group);
  return found
    .map((choice, index) => ({ choice, index }))
    .sort(
      (a, b) =>
        groupRank(a.choice.group) - groupRank(b.choice.group) ||
        rank(a.choice) - rank(b.choice) ||
        a.index - b.index,
    )
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
