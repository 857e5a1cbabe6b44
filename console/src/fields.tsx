/**
 * Fields the JSON Schema form library lacks, plugged in through its `ui:field` extension point: a
 * key/value editor with labelled rows for records of scalars (`query_parameters`), a JSON editor for
 * free-form objects (`body`), a text box for a union of text and JSON (`filter`, `order_by`: the text
 * form is the one people write), and a period picker for a union of presets and a range object
 * (`date_ranges`: a preset select, or date inputs).
 */
import type { FieldProps } from "@rjsf/utils";
import { useEffect, useRef, useState } from "react";
import { dates, presetLabel } from "../../src/tools/ga/period-words.ts";
import { describedAs } from "./field-words.ts";
import { untouched } from "./form-ui.ts";
import { isoFromWords } from "./person-date.ts";
import { daysOfRelative, editedRange } from "./range-edit.ts";

type Row = [string, string];
const text = (value: unknown): string =>
  Array.isArray(value) ? value.join(",") : value === undefined || value === null ? "" : String(value);
const rowsOf = (value: unknown): Row[] => {
  const rows =
    value && typeof value === "object" ? Object.entries(value).map(([k, v]): Row => [k, text(v)]) : [];
  return rows.length > 0 ? rows : [["", ""]];
};
/** The rows as the record they stand for: rows without a name are not sent. */
const recordOf = (rows: Row[]): Record<string, string> | undefined => {
  const named = rows.filter(([key]) => key.trim() !== "");
  return named.length > 0 ? Object.fromEntries(named.map(([key, value]) => [key.trim(), value])) : undefined;
};

/** A record of scalars as rows of a name and a value, each labelled; it starts with one empty row. */
export function KeyValueField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, schema, name } = props;
  const id = fieldPathId.$id;
  const [rows, setRows] = useState<Row[]>(() => rowsOf(formData));
  // A value set from outside (an example) replaces the rows; the rows' own value does not.
  const sent = useRef(JSON.stringify(recordOf(rows) ?? null));
  useEffect(() => {
    const outside = JSON.stringify(formData ?? null);
    if (outside !== sent.current) {
      sent.current = outside;
      setRows(rowsOf(formData));
    }
  }, [formData]);
  const change = (next: Row[]) => {
    setRows(next);
    const value = recordOf(next);
    sent.current = JSON.stringify(value ?? null);
    onChange(value, fieldPathId.path);
  };
  const off = disabled || readonly;
  return (
    <fieldset id={id} className="key-value">
      <legend>{schema.title ?? name}</legend>
      {describedAs(props) ? <p className="field-description">{describedAs(props)}</p> : null}
      {rows.map(([key, value], i) => (
        // Rows have no identity of their own; their position is it.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div className="kv-row" key={i}>
          <label className="stacked">
            Name
            <input
              id={`${id}-name-${i}`}
              type="text"
              className="form-control"
              value={key}
              disabled={off}
              onChange={(event) =>
                change(rows.map((row, j) => (j === i ? [event.target.value, row[1]] : row)))
              }
            />
          </label>
          <label className="stacked">
            Value
            <input
              id={`${id}-value-${i}`}
              type="text"
              className="form-control"
              value={value}
              disabled={off}
              onChange={(event) =>
                change(rows.map((row, j) => (j === i ? [row[0], event.target.value] : row)))
              }
            />
          </label>
          <button
            type="button"
            className="link"
            aria-label={`Remove row ${i + 1}${key ? ` (${key})` : ""}`}
            disabled={off}
            onClick={() => change(rows.length > 1 ? rows.filter((_, j) => j !== i) : [["", ""]])}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="link" disabled={off} onClick={() => change([...rows, ["", ""]])}>
        Add a row
      </button>
    </fieldset>
  );
}

/** A union of text and JSON: a text box, unless the value is already JSON (then the JSON editor). */
export function TextOrJsonField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, name, schema } = props;
  if (formData !== undefined && typeof formData !== "string") return <JsonField {...props} />;
  return (
    <div className="text-field">
      <label htmlFor={fieldPathId.$id} className="control-label">
        {schema.title ?? name}
      </label>
      {describedAs(props) ? <p className="field-description">{describedAs(props)}</p> : null}
      <input
        id={fieldPathId.$id}
        type="text"
        className="form-control"
        value={formData ?? ""}
        placeholder={
          (props.uiSchema?.["ui:placeholder"] as string | undefined) ??
          (Array.isArray(schema.examples) ? `e.g. ${String(schema.examples[0])}` : undefined)
        }
        disabled={disabled || readonly}
        onChange={(event) =>
          onChange(event.target.value === "" ? undefined : event.target.value, fieldPathId.path)
        }
      />
    </div>
  );
}

/** The days each preset covers for the chosen property, YYYY-MM-DD (the form's context has them for a report). */
type PresetDays = Record<string, { start_date: string; end_date: string } | undefined>;

type Branch = { enum?: unknown[]; properties?: Record<string, { title?: string; examples?: unknown[] }> };
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One box of a custom period (Start date, End date, Label), with its errors under it. */
function RangeBox(props: {
  id: string;
  title: string;
  dayExample: boolean;
  value: string;
  errors: string[];
  off: boolean | undefined;
  set: (value: string) => void;
}) {
  const { id, value, errors } = props;
  // Both ends of a range are days: End date's example ("yesterday") is no day, yet it gets a picker as
  // Start date does (trial s5, C02-04); a word already typed keeps its text box.
  const day = (id.endsWith("_date") || props.dayExample) && (value === "" || ISO_DAY.test(value));
  const errorsId = `${id}__error`;
  return (
    <div className={errors.length > 0 ? "has-error" : undefined}>
      <label className="stacked">
        {props.title}
        <input
          id={id}
          type={day ? "date" : "text"}
          className="form-control"
          value={value}
          disabled={props.off}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={errors.length > 0 ? errorsId : undefined}
          onChange={(event) => props.set(event.target.value)}
          onBlur={() => isoFromWords(value) && props.set(isoFromWords(value) ?? value)}
        />
      </label>
      {errors.length > 0 ? (
        <ul id={errorsId} className="error-detail">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * One period of a list whose items are a preset or an object (date_ranges): a select of the presets
 * and "Custom dates", which shows the object's fields; a field whose example is a day (YYYY-MM-DD) is
 * a date input while its value is empty or a day (a relative value such as 28daysAgo stays text). A
 * refused date shows under its own input (issue 28 review: it showed only below Run); the period's own
 * error (it starts after it ends) shows under the period, where the form puts an item's errors. A day
 * typed with its month in words ("18 Nov 2026") becomes the day it names when its box is left (trial s7,
 * finding 11). A label the form was given (an example's) goes when the dates change (trial s8, finding 3).
 * A preset shows the days it covers under the select, when the form's context knows them (the property's,
 * resolved as the report resolves them: trial s9, finding 5).
 */
export function PresetOrRangeField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, schema, errorSchema, registry } = props;
  const presetDays = (registry.formContext as { presetDays?: PresetDays } | undefined)?.presetDays;
  const errorsOf = (key: string) =>
    (errorSchema as Record<string, { __errors?: string[] } | undefined> | undefined)?.[key]?.__errors ?? [];
  const branches = (schema.anyOf ?? []) as Branch[];
  const presets = (branches.find((branch) => Array.isArray(branch.enum))?.enum ?? []) as string[];
  const fields = branches.find((branch) => branch.properties)?.properties ?? {};
  const id = fieldPathId.$id;
  const index = Number(/_(\d+)$/.exec(id)?.[1] ?? 0);
  const custom = formData !== undefined && typeof formData === "object";
  const range = (custom ? formData : {}) as Record<string, string | undefined>;
  const off = disabled || readonly;
  // The label the person typed here: an example's label is dropped when the dates change (range-edit.ts).
  const typedName = useRef<string | undefined>(undefined);
  const days = typeof formData === "string" ? presetDays?.[formData] : undefined;
  const daysId = `${id}__days`;
  // Relative days (an example's) become the property's days once its yesterday is known.
  const yesterday = presetDays?.yesterday?.start_date;
  const resolved = custom && yesterday ? daysOfRelative(range, yesterday) : undefined;
  useEffect(() => {
    if (resolved) onChange(resolved, fieldPathId.path);
  }, [resolved, onChange, fieldPathId.path]);
  const setField = (key: string, value: string) => {
    if (key === "name") typedName.current = value;
    onChange(editedRange(range, key, value, typedName.current), fieldPathId.path);
  };
  return (
    <div className="preset-range">
      <label htmlFor={id} className="control-label">
        Period {index + 1}
      </label>
      <select
        id={id}
        className="form-control"
        value={custom ? "custom" : typeof formData === "string" ? formData : ""}
        disabled={off}
        aria-describedby={days ? daysId : undefined}
        onChange={(event) => {
          const next = event.target.value;
          onChange(next === "custom" ? {} : next || undefined, fieldPathId.path);
        }}
      >
        <option value="">Choose a period…</option>
        {presets.map((preset) => (
          <option key={preset} value={preset}>
            {presetLabel(preset)}
          </option>
        ))}
        <option value="custom">Custom dates…</option>
      </select>
      {days ? (
        <p id={daysId} className="field-note period-days">
          {dates(days.start_date, days.end_date)}
        </p>
      ) : null}
      {custom ? (
        <div className="range-fields">
          {Object.entries(fields).map(([key, field]) => (
            <RangeBox
              key={key}
              id={`${id}_${key}`}
              title={field.title ?? key}
              dayExample={ISO_DAY.test(String(field.examples?.[0] ?? ""))}
              value={range[key] ?? ""}
              errors={errorsOf(key)}
              off={off}
              set={(value) => setField(key, value)}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A JSON editor: the text is parsed as the person types. Text that is not JSON is kept as the
 * field's value, so validation reports it with the server's words ("expected record, received
 * string") and the parse error shows under the editor.
 */
export function JsonField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, name, schema } = props;
  const [text, setText] = useState(() =>
    formData === undefined ? "" : typeof formData === "string" ? formData : JSON.stringify(formData, null, 2),
  );
  const [parseError, setParseError] = useState<string | undefined>();
  const change = (next: string) => {
    setText(next);
    if (next.trim() === "") {
      setParseError(undefined);
      onChange(undefined, fieldPathId.path);
      return;
    }
    try {
      onChange(JSON.parse(next), fieldPathId.path);
      setParseError(undefined);
    } catch (error) {
      setParseError((error as Error).message);
      onChange(next, fieldPathId.path);
    }
  };
  const format = () => {
    try {
      change(JSON.stringify(JSON.parse(text), null, 2));
    } catch {
      // Not JSON yet: nothing to format.
    }
  };
  return (
    <div className="json-field">
      <label htmlFor={fieldPathId.$id} className="control-label">
        {schema.title ?? name}
      </label>
      {describedAs(props) ? <p className="field-description">{describedAs(props)}</p> : null}
      <textarea
        id={fieldPathId.$id}
        className="form-control json"
        spellCheck={false}
        rows={Math.min(16, Math.max(4, text.split("\n").length + 1))}
        value={text}
        disabled={disabled || readonly}
        placeholder="{ }"
        onChange={(event) => change(event.target.value)}
      />
      <div className="json-tools">
        <button type="button" className="link" onClick={format} disabled={disabled || readonly}>
          Format JSON
        </button>
        {parseError ? <span className="error">Not JSON yet: {parseError}</span> : null}
      </div>
    </div>
  );
}

/** What a hidden field shows: nothing (a mode's field it does not take). */
export function Nothing() {
  return null;
}

/**
 * An optional object with required fields of its own (Run Reports' funnel): a switch, off at first, that
 * shows the object's fields when on. Switched on, the object holds `open: false`-like explicit values so
 * that it differs from the empty placeholders the form library fills an optional object with.
 */
export function SwitchedObjectField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, schema, name, registry, uiSchema } = props;
  const on = formData !== undefined && !untouched(formData);
  const id = fieldPathId.$id;
  const { ObjectField } = registry.fields;
  // The switch shows the title and description: the fields under it go without them.
  const { "ui:field": _switch, "ui:description": _about, ...rest } = uiSchema ?? {};
  const about = describedAs(props);
  const inner = { ...rest, "ui:options": { ...(rest["ui:options"] ?? {}), label: false } };
  return (
    <div className={on ? "switched on" : "switched"}>
      <label className="switch" htmlFor={`${id}-on`}>
        <input
          id={`${id}-on`}
          type="checkbox"
          checked={on}
          disabled={disabled || readonly}
          aria-describedby={about ? `${id}-about` : undefined}
          onChange={(event) =>
            onChange(event.target.checked ? firstValues(schema) : undefined, fieldPathId.path)
          }
        />
        {schema.title ?? name}
      </label>
      {about ? (
        <p className="field-description" id={`${id}-about`}>
          {about}
        </p>
      ) : null}
      {on && ObjectField ? <ObjectField {...props} uiSchema={inner} /> : null}
    </div>
  );
}

/** The first values of a switched-on object: each boolean false (a value the person can see and change). */
function firstValues(schema: FieldProps["schema"]): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  return Object.fromEntries(
    Object.entries(properties).flatMap(([key, child]) => (child.type === "boolean" ? [[key, false]] : [])),
  );
}
