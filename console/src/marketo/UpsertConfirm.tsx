/**
 * Asks before leads are written from a CSV (trial s5, finding 2): how each column maps to a field, the
 * rows read, the rows that will be skipped and why, and what the write does. Nothing is sent before
 * Confirm (console/src/upsert-words.ts).
 */
import { ConfirmActions } from "./ConfirmActions.tsx";
import { ReadingFieldNames, useLeadFields } from "./LeadCards.tsx";
import { upsertPreview } from "./upsert-words.ts";

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

export function UpsertConfirm(props: {
  step: string;
  csv: string;
  input: Record<string, unknown>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { fields, settled } = useLeadFields(props.step, true);
  // The preview names each column's field by its display name: asked before they are read, it would show
  // the header's own words and change under the reader.
  if (!settled)
    return (
      <section className="confirm" role="alertdialog" aria-label="Check before writing" aria-busy="true">
        <h3>Check before writing</h3>
        <ReadingFieldNames />
        <ConfirmActions onCancel={props.onCancel} />
      </section>
    );
  const preview = upsertPreview(props.csv, props.input, fields);
  const written = preview.rows - preview.skipped.length;
  return (
    <section className="confirm" role="alertdialog" aria-label="Check before writing">
      <h3>Check before writing</h3>
      <p>{preview.mode}</p>
      <table aria-label="Columns">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Field it writes</th>
          </tr>
        </thead>
        <tbody>
          {preview.columns.map((column) => (
            <tr key={column.typed}>
              <td>{column.typed}</td>
              <td>{column.field}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="rows-read">
        {plural(preview.rows, "row")} read: {plural(written, "row")} will be written
        {preview.skipped.length > 0 ? `, ${plural(preview.skipped.length, "row")} skipped` : ""}.
      </p>
      {preview.skipped.length > 0 ? (
        <ul aria-label="Rows skipped">
          {preview.skipped.map((skip) => (
            <li key={skip.row}>
              Row {skip.row} has {skip.why}.
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmActions onConfirm={props.onConfirm} disabled={written === 0} onCancel={props.onCancel} />
    </section>
  );
}
