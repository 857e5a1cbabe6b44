/**
 * Run Reports' Sort by as a choice (trial s9, finding 7: it wanted "-sessions", a minus sign and an
 * internal name): one of the report's chosen metrics and dimensions, by the names the pickers show, and
 * "largest first" or "smallest first". The form keeps the text it sent before ("-sessions"), so the request
 * is the one typing it made. A sort the choice cannot hold (an example's "-sessions,date", a name that is no
 * longer a column) keeps the text box, as does "Type it instead".
 */
import type { FieldProps } from "@rjsf/utils";
import { useState } from "react";
import { describedAs } from "../field-words.ts";
import { TextOrJsonField } from "../fields.tsx";
import { type PickerContext, usePropertyFields } from "./pickers.tsx";

const TYPED = "\u0000typed";
const names = (list: unknown): string[] =>
  Array.isArray(list) ? list.filter((name): name is string => typeof name === "string" && name !== "") : [];

/** The sort's one column and direction, when the text is one of the report's columns, by API or UI name. */
function chosenSort(value: unknown, columns: { api: string; ui: string }[]) {
  if (value === undefined || value === "") return { column: "", descending: true };
  if (typeof value !== "string" || value.includes(",")) return undefined;
  const descending = value.trim().startsWith("-");
  const name = value.trim().replace(/^-\s*/, "").toLowerCase();
  const column = columns.find((one) => one.api.toLowerCase() === name || one.ui.toLowerCase() === name);
  return column ? { column: column.api, descending } : undefined;
}

export function SortByField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, schema, name } = props;
  const { account, property, metrics, dimensions } = (props.registry.formContext ?? {}) as PickerContext;
  const fields = usePropertyFields(account, property);
  const [typing, setTyping] = useState(false);
  const uiName = (api: string) =>
    [...(fields?.metrics ?? []), ...(fields?.dimensions ?? [])].find((one) => one.apiName === api)?.uiName ??
    api;
  const columns = [...names(metrics), ...names(dimensions)].map((api) => ({ api, ui: uiName(api) }));
  const chosen = chosenSort(formData, columns);
  const id = fieldPathId.$id;
  if (typing || !chosen || columns.length === 0)
    return (
      <>
        <TextOrJsonField {...props} />
        {columns.length > 0 ? (
          <button
            type="button"
            className="link"
            onClick={() => {
              setTyping(false);
              // A sort the choice cannot hold is left: the choice starts from the report's own order.
              if (!chosen) onChange(undefined, fieldPathId.path);
            }}
          >
            Choose from the report's columns
          </button>
        ) : null}
      </>
    );
  const off = disabled || readonly;
  const send = (column: string, descending: boolean) =>
    onChange(column ? `${descending ? "-" : ""}${column}` : undefined, fieldPathId.path);
  return (
    <div className="sort-by">
      <label htmlFor={id} className="control-label">
        {schema.title ?? name}
      </label>
      {describedAs(props) ? <p className="field-description">{describedAs(props)}</p> : null}
      <div className="sort-by-choice">
        <select
          id={id}
          className="form-control"
          value={chosen.column}
          disabled={off}
          onChange={(event) =>
            event.target.value === TYPED ? setTyping(true) : send(event.target.value, chosen.descending)
          }
        >
          <option value="">The report's own order</option>
          {columns.map((column) => (
            <option key={column.api} value={column.api}>
              {column.ui}
            </option>
          ))}
          <option value={TYPED}>Type it instead…</option>
        </select>
        <select
          aria-label="Order"
          className="form-control"
          value={chosen.descending ? "largest" : "smallest"}
          disabled={off || chosen.column === ""}
          onChange={(event) => send(chosen.column, event.target.value === "largest")}
        >
          <option value="largest">largest first</option>
          <option value="smallest">smallest first</option>
        </select>
      </div>
    </div>
  );
}
