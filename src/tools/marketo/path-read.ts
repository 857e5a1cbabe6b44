/**
 * A GET path in place of a kept result's link, read whole (every page) in the same call: join's
 * `"/rest/v1/leads/programs/1003.json?fields=id on id = id"` and where's `id in result("/rest/v1/lists/1001/leads.json?fields=id")`.
 * Trial s37 N546 ("flag program 1014's people who came over from program 1003"): to have a link to join, the agent
 * read 1003's 198 members whole, 43,000 characters printed for nothing, after two calls with limit that gave no
 * link (a limit's kept result held what it kept).
 *
 * The read is this step's own (the path checked as any endpoint is, on the call's connection, limits, deadline and
 * time_zone); its query is the path's, and `{placeholders}` take comma-separated ids as a read per id does. Each
 * path is read once a call, however often it is named.
 */
import { ignoredQueryWarning } from "../../connectors/marketo/real-paths.js";
import { checkMarketoQuery } from "../../connectors/marketo/url.js";
import { UpstreamError, ValidationError, withoutHint } from "../../errors.js";
import { MarketoApiCallInput, type MarketoApiCallOutput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import { sizeWords } from "../output-cap.js";
import type { PathRead, PathReader } from "../records/kept-lists.js";
import { isObject } from "../records/values.js";
import type { FullResult, ToolContext, ToolResult } from "../types.js";

type Step = (input: MarketoApiCallInput, ctx: ToolContext) => Promise<ToolResult<MarketoApiCallOutput>>;

/** Pages and records a path's read takes at most: what uses it is over them all, or refused. */
const MOST_PAGES = 200;
const MOST_ITEMS = 100_000;

/**
 * The most JSON a path's read holds where the adapter keeps no results (the CLI), as a kept result's default
 * (MARTECH_STEPS_RESULT_MAX_BYTES): the rows are where's or join's, not the answer's, so the answer's cap does not
 * cut them.
 */
const MOST_BYTES = 4_000_000;

/** A path read for where or join: which of them, and its request ids (the answer's too). */
export interface SpentRead extends PathRead {
  field: string;
  requestIds: readonly string[];
}

/**
 * A path's query as a URL's is read: each value decoded, "+" a space (name=Trade+Show+Leads, review s47, 4) but in
 * a date's value, where it is the offset's sign (sinceDatetime=…T00:00:00+01:00, review s46, 8); a name given twice
 * takes both values, comma-separated (review s46, 7).
 */
export function pathQuery(query: string): Record<string, string> {
  const values = new Map<string, string[]>();
  for (const part of query.split("&")) {
    if (part === "") continue;
    const at = part.indexOf("=");
    const [rawName, rawValue] = at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
    const name = decoded(rawName.replaceAll("+", " "));
    const value = decoded(/date/i.test(name) ? rawValue : rawValue.replaceAll("+", " "));
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return Object.fromEntries([...values].map(([name, list]) => [name, list.join(",")]));
}

/** A query's part decoded, or as given when it is not well-formed (a lone "%"). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The activity reads whose sinceDatetime the step turns into a paging token (connectors/marketo/activities.ts). */
const SINCE_READS = /^\/rest\/v1\/activities(?:\/leadchanges|\/deletedleads)?\.json$/;

/** The GET the path names, with its query's values and the call's time_zone for its dates, read whole. */
export function pathReadInput(link: string, field: string, timeZone?: string): MarketoApiCallInput {
  const at = link.indexOf("?");
  const endpoint = at < 0 ? link : link.slice(0, at);
  const query = pathQuery(at < 0 ? "" : link.slice(at + 1));
  // A secret in the query is refused as such, not as a parameter Marketo ignores (review s47, 10).
  try {
    checkMarketoQuery(query);
  } catch (error) {
    throw asFieldError(error, `GET ${link.slice(0, 200)}`, field);
  }
  // A misspelled filter reads every record: refused before anything is read (review s46, 2). The step's own
  // parameters are not Marketo's: a placeholder's ids (a read per id), an activity read's sinceDatetime (a paging
  // token fetched), which on another read is Marketo's to ignore (review s47, 6).
  const own = new Set([...endpoint.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]));
  const since = SINCE_READS.test(endpoint);
  const sent = Object.fromEntries(
    Object.entries(query).filter(([name]) => !own.has(name) && !(since && /^sincedatetime$/i.test(name))),
  );
  const ignored = ignoredQueryWarning(endpoint, sent);
  if (ignored) {
    throw new ValidationError(
      field,
      `the query of its path ${JSON.stringify(link.slice(0, 200))}: ${ignored}`,
      {
        hint: "Fix the path's query as said, or leave the parameter out.",
      },
    );
  }
  // The call's time_zone reads the path's sinceDatetime on the same clock as its own dates (review s46, 4).
  // Either spelling Marketo's references use (review s47, 5).
  const dated = Object.keys(query).some((name) => /^sincedatetime$/i.test(name));
  const zoned = timeZone !== undefined && dated ? { time_zone: timeZone } : {};
  const parsed = MarketoApiCallInput.safeParse({
    method: "GET",
    endpoint,
    ...(Object.keys(query).length > 0 ? { query_parameters: query } : {}),
    paginate: true,
    max_pages: MOST_PAGES,
    max_items: MOST_ITEMS,
    ...zoned,
  });
  if (!parsed.success) {
    throw new ValidationError(
      field,
      `the path ${JSON.stringify(link.slice(0, 200))} is not a read it takes.`,
      {
        hint: 'Give a GET path with its query, e.g. "/rest/v1/lists/1001/leads.json?fields=id".',
      },
    );
  }
  return parsed.data;
}

/** What stopped a path's read, or undefined when it is whole. */
function stoppedBy(answer: ToolResult<MarketoApiCallOutput>, full: FullResult | undefined, maxBytes: number) {
  // Kept whole, the answer's next_cursor is only past the records it showed; its whole's own says the read stopped.
  if (!full) return answer.data.complete ? undefined : "a cap";
  if (full.before !== undefined) return `the most it holds, ${sizeWords(maxBytes)} of JSON`;
  if (full.nextCursor !== undefined)
    return `a cap: ${n(MOST_PAGES)} pages, ${n(MOST_ITEMS)} records or ${sizeWords(maxBytes)} of JSON`;
  return full.stopped;
}

/**
 * The readers of paths for where and join: the step itself, on a context that shows no partial rows of the inner
 * read and keeps its whole; each path read once (review s46, 10), and every read added to `spent`.
 */
export function pathReaders(step: Step, ctx: ToolContext, timeZone: string | undefined) {
  const spent: SpentRead[] = [];
  const reads = new Map<string, Promise<PathRead>>();
  const maxBytes = ctx.fullResults?.maxBytes ?? MOST_BYTES;
  const readOnce = (link: string, field: string): Promise<PathRead> => {
    const known = reads.get(link);
    if (known) return known;
    const read = readWhole(link, field);
    reads.set(link, read);
    return read;
  };
  const readWhole = async (link: string, field: string): Promise<PathRead> => {
    const input = pathReadInput(link, field, timeZone);
    const on: ToolContext = Object.assign(Object.create(ctx) as ToolContext, {
      partial: undefined,
      fullResults: ctx.fullResults ?? { maxBytes },
    });
    const shown = `GET ${link.slice(0, 200)}`;
    const answer = await step(input, on).catch((error: unknown) => {
      throw asFieldError(error, shown, field);
    });
    const rows = (answer.full?.items ?? answer.data.result).filter(isObject);
    const stopped = stoppedBy(answer, answer.full, maxBytes);
    if (stopped !== undefined) {
      throw new ValidationError(
        field,
        `the read of ${shown} stopped before its last record (${n(rows.length)} read; stopped by ${stopped}): ${field !== "join" ? "as a list it would leave the rest out" : "joined to part of it, records would lack rows they have"}.`,
        {
          hint: `Narrow the path's read (its query: fields, a filter, fewer ids or activity types) so that it is read whole: a path is read up to ${n(MOST_PAGES)} pages, ${n(MOST_ITEMS)} records and ${sizeWords(maxBytes)} of JSON.`,
        },
      );
    }
    const calls = answer.data.calls_used;
    const read = { rows, source: `${shown}, read whole in ${plural(calls, "call")}`, calls };
    spent.push({ ...read, field, requestIds: answer.data.request_ids });
    return read;
  };
  return {
    spent,
    reader:
      (field: string): PathReader =>
      (link) =>
        readOnce(link, field),
  };
}

/**
 * The path's read refused by the step's own checks (an endpoint outside the API, a query it takes no value for):
 * said as where's or join's, since the call's endpoint is not what is wrong. Marketo's own refusals name the path.
 */
function asFieldError(error: unknown, shown: string, field: string): unknown {
  if (error instanceof UpstreamError) error.message = `${field}'s path read, ${shown}: ${error.message}`;
  if (!(error instanceof ValidationError) || error.field === field) return error;
  const { hint } = error;
  return new ValidationError(
    field,
    `its path, ${shown}, is refused as ${withoutHint(error).replace(/^Invalid /, "")}`,
    {
      ...(hint ? { hint } : {}),
    },
  );
}

/**
 * The words of where's and count_by's path reads: what each result(…) read (join's say theirs in its own sentence).
 * A path read once for both is said once, as the first to name it.
 */
export function whereReadWords(spent: readonly SpentRead[]): string | undefined {
  const said = ["where", "count_by"].flatMap((field) => {
    const reads = spent.filter((read) => read.field === field);
    if (reads.length === 0) return [];
    return [
      `${field}'s result(…) took ${reads.map((read) => `${read.source} (${plural(read.rows.length, "record")})`).join("; ")}.`,
    ];
  });
  return said.length > 0 ? said.join(" ") : undefined;
}
