import type { z } from "zod";
import type { ChartModel } from "../charts/model.js";
import type { ConnectionKind, ConnectorOf, ServiceId } from "../connections/registry.js";
import type { InputAliases } from "./input/normalise.js";
import type { StepAnswer, StepTask } from "./tasks.js";

/** The registry's kinds and services (src/connections/registry.ts), re-exported for the steps. */
export type { ConnectionKind, ServiceId };

/** MCP tool annotations (https://modelcontextprotocol.io/specification/2025-06-18/server/tools). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a step's input schema may depend on: the workspace's connected Google account labels. */
export interface SchemaContext {
  accounts: readonly string[];
}

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Severity of a log entry, as MCP's logging levels (RFC 5424) name them. */
export type ToolLogLevel = "debug" | "info" | "notice" | "warning" | "error";

/**
 * Something worth showing the person watching a call as it happens: a wait for a rate limit, a retry
 * after a transient failure, a quota running low. The message is plain text for a person (never a
 * secret or a token); `data` holds a few safe structured fields.
 */
export interface ToolLogEntry {
  level: ToolLogLevel;
  message: string;
  data?: Record<string, string | number | boolean>;
}

/** What a handler gets: connectors already bound to the workspace, never a credential. */
export interface ToolContext {
  /**
   * The connector of a connection room, bound to the workspace: `connection("marketo")` is the
   * MarketoConnector, `connection("google", account)` the connector of a connected Google account (by
   * label; the only one when omitted). Throws a ConfigurationError saying how to connect when there is none.
   */
  connection<K extends ConnectionKind>(kind: K, account?: string): Promise<ConnectorOf<K>>;
  signal?: AbortSignal | undefined;
  /** Overall limit of the call (MARTECH_STEPS_DEADLINE_MS); runToolStep applies it. Default 120 s. */
  deadlineMs?: number | undefined;
  progress(update: ProgressUpdate): void;
  /** Optional: where an adapter shows log entries live (MCP sends them as log notifications). */
  log?(entry: ToolLogEntry): void;
  /**
   * Set by an adapter that keeps whole results (MCP offers them as resource links): a step whose answer
   * is capped may then read on past the output cap, up to `maxBytes` of items, and return them in
   * `ToolResult.full`. Without it, a step reads no more than it can show.
   */
  fullResults?: FullResultsOffer | undefined;
  /**
   * Optional: where an adapter collects the items a step has read so far, page by page, so that a run
   * stopped early (the console's Cancel) still shows what was read.
   */
  partial?(items: readonly unknown[]): void;
  /**
   * Optional: a kept result's items by its id, for a step that reads one (where's `in result("…")`), from an
   * adapter that keeps results; undefined when it is unknown to the workspace or has expired.
   */
  keptItems?(id: string): Promise<KeptResult | undefined>;
}

/** A kept result read back: its items, and what cut it when it is not every item its call had (its words). */
export interface KeptResult {
  items: readonly unknown[];
  cut?: string;
  /** per's rows: their listed fields hold values joined by " + " (records/per.ts). */
  rows?: boolean;
}

/** What an adapter that keeps whole results offers a step (see ToolContext.fullResults). */
export interface FullResultsOffer {
  /** The most a step reads into one kept result (MARTECH_STEPS_RESULT_MAX_BYTES). */
  maxBytes: number;
  /**
   * An export run to completion is kept as a file: whole up to this many bytes of JSON
   * (MARTECH_STEPS_EXPORT_MAX_BYTES), for `fileTtlMs` (MARTECH_STEPS_EXPORT_TTL_MS). Absent: as any result.
   */
  fileMaxBytes?: number;
  fileTtlMs?: number;
}

/** Everything a step read when its answer had to be capped: the items shown and those that were not. */
export interface FullResult {
  /** Marketo records, GA report rows, or the list items of a GA response (a table each). */
  /** "statuses": a write's status per record, which nothing read. */
  kind: "records" | "rows" | "items" | "count rows" | "statuses";
  items: readonly unknown[];
  /**
   * The items the answer shows, when they are fewer than a page's bytes would hold (a step that leaves room in its
   * answer for other text: GA's reports): page 1 holds exactly these, so page 2 is what comes after them (review
   * s45, 2: 402 rows shown, 452 on page 1).
   */
  shown?: number;
  /** Column order for a table (CSV); the keys of the items in first-seen order when absent. */
  columns?: readonly string[];
  /** Where reading continues after the last item, when even the whole read stopped at a cap. */
  nextCursor?: string;
  /** The items are those the call kept (where, limit) of this many read: the link says so, not "all read". */
  of?: number;
  /** The items are the first of this many results, cut at the most a kept result holds (review s36, 5). */
  before?: number;
  /**
   * What stopped the read before its end where no cursor continues it (a read per id, a read of activity types in
   * groups: max_pages, max_items, the bytes kept): its items are not every one the call had (review s46, 1).
   */
  stopped?: string;
  /**
   * An export's file (run_to_completion): kept for the exports' lifetime, not a result's, and linked as one
   * CSV and one JSON file a person can download.
   */
  file?: boolean;
}

export interface ToolResult<O> {
  data: O;
  /** A short human/model-readable summary of the result. */
  summary: string;
  /** Set when `data` shows only part of what was read (see ToolContext.fullResults). */
  full?: FullResult;
  /**
   * A second whole result kept beside `full`, which a next call takes (in result(…), join): the records a count
   * counted, where `full` holds its count rows. Adapters that keep results link it; others leave it.
   */
  also?: FullResult;
  /**
   * The result as a chart, as data (src/charts/model.ts): each adapter draws it its way, the console with
   * ECharts beside the table, MCP as a PNG image when `chartImage` is set.
   */
  chart?: ChartModel;
  /**
   * The caller asked for the chart as a picture (Run Reports' `chart: true`): adapters that answer with
   * images (MCP) add `chart` as a PNG. Rendering one costs more than most calls, so it is not done unasked.
   */
  chartImage?: boolean;
  /**
   * The order of `data.result`'s columns in a text table, where the rows' keys do not keep it: an object puts
   * keys that read as integers first, so a pivot by year printed "2024 2025 2026 leadSource total" (review s29,
   * finding 9). Adapters that lay rows out use it; the JSON is the same either way.
   */
  columns?: readonly string[];
}

/**
 * A ready input a person can start from ("Look up a lead by email"). Fields it leaves out are the ones
 * the workspace chooses (the Google account, the property, the Analytics account): the console keeps what
 * its pickers hold. test/tools/step-examples.test.ts runs every example against the sandbox.
 */
export interface StepExample {
  title: string;
  /** What to change before running it on real data (an ID of the sandbox's, say). */
  note?: string;
  input: Record<string, unknown>;
}

export interface ToolStep<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  id: string;
  title: string;
  service: ServiceId;
  /** The service's names a catalog search also finds it by (the product's full name, its abbreviations). */
  serviceWords: string;
  category: string;
  keywords: readonly string[];
  /** What it does, when to use it, and a doc link. */
  description: string;
  docUrl: string;
  connection: ConnectionKind;
  /** OAuth scopes the step needs (Google); empty for Marketo (permissions sit on the API user's role). */
  scopes: readonly string[];
  annotations: ToolAnnotations;
  /** The input's strict schema: an unknown field is refused with the nearest accepted name. */
  input(context: SchemaContext): I;
  /** Other spellings of the input (the seed's, Google's camelCase) accepted and normalised before validation. */
  aliases?: InputAliases;
  output: O;
  /** Ready inputs the console offers (one click fills the form); dates in them are relative to `now`. */
  examples(now: Date): readonly StepExample[];
  /** Common tasks as forms of their own (src/tools/tasks.ts): the console offers them beside the step's form. */
  tasks?: readonly StepTask[];
  /** What a search may ask that the step cannot do, answered in words beside the hits (src/tools/tasks.ts). */
  answers?: readonly StepAnswer[];
  /**
   * Why the step answers a query its title and keywords do not (a report's measures in a marketer's words):
   * a catalog search then finds it, with this reason beside the hit. The step's room knows the words.
   */
  searchReason?(query: string): string | undefined;
  /**
   * The input the reason describes (its measures and breakdowns), for the console to fill the form with when a
   * person clicks the hit that reads like a ready report; undefined where the reason is none.
   */
  searchInput?(query: string): Record<string, unknown> | undefined;
  handler(input: z.output<I>, context: ToolContext): Promise<ToolResult<z.output<O>>>;
}
