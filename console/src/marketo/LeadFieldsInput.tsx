/**
 * An export's Lead fields as picks of the instance's lead fields by the names Marketo shows them (console
 * review s10, finding 8: a comma-separated box where a marketer guessed the names). The task's value stays
 * the names picked, separated by commas, so the page turns them into REST names before the run as it did
 * for the typed list (task-prepare.ts) and each column is headed by its name. Where the fields cannot be
 * read, the box takes typed names as before.
 */
import { useEffect, useMemo, useState } from "react";
import type { TaskView } from "../../../src/tools/tasks.ts";
import type { ErrorInfo } from "../api.ts";
import type { Choice } from "../Combobox.tsx";
import { noField } from "../column-names.ts";
import { taskFieldHelp } from "../field-words.ts";
import type { NamedField } from "../filter-names.ts";
import { PickMany } from "../PickMany.tsx";
import { FieldNotes, TaskInput } from "../TaskFields.tsx";
import { FAMILIAR_NAMES } from "./familiar-names.ts";
import { marketoLeadFields } from "./lead-fields.ts";

type Field = TaskView["fields"][number];

interface LeadFieldsInputProps {
  task: TaskView;
  field: Field;
  value: string;
  error: ErrorInfo | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
}

/** The names in the task's value, in order: "First Name, Email Address" → two. */
export const pickedNames = (value: string): string[] =>
  value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);

/**
 * Each field as a choice by its name, found by its REST name too ("firstName", the rule the help says);
 * a familiar name is a choice of its own, saying which of the instance's fields it is.
 */
function choicesOf(fields: readonly NamedField[]): Choice[] {
  const own = new Map(fields.filter((f) => !FAMILIAR_NAMES.includes(f)).map((f) => [f.api, f.ui]));
  return fields.map((field) => {
    const shown = own.get(field.api);
    const familiar = shown !== undefined && shown !== field.ui;
    return {
      // A familiar name shares its field's REST name: its own name keeps the two choices apart.
      value: familiar ? field.ui : field.api,
      label: field.ui,
      group: "Lead fields",
      ...(familiar ? { detail: `shown as ${shown}` } : {}),
    };
  });
}

function useFields(step: string) {
  const [state, setState] = useState<{ fields?: NamedField[]; failed?: boolean }>({});
  useEffect(() => {
    let live = true;
    marketoLeadFields(step).then(
      (fields) => live && setState(fields.length > 0 ? { fields } : { failed: true }),
      () => live && setState({ failed: true }),
    );
    return () => {
      live = false;
    };
  }, [step]);
  return state;
}

export function LeadFieldsInput(props: LeadFieldsInputProps) {
  const { task, field, error } = props;
  const { fields, failed } = useFields(task.step);
  const choices = useMemo(() => choicesOf(fields ?? []), [fields]);
  if (failed) return <TaskInput {...props} />;
  const id = `task_${task.id}_${field.name}`;
  const help = taskFieldHelp(task.id, field.name, field.help);
  const described = [help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className={error ? "form-group field has-error" : "form-group field"}>
      <PickMany
        id={id}
        label={field.title}
        pickedLabel="Columns of the file, in order"
        choices={choices}
        picked={pickedNames(props.value)}
        onChange={(names) => props.onChange(names.join(", "))}
        notAChoice={(typed) => `${noField(typed, fields ?? [], "lead field")} Pick one from the list.`}
        placeholder={fields ? "Type to find a field, or pick one" : "Loading the lead fields…"}
        required={field.required === true}
        disabled={props.disabled}
        describedBy={described || undefined}
        invalid={error !== undefined}
        browse="lead fields"
      />
      <FieldNotes id={id} name={field.name} help={help} error={error} />
    </div>
  );
}
