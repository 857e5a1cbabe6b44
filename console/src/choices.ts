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
}

/** Past this many matches the list shows the first ones and says how many more to narrow down. */
export const MAX_SHOWN = 150;

const fold = (text: string) => text.trim().toLowerCase();

/**
 * The choices whose label or value contains the typed text (any case; all of them when nothing is
 * typed), group by group in the order groups first appear (the list shows them under one heading each,
 * in this order); in a group, the one named exactly first, then those that start with the text
 * ("Sessions" before "Average session duration").
 */
export function matching(choices: readonly Choice[], typed: string): Choice[] {
  const wanted = fold(typed);
  // The very name typed first, then names that start with it, then the others that contain it.
  const rank = (choice: Choice) => {
    const [label, value] = [fold(choice.label), fold(choice.value)];
    if (label === wanted || value === wanted) return 0;
    return label.startsWith(wanted) || value.startsWith(wanted) ? 1 : 2;
  };
  const groups = [...new Set(choices.map((choice) => choice.group))];
  return choices
    .filter((choice) => fold(choice.label).includes(wanted) || fold(choice.value).includes(wanted))
    .map((choice, index) => ({ choice, index }))
    .sort(
      (a, b) =>
        groups.indexOf(a.choice.group) - groups.indexOf(b.choice.group) ||
        rank(a.choice) - rank(b.choice) ||
        a.index - b.index,
    )
    .map(({ choice }) => choice);
}

/** The choice a typed text names exactly (its label or its value, any case), if any. */
export function namedChoice(choices: readonly Choice[], typed: string): Choice | undefined {
  const wanted = fold(typed);
  if (!wanted) return undefined;
  return (
    choices.find((choice) => choice.value === typed.trim()) ??
    choices.find((choice) => fold(choice.label) === wanted || fold(choice.value) === wanted)
  );
}
