/**
 * A task's fields (src/tools/tasks.ts): a line of text, a date, several lines, one of a few options
 * (radio buttons), or one of the service's own objects picked by name (the Combobox, its options read
 * from the server with the step). Each shows its help and, after a refused run, its error below it.
 */
import { type ReactNode, useEffect, useMemo, useState } from "react";
import type { TaskField, TaskOption, TaskView } from "../../src/tools/tasks.ts";
import { ApiError, api, type ErrorInfo } from "./api.ts";
import { type Choice, Combobox } from "./Combobox.tsx";
import { taskFieldHelp } from "./field-words.ts";

type Field = Omit<TaskField, "initial">;

interface TaskInputProps {
  task: TaskView;
  field: Field;
  value: string;
  error: ErrorInfo | undefined;
  disabled: boolean;
  /** A value picked by name (a list, a campaign) comes with that name and what the list says of it. */
  onChange: (value: string, name?: string, detail?: string) => void;
}

/**
 * A refusal's words for the field it names, without its hint (the message above the form keeps it):
 * "Invalid leads: give…" reads "Give…" under Leads.
 */
export function fieldWords(error: ErrorInfo, field: string): string {
  if (typeof error.fieldWords === "string") return error.fieldWords;
  const hint = error.hint && error.message.endsWith(error.hint) ? error.hint : "";
  const text = error.message
    .slice(0, error.message.length - hint.length)
    .trim()
    .replace(new RegExp(`^Invalid ${field}: `), "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function TaskInput(props: TaskInputProps) {
  const { task, error } = props;
  // The help as the page words it (console/src/field-words.ts), else the task's own.
  const help = taskFieldHelp(task.id, props.field.name, props.field.help);
  const field = { ...props.field, ...(help ? { help } : {}) };
  const id = `task_${task.id}_${field.name}`;
  const described = [field.help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  const common = {
    id,
    disabled: props.disabled,
    "aria-describedby": described || undefined,
    "aria-invalid": error ? true : undefined,
    "aria-required": field.required ? true : undefined,
    // A value the sandbox has, to try (src/tools/tasks.ts, `example`).
    placeholder: field.example ? `e.g. ${field.example}` : undefined,
  };
  let control: ReactNode;
  if (field.kind === "options") return <OptionsInput {...props} id={id} />;
  if (field.kind === "choice")
    control = <ChoiceInput {...props} id={id} describedBy={described || undefined} />;
  else if (field.kind === "lines")
    control = (
      <textarea
        {...common}
        className="form-control"
        rows={6}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  else
    control = (
      <input
        {...common}
        className="form-control"
        type={field.kind === "date" ? "date" : "text"}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  return (
    <div className={error ? "form-group field has-error" : "form-group field"}>
      {field.kind === "choice" ? null : (
        <label htmlFor={id} className="control-label">
          {field.title}
          {field.required ? <RequiredMark /> : null}
        </label>
      )}
      {control}
      <FieldNotes id={id} name={field.name} help={field.help} error={error} />
    </div>
  );
}

/** A field's help and, after a refused run, its error, below it (ids `<id>-help` and `<id>-error`). */
export function FieldNotes(props: {
  id: string;
  name: string;
  help: ReactNode;
  error: ErrorInfo | undefined;
}) {
  const { id, help, error } = props;
  return (
    <>
      {help ? (
        <p className="help-block" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {error ? (
        <p className="error-detail" id={`${id}-error`}>
          {fieldWords(error, props.name)}
        </p>
      ) : null}
    </>
  );
}

/**
 * A required field's mark, for the eye: the control says aria-required (a radio group needs none, one
 * option is always checked), and a field's name stays its title ("Leads", not "Leads *").
 */
const RequiredMark = () => (
  <span className="required" aria-hidden="true">
    {" "}
    *
  </span>
);

/** A few fixed options as radio buttons in a fieldset named by the field. */
function OptionsInput(props: TaskInputProps & { id: string }) {
  const { field, id } = props;
  return (
    <fieldset className="form-group field task-options">
      <legend>
        {field.title}
        {field.required ? <RequiredMark /> : null}
      </legend>
      {(field.options ?? []).map((option) => (
        <label key={option.value} className="radio-option">
          <input
            type="radio"
            name={id}
            value={option.value}
            checked={props.value === option.value}
            disabled={props.disabled}
            onChange={() => props.onChange(option.value)}
          />{" "}
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/** The options of a choice field, read once per form from the server (a list of the instance's objects). */
function useTaskChoices(task: TaskView, field: string) {
  const [state, setState] = useState<{ options?: TaskOption[]; problem?: string }>({});
  useEffect(() => {
    let live = true;
    api<{ options: TaskOption[] }>(
      "GET",
      `/console/api/steps/${task.step}/tasks/${task.id}/choices/${field}`,
    ).then(
      ({ options }) => live && setState({ options }),
      (error: Error) =>
        live && setState({ problem: error instanceof ApiError ? error.info.message : error.message }),
    );
    return () => {
      live = false;
    };
  }, [task, field]);
  return state;
}

function ChoiceInput(props: TaskInputProps & { id: string; describedBy: string | undefined }) {
  const { task, field } = props;
  const { options, problem } = useTaskChoices(task, field.name);
  const choices = useMemo<Choice[]>(
    () =>
      (options ?? []).map((option) => ({
        value: option.value,
        label: option.label,
        group: option.group ?? field.title,
        ...(option.detail ? { detail: option.detail } : {}),
      })),
    [options, field.title],
  );
  return (
    <>
      <Combobox
        id={props.id}
        label={field.title}
        choices={choices}
        value={props.value || undefined}
        onChange={(value) => {
          const choice = choices.find((one) => one.value === value);
          props.onChange(value ?? "", choice?.label, choice?.detail);
        }}
        disabled={props.disabled}
        placeholder={options ? `Pick or type a ${field.title.toLowerCase()}` : "Loading…"}
        required={field.required === true}
        browse={field.plural ?? "choices"}
        {...(props.describedBy ? { describedBy: props.describedBy } : {})}
        invalid={props.error !== undefined}
      />
      {problem ? <p className="field-note">The choices could not be read: {problem}</p> : null}
    </>
  );
}
