/**
 * A GET path in place of a kept result's link, read whole (every page) in the same call: join's
 * `"/rest/v1/leads/programs/1003.json?fields=id on id = id"` and where's `id in result("/rest/v1/lists/1001/leads.json?fields=id")`.
 * Trial s37 N546 ("flag program 1014's people who came over from program 1003"): to have a link to join, the agent
 * read 1003's 198 members whole, 43,000 characters printed for nothing, after two calls with limit that gave no
 * link (a limit's kept result holds what it kept).
 *
 * The read is this step's own (the path checked as any endpoint is, on the call's connection, limits and deadline);
 * its query is the path's, and `{placeholders}` take comma-separated ids as a read per id does.
 */
import { ValidationError } from "../../errors.js";
import { MarketoApiCallInput, type MarketoApiCallOutput } from "../../schemas/marketo.js";
import { n, plural } from "../numbers-in-words.js";
import type { PathRead, PathReader } from "../records/kept-lists.js";
import { isObject } from "../records/values.js";
import type { ToolContext, ToolResult } from "../types.js";

type Step = (input: MarketoApiCallInput, ctx: ToolContext) => Promise<ToolResult<MarketoApiCallOutput>>;

/** Records a path's read takes at most: what uses it is over them all, or refused. */
const MOST_ITEMS = 100_000;

/**
 * The most JSON a path's read holds where the adapter keeps no results (the CLI), as a kept result's default
 * (MARTECH_STEPS_RESULT_MAX_BYTES): the rows are where's or join's, not the answer's, so the answer's cap does not
 * cut them.
 */
const MOST_BYTES = 4_000_000;

/** A path read for where or join, and which of them it was read for. */
export interface SpentRead extends PathRead {
  field: string;
}

/** The GET the path names, with its query's values, read whole. */
export function pathReadInput(link: string, field: string): MarketoApiCallInput {
  const at = link.indexOf("?");
  const endpoint = at < 0 ? link : link.slice(0, at);
  // A placeholder's comma-separated ids are a read per id, as in query_parameters (fan-out.ts).
  const query = Object.fromEntries(new URLSearchParams(at < 0 ? "" : link.slice(at + 1)));
  const parsed = MarketoApiCallInput.safeParse({
    method: "GET",
    endpoint,
    ...(Object.keys(query).length > 0 ? { query_parameters: query } : {}),
    paginate: true,
    max_pages: 200,
    max_items: MOST_ITEMS,
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

/**
 * The reader of paths for `field`: the step itself, on a context that shows no partial rows of this inner read and
 * keeps its whole; each read is added to `spent` (its calls are the answer's too).
 */
export function pathReader(step: Step, ctx: ToolContext, field: string, spent: SpentRead[]): PathReader {
  return async (link: string): Promise<PathRead> => {
    const input = pathReadInput(link, field);
    const on: ToolContext = Object.assign(Object.create(ctx) as ToolContext, {
      partial: undefined,
      fullResults: ctx.fullResults ?? { maxBytes: MOST_BYTES },
    });
    const shown = `GET ${link.slice(0, 200)}`;
    const answer = await step(input, on).catch((error: unknown) => {
      throw asFieldError(error, shown, field);
    });
    const rows = (answer.full?.items ?? answer.data.result).filter(isObject);
    // Kept whole, the answer's next_cursor is only past the records it showed; its whole's own says the read stopped.
    const cut = answer.full
      ? answer.full.nextCursor !== undefined || answer.full.before !== undefined
      : !answer.data.complete;
    if (cut) {
      throw new ValidationError(
        field,
        `the read of ${shown} stopped before its last record (${n(rows.length)} read): ${field === "where" ? "as a list it would leave the rest out" : "joined to part of it, records would lack rows they have"}.`,
        {
          hint: "Narrow the path's read (its query: fields, a filter) so that it is read whole, or read it in a call of its own with paginate true and use its Full result's link.",
        },
      );
    }
    const calls = answer.data.calls_used;
    const read = { rows, source: `${shown}, read whole in ${plural(calls, "call")}`, calls };
    spent.push({ ...read, field });
    return read;
  };
}

/**
 * The path's read refused by the step's own checks (an endpoint outside the API, a query it takes no value for):
 * said as where's or join's, since the call's endpoint is not what is wrong. Marketo's own refusals name the path.
 */
function asFieldError(error: unknown, shown: string, field: string): unknown {
  if (!(error instanceof ValidationError) || error.field === field) return error;
  const { hint } = error;
  const said =
    hint && error.message.endsWith(hint) ? error.message.slice(0, -hint.length).trimEnd() : error.message;
  return new ValidationError(field, `its path, ${shown}, is refused as ${said.replace(/^Invalid /, "")}`, {
    ...(hint ? { hint } : {}),
  });
}

/** The words of where's path reads: what each result(…) read (join's say theirs in its own sentence). */
export function whereReadWords(spent: readonly SpentRead[]): string | undefined {
  const reads = spent.filter((read) => read.field === "where");
  if (reads.length === 0) return undefined;
  return `where's result(…) took ${reads.map((read) => `${read.source} (${plural(read.rows.length, "record")})`).join("; ")}.`;
}
