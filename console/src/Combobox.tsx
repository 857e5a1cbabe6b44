/**
 * A text input with a list of suggestions grouped under headings (the ARIA combobox pattern, from
 * downshift's useCombobox: https://www.downshift-js.com/use-combobox), for a value people know by one name
 * and an API knows by another: a GA metric is "Sessions" to a marketer and `sessions` to the Data API.
 * The input shows a choice's label, the form keeps its value; typing filters on either; a typed text that
 * is a choice's label or value (any case) is that choice, and any other text is kept as typed (the
 * server then says what is wrong with it, under this field).
 */
import { useCombobox } from "downshift";
import { useEffect, useMemo, useState } from "react";

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
const MAX_SHOWN = 150;

const fold = (text: string) => text.trim().toLowerCase();

/**
 * The choices whose label or value contains the typed text (any case; all of them when nothing is
 * typed), group by group in the order groups first appear (the list shows them under one heading each,
 * in this order); in a group, those that start with the text first ("Sessions" before "Average session
 * duration").
 */
export function matching(choices: readonly Choice[], typed: string): Choice[] {
  const wanted = fold(typed);
  const rank = (choice: Choice) =>
    fold(choice.label).startsWith(wanted) || fold(choice.value).startsWith(wanted) ? 0 : 1;
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

/** What the input shows for a value: its choice's label, or the value itself when no choice has it. */
const shown = (choices: readonly Choice[], value: string | undefined) =>
  value === undefined ? "" : (choices.find((choice) => choice.value === value)?.label ?? value);

function grouped(items: readonly Choice[]): [string, { choice: Choice; index: number }[]][] {
  const groups = new Map<string, { choice: Choice; index: number }[]>();
  items.forEach((choice, index) => {
    const group = groups.get(choice.group);
    if (group) group.push({ choice, index });
    else groups.set(choice.group, [{ choice, index }]);
  });
  return [...groups.entries()];
}

export function Combobox(props: {
  id: string;
  label: string;
  choices: readonly Choice[];
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  disabled?: boolean;
  placeholder?: string;
  /** The ids of what describes the input (its error, its note). */
  describedBy?: string;
  invalid?: boolean;
}) {
  const { id, choices, value, onChange } = props;
  const [typed, setTyped] = useState(() => shown(choices, value));
  // The value set from outside (an example, a loaded list) shows as its label.
  useEffect(() => {
    setTyped((now) => (namedChoice(choices, now)?.value === value ? now : shown(choices, value)));
  }, [choices, value]);
  const items = useMemo(() => matching(choices, typed).slice(0, MAX_SHOWN), [choices, typed]);
  const more = matching(choices, typed).length - items.length;
  const selectedItem = choices.find((choice) => choice.value === value) ?? null;
  const settle = (text: string) => {
    const choice = namedChoice(choices, text);
    const next = choice?.value ?? (text.trim() || undefined);
    if (choice) setTyped(choice.label);
    if (next !== value) onChange(next);
  };
  const combo = useCombobox<Choice>({
    items,
    inputId: id,
    labelId: `${id}-label`,
    menuId: `${id}-list`,
    getItemId: (index) => `${id}-option-${index}`,
    itemToString: (item) => item?.label ?? "",
    itemToKey: (item) => item?.value,
    selectedItem,
    inputValue: typed,
    onInputValueChange: ({ inputValue, type }) => {
      setTyped(inputValue);
      // Cleared by the person: nothing chosen.
      if (type === useCombobox.stateChangeTypes.InputChange && inputValue === "" && value !== undefined)
        onChange(undefined);
    },
    onSelectedItemChange: ({ selectedItem: item }) => {
      if (item) {
        setTyped(item.label);
        if (item.value !== value) onChange(item.value);
      }
    },
    onStateChange: ({ type }) => {
      // Leaving the input without picking: what was typed is settled as a choice or kept as typed.
      if (type === useCombobox.stateChangeTypes.InputBlur) settle(typed);
    },
  });
  const { isOpen, highlightedIndex, getInputProps, getMenuProps, getItemProps, getLabelProps } = combo;
  return (
    <div className="combo">
      <label {...getLabelProps()} htmlFor={id} className="control-label">
        {props.label}
      </label>
      <input
        {...getInputProps({
          className: "form-control",
          disabled: props.disabled,
          placeholder: props.placeholder,
          "aria-describedby": props.describedBy,
          "aria-invalid": props.invalid ? true : undefined,
          onKeyDown: (event) => {
            // Enter on a typed name with nothing highlighted settles it rather than submitting the form.
            if (event.key === "Enter" && highlightedIndex < 0) {
              event.preventDefault();
              settle(typed);
            }
          },
        })}
      />
      <div {...getMenuProps({ className: isOpen ? "combo-list" : "combo-list closed" })}>
        {isOpen
          ? grouped(items).map(([group, entries], g) => (
              // A listbox holds options and groups of them (WAI-ARIA listbox): a fieldset is neither.
              // biome-ignore lint/a11y/useSemanticElements: see above
              <div role="group" aria-labelledby={`${id}-group-${g}`} key={group}>
                <div role="presentation" className="combo-group" id={`${id}-group-${g}`}>
                  {group}
                </div>
                {entries.map(({ choice, index }) => (
                  <div
                    key={choice.value}
                    className={index === highlightedIndex ? "combo-option active" : "combo-option"}
                    {...getItemProps({ item: choice, index })}
                  >
                    <span className="combo-label">{choice.label}</span>
                    {choice.detail ? <span className="combo-detail">{choice.detail}</span> : null}
                  </div>
                ))}
              </div>
            ))
          : null}
        {isOpen && items.length === 0 ? (
          <div role="presentation" className="combo-none">
            Nothing matches “{typed.trim()}”.
          </div>
        ) : null}
        {isOpen && more > 0 ? (
          <div role="presentation" className="combo-none">
            {more} more: type to narrow the list.
          </div>
        ) : null}
      </div>
    </div>
  );
}
