/**
 * Several choices picked one after another from one box (the Combobox, used as it is), shown below it as
 * chips in the order picked, each with its own Remove button: the columns of a file, say. A name typed
 * and left unpicked is the choice it names in any case and spacing, picked already or not (console review
 * s14, finding 6: "lead score", already a column, was refused as no field); what the box cannot match is
 * said under it by the caller's words (`notAChoice`), and nothing is added.
 */
import { useEffect, useRef, useState } from "react";
import { type Choice, Combobox } from "./Combobox.tsx";
import { namedChoice } from "./choices.ts";

interface PickManyProps {
  id: string;
  label: string;
  /** What the picks are, for the list of chips: "Columns of the file, in order". */
  pickedLabel: string;
  choices: readonly Choice[];
  /** The labels picked, in order. */
  picked: readonly string[];
  onChange: (picked: string[]) => void;
  /** Why a typed text is none of the choices, shown under the box. */
  notAChoice: (typed: string) => string;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  describedBy?: string;
  invalid?: boolean;
  /** What the choices are called, for the box's "see all 80 lead fields". */
  browse: string;
}

/** A name without its case and spaces: "lead  score" and "LeadScore" are "leadscore". */
const squeezed = (text: string) => text.replace(/\s+/g, "").toLowerCase();

/**
 * The choice a value from the box is: one of its choices' values, or a name typed and not picked. The box
 * offers only the choices not picked yet, so it hands a picked one's name on as typed, to be found here.
 */
function choiceOf(choices: readonly Choice[], value: string): Choice | undefined {
  const typed = squeezed(value);
  return (
    namedChoice(choices, value) ??
    choices.find((one) => squeezed(one.label) === typed || squeezed(one.value) === typed)
  );
}

/** Focus moved after a pick (the box is new) or a removal (its button is gone): to the box or a chip. */
function useFocusAfter() {
  const next = useRef<string | undefined>(undefined);
  const [round, setRound] = useState(0);
  // Where the last round sent the focus: the box, given it back after a pick, keeps its list closed.
  const [target, setTarget] = useState<string | undefined>();
  useEffect(() => {
    if (round === 0 || !next.current) return;
    document.getElementById(next.current)?.focus();
    next.current = undefined;
  }, [round]);
  return {
    round,
    target,
    focus: (id: string) => {
      next.current = id;
      setTarget(id);
      setRound((now) => now + 1);
    },
  };
}

export function PickMany(props: PickManyProps) {
  const { id, picked } = props;
  const [note, setNote] = useState<string | undefined>();
  const { round, target, focus } = useFocusAfter();
  const open = props.choices.filter((choice) => !picked.includes(choice.label));
  const add = (value: string | undefined) => {
    if (value === undefined) return setNote(undefined);
    const choice = choiceOf(props.choices, value);
    if (!choice) return setNote(props.notAChoice(value));
    setNote(undefined);
    if (!picked.includes(choice.label)) props.onChange([...picked, choice.label]);
    // A new, empty box (its text gone) that keeps the focus, for the next pick.
    focus(id);
  };
  const remove = (index: number) => {
    props.onChange(picked.filter((_, i) => i !== index));
    const after = Math.min(index, picked.length - 2);
    focus(after >= 0 ? `${id}-remove-${after}` : id);
  };
  const described = [props.describedBy, note ? `${id}-unknown` : undefined].filter(Boolean).join(" ");
  return (
    // Typing again takes back what was said of the last text (it was left under an emptied box); the
    // box's own input event bubbles here, so the Combobox stays as it is.
    <div className="pick-many" onInput={() => setNote(undefined)}>
      <Combobox
        key={round}
        id={id}
        label={props.label}
        choices={open}
        value={undefined}
        onChange={add}
        disabled={props.disabled}
        placeholder={props.placeholder}
        required={props.required}
        browse={props.browse}
        refocused={target === id}
        describedBy={described || undefined}
        invalid={props.invalid || note !== undefined}
      />
      {note ? (
        <p className="error-detail" id={`${id}-unknown`}>
          {note}
        </p>
      ) : null}
      <ul className="chips" aria-label={props.pickedLabel}>
        {picked.map((label, index) => (
          <li key={label} className="chip">
            <span>{label}</span>
            <button
              type="button"
              id={`${id}-remove-${index}`}
              className="chip-remove"
              aria-label={`Remove ${label}`}
              disabled={props.disabled}
              onClick={() => remove(index)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
