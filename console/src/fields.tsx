/**
 * Two fields the JSON Schema form library lacks, plugged in through its `ui:field` extension point:
 * a text value for a key/value row of `query_parameters` (whose schema is a union of scalars and
 * lists, which the library would render as a type picker), and a JSON editor for free-form objects
 * such as `body`.
 */
import type { FieldProps } from "@rjsf/utils";
import { useState } from "react";

/** One value of a key/value editor: text (Marketo sends every query value as text, lists comma-separated). */
export function ScalarTextField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly } = props;
  const value = Array.isArray(formData)
    ? formData.join(",")
    : formData === undefined || formData === null || typeof formData === "object"
      ? ""
      : String(formData);
  return (
    <input
      id={fieldPathId.$id}
      type="text"
      className="form-control"
      value={value}
      disabled={disabled || readonly}
      onChange={(event) =>
        onChange(event.target.value === "" ? undefined : event.target.value, fieldPathId.path)
      }
    />
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
      {schema.description ? <p className="field-description">{schema.description}</p> : null}
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
