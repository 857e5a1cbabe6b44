/**
 * Run Reports' Filter: the text box as it was, and beside it "Add a condition" (console review s10,
 * finding 7: the filter's grammar was hidden, and "is the value mobile or Mobile?"). A dimension or metric
 * is picked by its name in Google Analytics from the property's fields (as the metric and dimension
 * pickers do), the operator in words that suit its kind, and the value: for a dimension, the values it
 * took in the report's first period are suggested, the most frequent first (GET /console/api/google/values,
 * one report); with "is" or "is not", a typed value is checked against them (filter-value.ts), any other
 * text is kept as typed. Adding appends "and <condition>" to the Filter text, which stays the one source and
 * stays editable.
 */
import type { FieldProps } from "@rjsf/utils";
import { useEffect, useMemo, useState } from "react";
import { withFieldWords } from "../../../src/tools/ga/field-search-words.ts";
import { api } from "../api.ts";
import { type Choice, Combobox } from "../Combobox.tsx";
import { TextOrJsonField } from "../fields.tsx";
import { conditionText, type FieldKind, OPERATORS, withCondition } from "./filter-condition.ts";
import type { SeenValues } from "./filter-value.ts";
import { type Fields, type PickerContext, periodQuery, usePropertyFields } from "./pickers.tsx";

type Part = "field" | "operator" | "value";

/** The Filter box, and the builder once the form has a property to read fields from. */
export function ReportFilterField(props: FieldProps) {
  const { account, property, dateRanges } = (props.registry.formContext ?? {}) as PickerContext;
  const fields = usePropertyFields(account, property);
  const text = typeof props.formData === "string" ? props.formData : undefined;
  return (
    <>
      <TextOrJsonField {...props} />
      {property && (props.formData === undefined || text !== undefined) ? (
        <ConditionBuilder
          id={`${props.fieldPathId.$id}-condition`}
          fields={fields}
          values={{ account, property, dateRanges }}
          disabled={props.disabled || props.readonly}
          onAdd={(condition) => props.onChange(withCondition(text, condition), props.fieldPathId.path)}
        />
      ) : null}
    </>
  );
}

/** The property's dimensions, then its metrics, by UI name under their kind and category. */
function fieldChoices(fields: Fields | undefined): Choice[] {
  const of = (kind: string, list: Fields["metrics"]) =>
    list.map(
      (field): Choice =>
        withFieldWords({
          value: field.apiName,
          label: field.uiName,
          group: `${kind}: ${field.category || "Other"}`,
          hover: field.apiName,
        }),
    );
  return fields ? [...of("Dimensions", fields.dimensions), ...of("Metrics", fields.metrics)] : [];
}

interface ValuesRead {
  values: { name: string; count: number }[];
  period: string;
  complete: boolean;
}

const NONE_SEEN: SeenValues = { values: [], complete: false };

/**
 * The values a dimension took in the report's first period (one read per dimension and period): as the
 * value box's suggestions, and as the values a typed one is checked against.
 */
const valueReads = new Map<string, Promise<ValuesRead>>();
function useDimensionValues(
  where: { account?: string | undefined; property: string; dateRanges?: unknown },
  dimension: string | undefined,
): { choices: Choice[]; seen: SeenValues } {
  const [choices, setChoices] = useState<Choice[]>([]);
  const [seen, setSeen] = useState<SeenValues>(NONE_SEEN);
  const path = dimension
    ? `/console/api/google/values?${where.account ? `account=${encodeURIComponent(where.account)}&` : ""}property=${encodeURIComponent(where.property)}&dimension=${encodeURIComponent(dimension)}&${periodQuery(where.dateRanges)}`
    : undefined;
  useEffect(() => {
    setChoices([]);
    setSeen(NONE_SEEN);
    if (!path) return;
    let live = true;
    let read = valueReads.get(path);
    if (!read) {
      read = api("GET", path);
      valueReads.set(path, read);
      read.catch(() => valueReads.delete(path));
    }
    read.then(
      ({ values, period, complete }) => {
        if (!live) return;
        setChoices(
          values.map((value) => ({
            value: value.name,
            label: value.name,
            group: `Values seen, ${period}`,
            detail: `${value.count.toLocaleString()} events`,
          })),
        );
        setSeen({ values: values.map((value) => value.name), complete });
      },
      // No suggestions (GA could not count this dimension by events): the value is typed.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [path]);
  return { choices, seen };
}

interface BuilderProps {
  id: string;
  fields: Fields | undefined;
  values: { account?: string | undefined; property: string; dateRanges?: unknown };
  disabled: boolean | undefined;
  onAdd: (condition: string) => void;
}

function ConditionBuilder(props: BuilderProps) {
  const { id, fields } = props;
  const [picked, setPicked] = useState<string | undefined>();
  const [op, setOp] = useState("=");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<{ part: Part; message: string } | undefined>();
  const [added, setAdded] = useState<string | undefined>();
  const choices = useMemo(() => fieldChoices(fields), [fields]);
  const field = kindOf(fields, picked);
  const { choices: suggested, seen } = useDimensionValues(
    props.values,
    field?.kind === "dimension" ? picked : undefined,
  );
  const operators = OPERATORS[field?.kind ?? "dimension"];
  const add = () => {
    const condition = conditionText(field, op, value, seen);
    if (!condition.ok) return setProblem({ part: condition.part, message: condition.message });
    props.onAdd(condition.text);
    setProblem(undefined);
    setAdded(condition.text);
    setValue("");
  };
  const note = (part: Part) =>
    problem?.part === part ? (
      <p className="error-detail" id={`${id}-${part}-error`}>
        {problem.message}
      </p>
    ) : null;
  const errorOf = (part: Part) => (problem?.part === part ? `${id}-${part}-error` : undefined);
  return (
    <details className="condition-builder">
      <summary>Add a condition</summary>
      <div className="condition-parts">
        <div>
          <Combobox
            id={`${id}-field`}
            label="Dimension or metric"
            choices={choices}
            value={picked}
            onChange={(next) => {
              const kind = kindOf(fields, next)?.kind;
              setPicked(next);
              setValue("");
              if (kind && !OPERATORS[kind].some((one) => one.op === op)) setOp("=");
              setProblem(undefined);
            }}
            disabled={props.disabled}
            placeholder={fields ? "Type to find one…" : "Loading…"}
            describedBy={errorOf("field")}
            invalid={errorOf("field") !== undefined}
          />
          {note("field")}
        </div>
        <OperatorSelect id={`${id}-operator`} operators={operators} op={op} setOp={setOp} />
        <div>
          <ValueInput
            id={`${id}-value`}
            kind={field?.kind}
            value={value}
            setValue={setValue}
            suggested={suggested}
            disabled={props.disabled}
            errorId={errorOf("value")}
          />
          {note("value")}
        </div>
      </div>
      <div className="actions">
        <button type="button" onClick={add} disabled={props.disabled}>
          Add to the filter
        </button>
      </div>
      <p role="status" className="field-note">
        {added ? `Added to the filter: ${added}` : ""}
      </p>
    </details>
  );
}

/** The picked field's UI name and kind, from the property's fields. */
function kindOf(
  fields: Fields | undefined,
  api: string | undefined,
): { ui: string; kind: FieldKind } | undefined {
  if (!fields || !api) return undefined;
  const dimension = fields.dimensions.find((one) => one.apiName === api);
  if (dimension) return { ui: dimension.uiName, kind: "dimension" };
  const metric = fields.metrics.find((one) => one.apiName === api);
  return metric ? { ui: metric.uiName, kind: "metric" } : undefined;
}

function OperatorSelect(props: {
  id: string;
  operators: readonly { op: string; label: string }[];
  op: string;
  setOp: (op: string) => void;
}) {
  return (
    <div>
      <label htmlFor={props.id} className="control-label">
        Condition
      </label>
      <select
        id={props.id}
        className="form-control"
        value={props.op}
        onChange={(event) => props.setOp(event.target.value)}
      >
        {props.operators.map((one) => (
          <option key={one.op} value={one.op}>
            {one.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A dimension's value: picked from the values seen, or typed; a metric's: a number typed. */
function ValueInput(props: {
  id: string;
  kind: FieldKind | undefined;
  value: string;
  setValue: (value: string) => void;
  suggested: Choice[];
  disabled: boolean | undefined;
  errorId: string | undefined;
}) {
  if (props.kind === "metric")
    return (
      <>
        <label htmlFor={props.id} className="control-label">
          Value
        </label>
        <input
          id={props.id}
          type="text"
          inputMode="decimal"
          className="form-control"
          value={props.value}
          disabled={props.disabled}
          placeholder="e.g. 10"
          aria-describedby={props.errorId}
          aria-invalid={props.errorId ? true : undefined}
          onChange={(event) => props.setValue(event.target.value)}
        />
      </>
    );
  return (
    <Combobox
      id={props.id}
      label="Value"
      choices={props.suggested}
      value={props.value || undefined}
      onChange={(next) => props.setValue(next ?? "")}
      disabled={props.disabled}
      placeholder={props.suggested.length > 0 ? "Pick or type a value" : "Type a value"}
      browse="values"
      describedBy={props.errorId}
      invalid={props.errorId !== undefined}
    />
  );
}
