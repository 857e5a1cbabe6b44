/**
 * The CSV download in a marketer's words (trial C05, C09: `google_analytics_run_reports-ofbWQ9….csv`
 * headed `defaultChannelGroup,…,totalRevenue`): the file is named for what it holds
 * (`sessions-by-country-2026-11-01-to-2026-11-28.csv`) and headed with the names the table shows. The
 * server's file is read as it is (its rows and values untouched) and only its header line is replaced;
 * the JSON download keeps the API names, for a program that reads it.
 */
import { stringify } from "csv-stringify/browser/esm/sync";
import type { MouseEvent } from "react";
import { downloadUrl, type KeptView } from "./api.ts";

type Row = Record<string, unknown>;

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
const day = (value: unknown) => (typeof value === "string" ? value.slice(0, 10) : undefined);

/** A report's "sessions-by-country-<from>-to-<to>", an export's "leads-<from>-to-<to>", else "<kind>-<today>". */
export function downloadName(
  kept: Pick<KeptView, "kind">,
  data: Row | undefined,
  input: Row,
  title: (column: string) => string,
): string {
  const names = (list: unknown) =>
    (Array.isArray(list) ? list : []).filter((one): one is string => typeof one === "string").map(title);
  const [range] = Array.isArray(data?.date_ranges) ? (data.date_ranges as Row[]) : [];
  const created = (input.body as { filter?: { createdAt?: Row } } | undefined)?.filter?.createdAt;
  const from = day(range?.start_date) ?? day(created?.startAt);
  const to = day(range?.end_date) ?? day(created?.endAt);
  const [metric] = names(input.metrics);
  const dimensions = names(input.dimensions);
  const what = metric
    ? [metric, ...(dimensions.length > 0 ? ["by", dimensions.join(" and ")] : [])].join(" ")
    : kept.kind;
  const when = from && to ? `${from} to ${to}` : new Date().toISOString().slice(0, 10);
  return `${slug(`${what} ${when}`) || "result"}.csv`;
}

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
