/**
 * The rows of a result as the page shows them: first those of the answer, then, on "Load more", the
 * next page of the kept whole result (appended), and past the kept read, the next read (the step run
 * again from where it stopped: Marketo's cursor, a report's offset), appended too. An agent is told to
 * pass next_cursor back; a person presses a button.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { type KeptView, type RunResult, type RunStopped, resultPage, runStep } from "./api.ts";

export type Row = Record<string, unknown>;
type Input = Record<string, unknown>;

export const rowsOf = (data: Record<string, unknown> | undefined): Row[] | undefined => {
  if (!data) return undefined;
  const list = [data.result, data.rows, data.properties, data.key_events].find(Array.isArray) as
    | unknown[]
    | undefined;
  if (!list) return undefined;
  return list.map((item) => (item && typeof item === "object" ? (item as Row) : { value: item }));
};

/** Where the next read starts, when the result's read stopped before the end of the data. */
type Continuation = { cursor: string } | { offset: number };

/** Where the read after this one starts; `own` is how many rows this read itself brought (kept or shown). */
function continuation(result: RunResult | RunStopped, input: Input, own: number): Continuation | undefined {
  if (result.type === "stopped") return undefined;
  const { data, kept } = result;
  if (Array.isArray(data.rows)) {
    // A report pages by offset (exact); rows already read start at the input's offset.
    const start = typeof input.offset === "number" ? input.offset : 0;
    const read = start + own;
    return typeof data.row_count === "number" && read < data.row_count ? { offset: read } : undefined;
  }
  const cursor = kept ? kept.nextCursor : (data.next_cursor as string | undefined);
  return cursor ? { cursor } : undefined;
}

/**
 * The input of the next read: a cursor holds the position, so Marketo's own nextPageToken or offset
 * given with the first read is left out (the step refuses both at once).
 */
function nextInput(input: Input, next: Continuation): Input {
  if ("offset" in next) return { ...input, offset: next.offset };
  const query = input.query_parameters as Input | undefined;
  const { nextPageToken: _token, offset: _offset, ...rest } = query ?? {};
  return { ...input, ...(query ? { query_parameters: rest } : {}), cursor: next.cursor };
}

interface State {
  rows: Row[];
  /** How many rows came before the kept result being read (earlier reads). */
  base: number;
  /** The kept result being read, and how many of its items are in `rows`. */
  kept?: KeptView;
  keptShown: number;
  next?: Continuation;
  /** The input of the read in progress (the first, or the last continuation). */
  input: Input;
}

function initial(result: RunResult | RunStopped, input: Input): State {
  const rows = result.type === "result" ? (rowsOf(result.data) ?? []) : [];
  return {
    rows,
    base: 0,
    ...(result.kept ? { kept: result.kept } : {}),
    keptShown: result.kept ? rows.length : 0,
    next: continuation(result, input, result.kept ? result.kept.items : rows.length),
    input,
  };
}

/** The items of a kept result from index `from`, read from the page that holds it. */
async function keptFrom(kept: KeptView, from: number): Promise<Row[]> {
  let first = 0;
  let page = 1;
  for (const items of kept.pageItems) {
    if (from < first + items) break;
    first += items;
    page += 1;
  }
  const answer = await resultPage(kept.id, page);
  return answer.items.slice(from - answer.first).map((item) => item as Row);
}

/** A report's rows from the input's offset to its end (GA's row_count counts them all), when it says. */
function reportRows(result: RunResult | RunStopped, input: Input): number | undefined {
  if (result.type !== "result" || typeof result.data.row_count !== "number") return undefined;
  return result.data.row_count - (typeof input.offset === "number" ? input.offset : 0);
}

/** The rows shown, how many there are in all as far as known, and Load more. */
export function useResultRows(stepId: string, result: RunResult | RunStopped, input: Input) {
  const [state, setState] = useState<State>(() => initial(result, input));
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const current = useRef(state);
  current.current = state;
  const keptLeft = state.kept ? state.kept.items - state.keptShown : 0;

  const loadMore = useCallback(async () => {
    const now = current.current;
    setLoading(true);
    setFailure(undefined);
    try {
      if (now.kept && now.keptShown < now.kept.items) {
        const more = await keptFrom(now.kept, now.keptShown);
        setState({ ...now, rows: [...now.rows, ...more], keptShown: now.keptShown + more.length });
      } else if (now.next) {
        setState(await readOn(stepId, now, now.next));
      }
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setLoading(false);
    }
  }, [stepId]);

  // A stopped run's records are all kept: show the first page of them at once.
  useEffect(() => {
    if (result.type === "stopped" && result.kept) void loadMore();
  }, [result, loadMore]);

  // A report says how many rows it has from the first run's offset on (row_count); other reads, what was read.
  const read = state.kept ? state.base + state.kept.items : state.rows.length;
  const total = Math.max(read, reportRows(result, input) ?? 0);
  return {
    rows: state.rows,
    total,
    kept: state.kept,
    /** Rows shown before the kept result's first item (not in its downloads). */
    keptFrom: state.base,
    more: keptLeft > 0 || state.next !== undefined,
    /** Rows still to read from the service: the downloads hold only those loaded so far. */
    unread: state.next !== undefined,
    loading,
    failure,
    loadMore,
  };
}

/**
 * The step run again from where the last read stopped; its rows appended to those shown. The server keeps
 * it after the kept result shown so far (`continues`), so the downloads hold every row shown; when that
 * could not be (too large, expired), the new kept result starts at the rows it brought (`base`).
 */
async function readOn(stepId: string, now: State, next: Continuation): Promise<State> {
  const input = nextInput(now.input, next);
  let answer: RunResult | undefined;
  for await (const event of runStep(stepId, input, new AbortController().signal, now.kept?.id)) {
    if (event.type === "result") answer = event;
    if (event.type === "error") throw new Error(event.error.message);
  }
  if (!answer) throw new Error("The read ended without a result.");
  const rows = rowsOf(answer.data) ?? [];
  const joined = now.kept !== undefined && answer.kept?.continues === now.kept.id;
  const before = joined ? (now.kept?.items ?? 0) : 0;
  return {
    rows: [...now.rows, ...rows],
    base: joined ? now.base : now.rows.length,
    ...(answer.kept ? { kept: answer.kept } : {}),
    keptShown: answer.kept ? before + rows.length : 0,
    next: continuation(answer, input, answer.kept ? answer.kept.items - before : rows.length),
    input,
  };
}
