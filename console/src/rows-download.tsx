/**
 * Downloads of the rows a task shows in place of the step's own answer (a triggered campaign's leads, a
 * list add's leads with whether each is on the list now): the files hold those rows, so their words count
 * them (trial s10, finding 9: "Download JSON (the 1 record)" above a table of 2 leads, since Marketo's
 * answer to Request Campaign is the campaign alone). Made in the page, as the table is; the step's own
 * answer stays under Raw JSON.
 */
import { stringify } from "csv-stringify/browser/esm/sync";
import { useEffect, useState } from "react";
import { downloadWords } from "./download-words.ts";

type Row = Record<string, unknown>;

/** The rows as CSV: every column any row has, in the order first seen, headed with the table's titles. */
export function rowsCsv(rows: readonly Row[], title: (column: string) => string): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) =>
    value === undefined || value === null
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  return stringify([columns.map(title), ...rows.map((row) => columns.map((column) => cell(row[column])))], {
    record_delimiter: "\r\n",
  });
}

/** A link's address for `text` as a file, made again only when the text changes, let go when the link goes. */
function useFileUrl(text: string, type: string): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([text], { type }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [text, type]);
  return url;
}

/** "Download CSV Download JSON (all 2 leads)", the files named `name` (.csv) and its .json twin. */
export function RowsDownloads(props: {
  rows: readonly Row[];
  name: string;
  noun: string;
  title: (column: string) => string;
}) {
  const { rows, name, title } = props;
  const json = name.replace(/\.csv$/, ".json");
  // Made again on each render (the rows are a few hundred at most), kept as long as the text is the same.
  const csvUrl = useFileUrl(rowsCsv(rows, title), "text/csv;charset=utf-8");
  const jsonUrl = useFileUrl(JSON.stringify(rows, null, 2), "application/json");
  return (
    <p className="downloads">
      <a href={csvUrl} download={name}>
        Download CSV
      </a>{" "}
      <a href={jsonUrl} download={json}>
        Download JSON
      </a>{" "}
      <span className="muted">({downloadWords(props.noun, rows.length, 0, false)})</span>
    </p>
  );
}
