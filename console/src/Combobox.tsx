/**
 * A text input with a list of suggestions grouped under headings (the ARIA combobox pattern, from
 * downshift's useCombobox: https://www.downshift-js.com/use-combobox), for a value people know by one name
 * and an API knows by another: a GA metric is "Sessions" to a marketer and `sessions` to the Data API.
 * The input shows a choice's label, the form keeps its value; typing filters on either; a typed text that
 * is a choice's label or value (any case) is that choice, and any other text is kept as typed (the
 * server then says what is wrong with it, under this field).
 *
 * A box of a few hundred choices at most (a task's lists or campaigns: `browse`) is also browsed as a
 * select is: focusing or clicking it empty, or showing its choice as picked, lists every choice (trial s8,
 * finding 1: a list could be found only by typing part of its name), and a typed text that matches
 * nothing says how to see them all again. The GA pickers, of many hundred fields, list as typed.
 */
import { useCombobox } from "downshift";
import { type RefObject, useEffect, useMemo, useRef, useState } from "react";
import { type Choice, MAX_SHOWN, matching, namedChoice, shownFor, typedFor } from "./choices.ts";

export type { Choice } from "./choices.ts";

function grouped(items: readonly Choice[]): [string, { choice: Choice; index: number }[]][] {
  const groups = new Map<string, { choice: Choice; index: number }[]>();
  items.forEach((choice, index) => {
    const group = groups.get(choice.group);
    if (group) group.push({ choice, index });
    else groups.set(choice.group, [{ choice, index }]);
  });
  return [...groups.entries()];
}

interface ComboboxProps {
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
  /** Shows the required mark beside the label (the input says aria-required). */
  required?: boolean;
  /** Browsed as a select (see above): what the choices are called, "lists", in "see all 10 lists". */
  browse?: string;
  /**
   * The box's first focus is the focus given back after a pick (PickMany's new, empty box): its list stays
   * closed, so the chip just added and the next field show (console review s14, finding 2: it opened over
   * them, and the next click there added a column). Typing or ArrowDown opens it, as in any box.
   */
  refocused?: boolean;
}

/**
 * The combobox's state: what is typed, the matches listed, and settling a typed text on a choice.
 *
 * The input's text is downshift's own state, not a prop (trial s10, finding 6). Held as a prop, it was
 * given back to downshift only after downshift reported it, from an effect after the next render: that
 * render put the old text back in the input, so a key pressed before the report landed was added to the
 * old text ("channel" typed fast became "cannel"; select all, Delete and typing gave "Active
 * usersSessions"), and `fill()` over a pick just made appended to it once its late label re-rendered.
 * downshift's reducer sets its own text in the keystroke's event; `typed` mirrors it in that same event,
 * for the list's filter and for settling.
 */
function useChoices(props: ComboboxProps) {
  const { id, choices, value, onChange } = props;
  const [typed, setTyped] = useState(() => shownFor(choices, value));
  const picked = choices.find((choice) => choice.value === value);
  // Browsed, a box that shows its pick as picked lists everything, the pick highlighted, as a select does.
  const filter = props.browse && picked && typed === picked.label ? "" : typed;
  const all = useMemo(() => matching(choices, filter), [choices, filter]);
  const items = all.slice(0, MAX_SHOWN);
  const settle = (text: string) => {
    const choice = namedChoice(choices, text);
    const next = choice?.value ?? (text.trim() || undefined);
    if (choice) show(choice.label);
    if (next !== value) onChange(next);
  };
  const { InputChange, InputBlur, ControlledPropUpdatedSelectedItem } = useCombobox.stateChangeTypes;
  const combo = useCombobox<Choice>({
    items,
    inputId: id,
    labelId: `${id}-label`,
    menuId: `${id}-list`,
    getItemId: (index) => `${id}-option-${index}`,
    itemToString: (item) => item?.label ?? "",
    itemToKey: (item) => item?.value,
    selectedItem: picked ?? null,
    initialInputValue: typed,
    // A pick changed from outside shows through the effect below (typedFor), not through downshift's own
    // update, which came also when nothing was picked anew (its internal pick and the prop compared) and
    // put the old pick's name back over a name just filled in (d45768b's filter builder).
    stateReducer: (state, { type, changes }) =>
      type === ControlledPropUpdatedSelectedItem ? { ...changes, inputValue: state.inputValue } : changes,
    // Typing is mirrored in the keystroke's own event (below); this late report would undo a newer key.
    onInputValueChange: ({ inputValue, type }) => {
      if (type !== InputChange) setTyped(inputValue);
    },
    onSelectedItemChange: ({ selectedItem: item }) => {
      if (item) {
        setTyped(item.label);
        if (item.value !== value) onChange(item.value);
      }
    },
    onStateChange: ({ type, inputValue }) => {
      // Leaving the input without picking: what was typed is settled as a choice or kept as typed.
      if (type === InputBlur) settle(inputValue ?? typed);
    },
  });
  const { setInputValue } = combo;
  function show(text: string) {
    setTyped(text);
    setInputValue(text);
  }
  // What the input holds now, for the effect below, which must not run again on every key.
  const shown = useRef(combo.inputValue);
  shown.current = combo.inputValue;
  const previous = useRef(value);
  // The value set from outside (an example, a reset) shows as its label. When only the choices change (the
  // property's fields arriving), what the person is typing stays: it was wiped when the list came in after
  // the first letters, and the unfiltered list then offered its first name instead of the one typed.
  // A box the person is in keeps its text when only the choices come: renamed then ("activeUsers" to "Active
  // users"), a text they had selected to replace lost its selection and what they typed was added to it
  // (CI, dd84a2d). Leaving the box settles the text on its choice's name.
  useEffect(() => {
    const changed = previous.current !== value;
    previous.current = value;
    if (!changed && document.activeElement?.id === id) return;
    const next = typedFor(choices, value, shown.current, changed);
    if (next !== shown.current) {
      setTyped(next);
      setInputValue(next);
    }
  }, [choices, value, setInputValue, id]);
  /** A key typed: the list filters on it in this same event; cleared by the person, nothing is chosen. */
  const typedNow = (text: string) => {
    setTyped(text);
    if (text === "" && value !== undefined) onChange(undefined);
  };
  return { combo, typed, typedNow, items, more: all.length - items.length, settle };
}

/**
 * Closes the open list on a pointerdown anywhere outside the combobox, settling what was typed: the list
 * lies over the fields below it, so a person's next press there must not land on one of its options
 * (downshift closes it only on the mouseup, after the press).
 */
function useCloseOutside(root: RefObject<HTMLDivElement | null>, isOpen: boolean, close: () => void) {
  useEffect(() => {
    if (!isOpen) return;
    const down = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close();
    };
    document.addEventListener("pointerdown", down, true);
    return () => document.removeEventListener("pointerdown", down, true);
  }, [root, isOpen, close]);
}

/**
 * Opens a browsed box's list when it takes focus from the keyboard (Tab) or a script; a press of the
 * pointer leaves it to the click, which downshift toggles (opened on focus, the click would close it).
 */
function useOpenOnFocus(props: ComboboxProps, typed: string, isOpen: boolean, open: () => void) {
  // When the pointer last went down on the input: a focus within a moment of it is that press's.
  const pressedAt = useRef(0);
  const quiet = useRef(props.refocused === true);
  return {
    onPointerDown: () => {
      pressedAt.current = Date.now();
    },
    onFocus: () => {
      if (quiet.current) {
        quiet.current = false;
        return;
      }
      const press = Date.now() - pressedAt.current < 1000;
      if (props.browse && !press && !isOpen && typed.trim() === "" && props.choices.length > 0) open();
    },
  };
}

export function Combobox(props: ComboboxProps) {
  const { id } = props;
  const { combo, typed, typedNow, items, more, settle } = useChoices(props);
  const { isOpen, highlightedIndex, getInputProps, getMenuProps, getItemProps, getLabelProps } = combo;
  const root = useRef<HTMLDivElement>(null);
  // What the input holds now. A handler's `typed` is its render's: a pick clicked and left at once (the
  // next field focused before the pick's own render) settled the text typed before it, "beta" over "Beta
  // Testers" (stop 40's CI run), so leaving and closing settle the input's own text.
  const live = () => (document.getElementById(id) as HTMLInputElement | null)?.value ?? typed;
  useCloseOutside(root, isOpen, () => {
    combo.closeMenu();
    settle(live());
  });
  const focus = useOpenOnFocus(props, typed, isOpen, combo.openMenu);
  return (
    <div className="combo" ref={root}>
      <label {...getLabelProps()} htmlFor={id} className="control-label">
        {props.label}
        {/* A mark for the eye: the input's aria-required says it, and the name stays "List". */}
        {props.required ? (
          <span className="required" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      <input
        {...getInputProps({
          className: "form-control",
          disabled: props.disabled,
          placeholder: props.placeholder,
          "aria-describedby": props.describedBy,
          "aria-invalid": props.invalid ? true : undefined,
          "aria-required": props.required ? true : undefined,
          ...focus,
          onChange: (event) => typedNow((event.target as HTMLInputElement).value),
          // downshift settles a blur only with the list open (onStateChange above): closed by Escape, the
          // text typed was left unsettled, and "Add to the filter" tapped next at 400 px found no value.
          onBlur: () => {
            if (!isOpen) settle(live());
          },
          onKeyDown: (event) => {
            // Enter on a typed name with nothing highlighted settles it rather than submitting the form.
            if (event.key === "Enter" && highlightedIndex < 0) {
              event.preventDefault();
              settle(live());
            }
          },
        })}
      />
      {/* A listbox holds only options (axe aria-required-children): with none to show it stays hidden and
          the words saying so show in its place, in a status a screen reader reads out. */}
      <div {...getMenuProps({ className: isOpen && items.length > 0 ? "combo-list" : "combo-list closed" })}>
        {isOpen ? (
          <Options id={id} items={items} highlighted={highlightedIndex} itemProps={getItemProps} />
        ) : null}
        {isOpen && more > 0 ? (
          <div role="presentation" className="combo-none">
            {more} more: type to narrow the list.
          </div>
        ) : null}
      </div>
      <div role="status" className="combo-status">
        {isOpen && items.length === 0 && typed.trim() !== "" ? (
          <div className="combo-list combo-none">
            Nothing matches “{typed.trim()}”.
            {props.browse && props.choices.length > 0
              ? ` Clear the box to see all ${props.choices.length} ${props.browse}.`
              : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** The listed choices under their groups' headings. */
function Options(props: {
  id: string;
  items: Choice[];
  highlighted: number;
  itemProps: ReturnType<typeof useCombobox<Choice>>["getItemProps"];
}) {
  const { id } = props;
  return grouped(props.items).map(([group, entries], g) => (
    // A listbox holds options and groups of them (WAI-ARIA listbox): a fieldset is neither.
    // biome-ignore lint/a11y/useSemanticElements: see above
    <div role="group" aria-labelledby={`${id}-group-${g}`} key={group}>
      <div role="presentation" className="combo-group" id={`${id}-group-${g}`}>
        {group}
      </div>
      {entries.map(({ choice, index }) => (
        <div
          key={choice.value}
          className={index === props.highlighted ? "combo-option active" : "combo-option"}
          title={choice.hover}
          {...props.itemProps({ item: choice, index })}
        >
          <span className="combo-label">{choice.label}</span>
          {choice.detail ? <span className="combo-detail">{choice.detail}</span> : null}
        </div>
      ))}
    </div>
  ));
}
