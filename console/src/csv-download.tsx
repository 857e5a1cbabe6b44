/**
 * The CSV download in a marketer's words (trial C05, C09: `google_analytics_run_reports-ofbWQ9….csv`
 * headed `defaultChannelGroup,…,totalRevenue`): the file is named for what it holds
 * (`sessions-by-country-2026-11-01-to-2026-11-28.csv`, download-words.ts' `downloadName`) and headed with the names the table shows. The
 * server's file is read as it is (its rows and values untouched) and only its header line is replaced;
 * the JSON download keeps the API names, for a program that reads it.
 */
import { stringify } from "csv-stringify/browser/esm/sync";
import type { MouseEvent } from "react";
import { downloadUrl, type KeptView } from "./api.ts";

/** The CSV text with its header line in the table's words. */
export function retitled(csv: string, title: (column: string) => string): string {
  const end = csv.indexOf("\n");
  const header = (end < 0 ? csv : csv.slice(0, end)).replace(/\r$/, "");
  const columns = header.split(",");
  // API names hold no comma or quote; a header that does is left as it is.
  if (columns.some((column) => /["\r]/.test(column))) return csv;
  const rest = end < 0 ? "" : csv.slice(end + 1);
  // The server's line ending kept (RFC 4180's CRLF).
  const ending = end > 0 && csv[end - 1] === "\r" ? "\r\n" : "\n";
  return `${stringify([columns.map(title)], { record_delimiter: ending })}${rest}`;
}

/** "Download CSV": the server's file, renamed and retitled in the page (the link works as is without script). */
export function CsvDownload(props: { kept: KeptView; name: string; title: (column: string) => string }) {
  const { kept, name, title } = props;
  const save = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const response = await fetch(downloadUrl(kept.id, "csv"), { credentials: "same-origin" });
    if (!response.ok) return;
    const blob = new Blob([retitled(await response.text(), title)], { type: "text/csv;charset=utf-8" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  };
  return (
    <a href={downloadUrl(kept.id, "csv")} download={name} onClick={(event) => void save(event)}>
      Download CSV
    </a>
  );
}
