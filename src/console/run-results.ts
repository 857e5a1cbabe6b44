/**
 * A run's result as the console shows it to a person: the whole result kept (the same store and ids as
 * MCP's resource links), so that the page shows all of it ("Load more" appends) and downloads it as CSV
 * or JSON; the records read before a Cancel, kept the same way; and the summary and notes without the
 * instructions meant for an agent (pass next_cursor, call again with offset), since the page offers
 * the continuation as a button.
 */
import type { ChartModel } from "../charts/model.js";
import { itemBytes, jsonBytes } from "../json-size.js";
import { keepResult, readKept } from "../keep-result.js";
import { log } from "../log.js";
import { columnsOf } from "../results/pages.js";
import type { ResultMeta } from "../results/types.js";
import { TOOL_STEPS } from "../tools/registry.js";
import type { FullResult, ToolResult } from "../tools/types.js";
import type { Workspace } from "../workspace.js";
import { agentWords } from "./titled-issues.js";

/** What the page knows of a kept result: enough to page through it and to download it. */
export interface KeptView {
  id: string;
  kind: string;
  items: number;
  pageItems: number[];
  columns: string[];
  /** Where reading continues after the whole kept read, when it stopped at a cap. */
  nextCursor?: string;
  /**
   * The kept result this one continues: its items come first here, so the page's downloads hold every row
   * read since the first run, not only the last read's (a *Load more* that read on).
   */
  continues?: string;
}

const view = (meta: ResultMeta): KeptView => ({
  id: meta.id,
  kind: meta.kind,
  items: meta.items,
  pageItems: meta.pageItems,
  columns: meta.columns,
  ...(meta.nextCursor ? { nextCursor: meta.nextCursor } : {}),
});

const count = (n: number) => n.toLocaleString("en-US");

/** Whether a computed read counted (count_by): its figures have groups, or a pivot's columns. */
const counted = (computed: unknown): boolean =>
  typeof computed === "object" && computed !== null && ("groups" in computed || "columns" in computed);

/**
 * The table of a result that fitted in its answer: Marketo's records (with where the read continues,
 * when it stopped before the end), its count rows (a count_by answer's `computed` has groups: called
 * records beside the records counted, review s54, C1), or a report's rows; in the answer's column order (a
 * pivot's row field first, review s54, P3: its CSV put the years first).
 */
function tableOf(result: ToolResult<unknown>): FullResult | undefined {
  const { data, columns } = result;
  if (!data || typeof data !== "object") return undefined;
  const { result: items, rows, next_cursor, computed } = data as Record<string, unknown>;
  const ordered = columns ? { columns: [...columns] } : {};
  if (Array.isArray(items))
    return {
      kind: counted(computed) ? "count rows" : "records",
      items,
      ...ordered,
      ...(typeof next_cursor === "string" ? { nextCursor: next_cursor } : {}),
    };
  if (Array.isArray(rows)) return { kind: "rows", items: rows, ...ordered };
  return undefined;
}

/** A result this workspace kept for `tool`, whole, when it is still there. */
async function earlier(
  workspace: Workspace,
  tool: string,
  id: string,
): Promise<{ meta: ResultMeta; items: unknown[] } | undefined> {
  const read = await readKept(workspace, id);
  return read && read.meta.tool === tool ? read : undefined;
}

/**
 * The read to keep: this run's whole result, after the items of the result it continues (`continues`,
 * the page's kept result when *Load more* reads on) while both fit in a kept result's size; else this
 * run's alone.
 */
async function toKeep(
  workspace: Workspace,
  tool: string,
  full: FullResult,
  continues: string | undefined,
): Promise<{ full: FullResult; continues?: string }> {
  const before = continues ? await earlier(workspace, tool, continues) : undefined;
  if (!before || before.meta.bytes + jsonBytes(full.items) > workspace.resultSettings.maxBytes)
    return { full };
  const columns = [...new Set([...before.meta.columns, ...columnsOf(full.items, full.columns)])];
  return { full: { ...full, items: [...before.items, ...full.items], columns }, continues };
}

/**
 * Keeps the run's whole result: what a capped answer could not show (`full`), or the table of an answer
 * that showed everything, so that Download always has one source; after the result it continues, when
 * there is one. A store that fails is logged and the page shows the answer alone.
 */
export async function keepForPage(
  workspace: Workspace,
  tool: string,
  result: ToolResult<unknown>,
  continues?: string,
): Promise<KeptView | undefined> {
  const own = result.full ?? tableOf(result);
  if (!own || own.items.length === 0) return undefined;
  try {
    const kept = await toKeep(workspace, tool, own, continues);
    const meta = await keepResult(workspace, tool, kept.full);
    return { ...view(meta), ...(kept.continues ? { continues: kept.continues } : {}) };
  } catch (error) {
    log.warn({ tool, err: error }, "the console could not keep a result");
    return undefined;
  }
}

/**
 * keep_counted's records (ToolResult.also), kept beside the count rows so that the page downloads them too: the
 * form offers the field, and a person who ticks it gets the records counted (review s53, 4: they were dropped).
 */
export async function keepCountedForPage(
  workspace: Workspace,
  tool: string,
  result: ToolResult<unknown>,
): Promise<KeptView | undefined> {
  if (!result.also || result.also.items.length === 0) return undefined;
  try {
    return view(await keepResult(workspace, tool, result.also));
  } catch (error) {
    log.warn({ tool, err: error }, "the console could not keep the records counted");
    return undefined;
  }
}

/** The records a run has read so far, page by page, up to the size a kept result may have. */
export class PartialRead {
  readonly items: unknown[] = [];
  #bytes = 0;
  #full = false;
  constructor(private readonly maxBytes: number) {}

  add(items: readonly unknown[]): void {
    for (const item of items) {
      if (this.#full) return;
      const bytes = itemBytes(item);
      if (this.#bytes + bytes > this.maxBytes) {
        this.#full = true;
        return;
      }
      this.#bytes += bytes;
      this.items.push(item);
    }
  }
}

/** A run the person stopped: "Stopped after N records", with those records kept (and shown). */
export async function stoppedEvent(
  workspace: Workspace,
  tool: string,
  read: PartialRead,
): Promise<{ type: "stopped"; summary: string; kept?: KeptView }> {
  const n = read.items.length;
  const summary = `Stopped after ${count(n)} record${n === 1 ? "" : "s"}.`;
  if (n === 0) return { type: "stopped", summary };
  try {
    const meta = await keepResult(workspace, tool, { kind: "records", items: read.items });
    return { type: "stopped", summary, kept: view(meta) };
  } catch (error) {
    log.warn({ tool, err: error }, "the console could not keep a stopped run's records");
    return { type: "stopped", summary };
  }
}

/**
 * What tells an agent how to continue or where the capped rest is: the page shows the whole result
 * ("Load more", downloads) instead. Matches the words of src/tools/output-cap.ts (moreWarning),
 * src/tools/ga/report-paging.ts and the Marketo step's summaries (src/tools/marketo/summary.ts,
 * export-run.ts: "the first N are shown here", "all N are in the full result linked below").
 */
// "totals are GA's over all 10 rows …, not only the 3 returned" (ga/report-hints.ts) speaks of an answer's page:
// the console's table labels its totals row and pages itself.
const AGENT_PAGING =
  /next_cursor|next_offset|call again with offset|full result linked|are shown here|^totals are GA's over/;

/** A clause about an input parameter by its API name (an export's "max_items was not given, so…"). */
const AGENT_PARAMETER = /\b(?:max_items|max_pages|run_to_completion|query_parameters)\b/;

/**
 * A note written for an agent: it names a tool step of the registry to call or an API path to send
 * (src/tools/ga/funnel.ts: "google_analytics_api_call with POST v1alpha/...", as titled-issues.ts'
 * agentWords finds them; an API version alone, "v1beta", is an agent's word too), or explains the columns by
 * their API names (report-compare.ts: "<metric>[<range>]"; funnel.ts: "completion_rate_pct"), which the
 * page's headers name in words instead.
 */
const AGENT_NOTE = new RegExp(
  `${agentWords(TOOL_STEPS.map((step) => step.id)).source}|\\bv\\d+(?:alpha|beta)\\d*\\b|<metric>|\\b[a-z_]+_pct\\b`,
);

/**
 * GA's totals by a report's first dimension (src/tools/ga/report-subtotals.ts) in API names and raw values
 * ("202609 16,197"): an agent's shortcut; the page's table and chart show the rows in words. And the property's
 * day when it is not UTC's (report-periods.ts), said for an agent that counts dates; the page's date boxes are
 * already the property's days.
 */
const AGENT_TOTALS = /^Totals (?:of \S+ )?by \S+ \(GA's own|^Today in \S+ is \d{4}-\d{2}-\d{2} \(in UTC/;

/**
 * The property's quota in a report's headline (src/tools/ga/report-answer.ts: "; 39997 quota tokens left
 * this hour"): an agent plans its next calls with it, a person finds it on the Google account's card.
 */
const QUOTA_CLAUSE = /; [\d,]+ quota tokens left this hour/;

/**
 * The summary and notes (warnings, hints) a person reads: without the agent's paging instructions, tool
 * names and API paths, or the quota left. MCP answers keep all of them.
 */
export function forPeople(result: ToolResult<unknown>): {
  summary: string;
  data: unknown;
  chart?: ChartModel;
  notes: string[];
  columns?: readonly string[];
} {
  const data = (result.data ?? {}) as { warnings?: unknown; hints?: unknown };
  const listed = [data.warnings, data.hints].flatMap((list) => (Array.isArray(list) ? list : []));
  const notes = listed.filter(
    (note): note is string => typeof note === "string" && !AGENT_PAGING.test(note) && !AGENT_NOTE.test(note),
  );
  // A sentence telling an agent which call to make next (a triggered campaign's "To see what the flow
  // did, call marketo_api_call with {…}") goes whole; a clause about paging or an agent's parameter goes alone.
  const sentences = result.summary
    .replace(QUOTA_CLAUSE, "")
    .split(/(?<=\.)\s+(?=[A-Z])/)
    .filter((sentence) => !AGENT_NOTE.test(sentence) && !AGENT_TOTALS.test(sentence));
  const clauses = sentences.join(" ").replace(/\.$/, "").split("; ");
  const summary = `${clauses.filter((clause) => !AGENT_PAGING.test(clause) && !AGENT_PARAMETER.test(clause)).join("; ")}.`;
  return {
    summary,
    data: result.data,
    notes,
    ...(result.chart ? { chart: result.chart } : {}),
    ...(result.columns ? { columns: result.columns } : {}),
  };
}
