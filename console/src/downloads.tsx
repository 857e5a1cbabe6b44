import { downloadUrl, type KeptView } from "./api.ts";
import { CsvDownload } from "./csv-download.tsx";
import { downloadWords } from "./download-words.ts";
import { RowsDownloads } from "./rows-download.tsx";

type Row = Record<string, unknown>;

/**
 * The records a count counted (the form's "Keep the records counted"), downloaded beside the count rows: the
 * same records an agent gets linked as "Records counted" (review s53, 4: the console dropped them silently).
 */
function CountedDownloads(props: { counted: KeptView; name: string }) {
  const { counted, name } = props;
  return (
    <p className="downloads">
      Records counted: <CsvDownload kept={counted} name={name} title={(column) => column} />{" "}
      <a href={downloadUrl(counted.id, "json")} download>
        Download JSON
      </a>{" "}
      <span className="muted">({downloadWords(counted.kind, counted.items, 0, false)})</span>
    </p>
  );
}

/**
 * The whole kept result as files: the same result MCP clients read through their resource links. Its
 * items are the rows shown from `from` on (0: all of them), and more may remain to be read from the service
 * (`more`; rows kept but not yet shown on the page are in the files: "(the 84 leads loaded so far)" beside a
 * finished export made it look unfinished, console review s13, finding 9): the words say which rows the
 * files hold.
 */
export function Downloads(props: {
  kept: KeptView | undefined;
  /** The task's own rows, shown in place of the step's answer: the files hold those (rows-download.tsx). */
  rows: Row[] | undefined;
  from: number;
  more: boolean;
  name: string;
  title: (column: string) => string;
  noun?: string | undefined;
  /** keep_counted's records, offered apart from the count rows. */
  counted?: KeptView | undefined;
}) {
  const { kept, from, more, rows, counted } = props;
  if (rows || !kept) return <RowsDownloads {...props} rows={rows ?? []} noun={props.noun ?? "rows"} />;
  const what = downloadWords(props.noun ?? kept.kind, kept.items, from, more);
  return (
    <>
      <p className="downloads">
        <CsvDownload kept={kept} name={props.name} title={props.title} />{" "}
        <a href={downloadUrl(kept.id, "json")} download>
          Download JSON
        </a>{" "}
        <span className="muted">({what})</span>
      </p>
      {counted ? (
        // "records-counted-2026-12-07.csv", not "records-counted-count-rows-…" (review s54, C1).
        <CountedDownloads
          counted={counted}
          name={`records-counted-${props.name.replace(/^(count-rows|records|rows)-/, "")}`}
        />
      ) : null}
    </>
  );
}
