/**
 * A step's form, rendered from its JSON Schema with the uiSchema derived from it (form-ui.ts): the ready
 * examples that fill it, the fields the connected account fills, Run and (while it runs) Cancel. After a
 * refused input, the form checks itself again on every change, so a field's error goes as soon as its
 * value is valid, and the message above names what is still wrong.
 */
import Form from "@rjsf/core";
import type { RJSFSchema, ValidatorType } from "@rjsf/utils";
import type { ValidatorFunctions } from "@rjsf/validator-ajv8/lib/types.js";
import { useEffect, useMemo, useRef, useState } from "react";
import { forPeople } from "../../src/console/titled-issues.ts";
import { trimAsZod } from "../../src/console/trim-as-zod.ts";
import { type AjvErrorLike, type FormHints, issuesFromAjv } from "../../src/console/validation-wording.ts";
import { inputError } from "../../src/tools/input/words.ts";
import type { ErrorInfo } from "./api.ts";
import { withFieldWords } from "./field-words.ts";
import {
  JsonField,
  KeyValueField,
  Nothing,
  PresetOrRangeField,
  SwitchedObjectField,
  TextOrJsonField,
} from "./fields.tsx";
import {
  errorSchemaFor,
  initialData,
  inMode,
  modeOf,
  uiSchemaFor,
  uiSchemaInMode,
  untouched,
} from "./form-ui.ts";
import { ReportFilterField } from "./google/FilterBuilder.tsx";
import {
  AnalyticsAccountField,
  EventNameField,
  FieldNameField,
  PropertyField,
  usePropertyFields,
} from "./google/pickers.tsx";
import { SortByField } from "./google/SortByField.tsx";
import { withMoreOptions } from "./MoreOptions.tsx";

export interface FormModule {
  schema: RJSFSchema;
  validators: ValidatorFunctions;
  hints: FormHints;
  /** The registry's step ids: a hint that names one is for an agent (titled-issues.ts). */
  steps: readonly string[];
}
export type LoadedForm = { module: FormModule; validator: ValidatorType };
export type Input = Record<string, unknown>;
export interface StepExample {
  title: string;
  note?: string;
  input: Input;
}

const FIELDS = {
  JsonField,
  KeyValueField,
  TextOrJsonField,
  SortByField,
  ReportFilterField,
  PresetOrRangeField,
  PropertyField,
  AnalyticsAccountField,
  FieldNameField,
  EventNameField,
  SwitchedObjectField,
  Nothing,
};
/** The fields an example leaves to the form: what the pickers chose stays. */
const CHOSEN = ["account", "property", "analytics_account"];

/** The form filled by an example, keeping what the pickers chose. */
function filled(form: LoadedForm, latest: Input, example: StepExample): Input {
  const kept = Object.fromEntries(
    CHOSEN.filter((key) => latest[key] !== undefined).map((key) => [key, latest[key]]),
  );
  return { ...initialData(form.module.schema as never), ...kept, ...example.input };
}

/** The input as it is validated and sent: trimmed where zod trims, with only the fields its mode takes. */
export function normalised(form: LoadedForm, data: Input): Input {
  const { schema, hints } = form.module;
  const input = inMode(trimAsZod(data, schema as never, hints.trimmed) as Input, modeOf(data));
  // rjsf fills an optional object's required list with empty items (Run Reports' funnel starts as
  // {steps: [null, null]}): nothing the person typed, and sent it would make the step a funnel report.
  const required = new Set((schema as { required?: string[] }).required ?? []);
  return Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => required.has(key) || !isPlainObject(value) || !untouched(value),
    ),
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The input's problems as the server words them (so the page and runToolStep say the same thing), if any. */
export function inputProblem(form: LoadedForm, input: Input, data: Input): ErrorInfo | undefined {
  const { schema, hints, steps } = form.module;
  const { errors } = form.validator.rawValidation<AjvErrorLike>(schema, input);
  if (!errors || errors.length === 0) return undefined;
  const { problems, more } = issuesFromAjv(errors, schema as never, input, hints, data);
  const error = inputError(problems, more);
  // Every problem at once, under each field's title (an agent's error carries the first five by API name).
  const issues = more > 0 ? [...problems, { field: "input", message: `${more} more problem(s)` }] : problems;
  return forPeople(
    { ...(error.toJSON() as ErrorInfo), hint: error.hint, issues },
    schema as never,
    steps,
    input,
  );
}

const topField = (field: string) => field.split(/[.[]/)[0] ?? field;

/**
 * The problem to show after a change: the form's own check of the new input, plus what the server said
 * of the fields not changed since (a check only the server makes, such as a body with GET).
 */
function recheck(
  form: LoadedForm,
  data: Input,
  shown: ErrorInfo,
  changed: Set<string>,
): ErrorInfo | undefined {
  const own = inputProblem(form, normalised(form, data), data);
  const server = (
    shown.issues ?? (shown.field ? [{ field: shown.field, message: shown.message }] : [])
  ).filter(
    (issue) =>
      !changed.has(topField(issue.field)) && !(own?.issues ?? []).some((mine) => mine.field === issue.field),
  );
  const issues = [...(own?.issues ?? []), ...server];
  if (issues.length === 0) return undefined;
  // The message names what is still wrong, the server's findings included.
  return forPeople({ ...(own ?? shown), issues }, form.module.schema as never, form.module.steps, data);
}

/**
 * The form's change handler: it opens on the initial data (GET for a method), and after a refused
 * input checks every change again, so a field's error goes as soon as its value is valid.
 */
function useLiveCheck(
  form: LoadedForm,
  formData: Input,
  problem: ErrorInfo | undefined,
  onChange: (data: Input) => void,
  onProblem: (problem: ErrorInfo | undefined) => void,
): (data: Input) => void {
  // Fields changed since the problem was shown: the server's words about them no longer hold.
  const changed = useRef(new Set<string>());
  const lastProblem = useRef(problem);
  if (lastProblem.current !== problem) {
    lastProblem.current = problem;
    changed.current = new Set();
  }
  useEffect(() => {
    const first = initialData(form.module.schema as never);
    if (Object.keys(first).some((key) => formData[key] === undefined)) onChange({ ...first, ...formData });
  }, [form, formData, onChange]);
  return (data: Input) => {
    for (const key of new Set([...Object.keys(data), ...Object.keys(formData)]))
      if (JSON.stringify(data[key]) !== JSON.stringify(formData[key])) changed.current.add(key);
    onChange(data);
    if (problem?.error === "invalid_input") {
      const next = recheck(form, data, problem, changed.current);
      lastProblem.current = next;
      onProblem(next);
    }
  };
}

/**
 * The form's uiSchema: the page's words for the step's fields, its technical options under More options, and
 * the mode the data has switched on.
 */
function useUiSchema(form: LoadedForm, formData: Input, stepId: string) {
  const mode = modeOf(formData);
  // A mode's fields may say something about the periods given (a funnel's one period): only their count.
  const periods = Array.isArray(formData.date_ranges) ? formData.date_ranges.length : 0;
  return useMemo(
    () =>
      uiSchemaInMode(
        withMoreOptions(withFieldWords(uiSchemaFor(form.module.schema as never), stepId), stepId),
        mode,
        {
          date_ranges: Array(periods).fill({}),
        },
      ),
    [form, mode, periods, stepId],
  );
}

/**
 * What the form's fields read beside their own value: the chosen account and property (the pickers), the
 * periods (a funnel's events), the days each preset covers for that property (the period select shows them),
 * and a default set on the form's latest data.
 */
function useFormContext(formData: Input, onChange: (data: (latest: Input) => Input) => void) {
  const account = formData.account as string | undefined;
  const property = formData.property as string | undefined;
  const presetDays = usePropertyFields(account, property)?.presets;
  return useMemo(
    () => ({
      account,
      property,
      dateRanges: formData.date_ranges,
      metrics: formData.metrics,
      dimensions: formData.dimensions,
      presetDays,
      chooseDefault: (field: string, value: string) =>
        onChange((latest) =>
          latest[field] === undefined || latest[field] === "" ? { ...latest, [field]: value } : latest,
        ),
    }),
    [account, property, formData.date_ranges, formData.metrics, formData.dimensions, presetDays, onChange],
  );
}

export function StepForm(props: {
  /** The step's id: the page's words for its fields (console/src/field-words.ts). */
  stepId: string;
  form: LoadedForm;
  examples: readonly StepExample[];
  /** What the form opens filled with (the search's words as a report), as if that example were clicked. */
  start?: StepExample;
  formData: Input;
  problem: ErrorInfo | undefined;
  /** The run in progress, if any: the form is disabled and offers Cancel. */
  running: object | undefined;
  onCancel: () => void;
  onChange: (data: Input | ((latest: Input) => Input)) => void;
  onProblem: (problem: ErrorInfo | undefined) => void;
  onSubmit: (data: Input) => void;
}) {
  const { form, formData, problem, running, onChange, onProblem } = props;
  const uiSchema = useUiSchema(form, formData, props.stepId);
  const [note, setNote] = useState<string | undefined>();
  const change = useLiveCheck(form, formData, problem, onChange, onProblem);
  const extraErrors = useMemo(
    () =>
      errorSchemaFor(
        problem?.issues ?? (problem?.field ? [{ field: problem.field, message: problem.message }] : []),
      ),
    [problem],
  );
  // On the latest data: the form may open filled while the pickers choose their defaults.
  const fill = (example: StepExample) => {
    setNote(example.note);
    onProblem(undefined);
    onChange((latest) => filled(form, latest, example));
  };
  const { start } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the form opens with the search's report.
  useEffect(() => {
    if (start) fill(start);
  }, []);
  const context = useFormContext(formData, onChange);
  return (
    <>
      <Examples examples={props.examples} note={note} disabled={running !== undefined} onFill={fill} />
      <Form
        schema={form.module.schema}
        uiSchema={uiSchema}
        validator={form.validator}
        fields={FIELDS}
        formData={formData}
        formContext={context}
        onChange={(event) => change(event.formData as Input)}
        onSubmit={(event) => props.onSubmit(event.formData as Input)}
        noValidate
        // The browser's own checks would block Run with its words; ours name the field as the server does.
        noHtml5Validate
        // An optional list (date_ranges) starts empty; a required one (metrics) with its minimum of items.
        experimental_defaultFormStateBehavior={{ arrayMinItems: { populate: "requiredOnly" } }}
        extraErrors={extraErrors as never}
        showErrorList={false}
        disabled={running !== undefined}
      >
        <div className="actions">
          <button type="submit" disabled={running !== undefined}>
            Run
          </button>
          {running ? (
            <button type="button" onClick={props.onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </Form>
    </>
  );
}

/** The step's ready examples: one click fills the form (the note says what to change for real data). */
function Examples(props: {
  examples: readonly StepExample[];
  note: string | undefined;
  disabled: boolean;
  onFill: (example: StepExample) => void;
}) {
  if (props.examples.length === 0) return null;
  return (
    <section className="examples" aria-label="Examples">
      <h3>Start from an example</h3>
      <ul>
        {props.examples.map((example) => (
          <li key={example.title}>
            <button
              type="button"
              className="example"
              onClick={() => props.onFill(example)}
              disabled={props.disabled}
            >
              {example.title}
            </button>
          </li>
        ))}
      </ul>
      {props.note ? <p className="example-note">{props.note}</p> : null}
    </section>
  );
}
