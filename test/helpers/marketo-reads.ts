/**
 * The three ways an agent reads a Marketo request to its end with marketo_api_call, and the truth they
 * are held to, for the property tests of test/tools/marketo/properties/ (issue 25, §3):
 *
 * - by cursor: each answer's records, then the next call with `cursor: next_cursor` (or, where the answer
 *   says it continues exactly, `query_parameters.nextPageToken: next_page_token`), until `complete`; the
 *   calls run as the CLI runs them, or as MCP does, with whole results kept beside the answers;
 * - from the kept result: over MCP, the answer's JSON resource_link read page by page (an export's file is
 *   one ?page=all read), then on from the `nextCursor` the pages carry when the read itself stopped at a cap;
 * - the truth: the sandbox read by a plain loop of this file (its own token, `nextPageToken` until the
 *   last page; `moreResult: false` for activities), or an export's file downloaded whole.
 *
 * The sandbox answers without limits (rate, concurrency, daily quota) so that a property's runs cost
 * only their calls.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "csv-parse/sync";
import { runToolStep } from "../../src/tools/run.js";
import type { Workspace } from "../../src/workspace.js";
import { type MarketoFixture, marketoFixture, marketoWorkspace } from "./fixtures.js";
import { requestToken } from "./marketo-sandbox.js";
import { type McpSession, mcpSession } from "./mcp.js";

export type MarketoRecord = Record<string, unknown>;
export type Query = Record<string, string | number | boolean>;

/** marketo_api_call's input, as the properties generate it. */
export interface ReadInput {
  method: "GET" | "POST";
  endpoint: string;
  query_parameters?: Query;
  body?: Record<string, unknown>;
  paginate?: boolean;
  max_pages?: number;
  max_items?: number;
  run_to_completion?: boolean;
  /** Where a read starts: a cursor an answer or a kept result named (a read that continues another). */
  cursor?: string;
}

/** How an agent continues after an answer that is not complete. */
export type Continuation = "cursor" | "next_page_token";

/** The answer fields the reads follow. */
interface Answer {
  result: MarketoRecord[];
  complete: boolean;
  warnings: string[];
  next_cursor?: string;
  next_page_token?: string;
}

/** No read of these tests needs more answers: more is a loop. */
const MAX_ANSWERS = 400;

const UNLIMITED = {
  MARKETO_CALLS_PER_WINDOW: "1000000",
  MARKETO_DAILY_QUOTA: "10000000",
  MARKETO_MAX_CONCURRENT: "10",
};

/** A request read whole by the test's own loop, and how many of its pages were empty with records after them. */
export interface Truth {
  records: MarketoRecord[];
  emptyPagesBeforeMore: number;
}

export interface ReadSandbox {
  fixture: MarketoFixture;
  /**
   * A workspace on the sandbox whose kept results hold at most `keptBytes`: MARTECH_STEPS_RESULT_MAX_BYTES,
   * and MARTECH_STEPS_EXPORT_MAX_BYTES for an export's file (kept apart since issue 27 §2, 32 MB by default),
   * so that a file too is cut by the size the property generates and read on from its nextCursor.
   */
  workspace(keptBytes?: number): Workspace;
  /** GET `path` with `query`, every page, by the test's own loop. */
  truth(path: string, query: Query): Promise<Truth>;
  /**
   * An export's file downloaded whole and parsed as Marketo documents it: a header row, then one record
   * per row, an unquoted `null` an empty value
   * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract).
   */
  fileTruth(path: string): Promise<MarketoRecord[]>;
  close(): Promise<void>;
}

/** A sandbox of `leadCount` leads with no limits and quick bulk jobs. */
export async function startReadSandbox(leadCount = 1_500): Promise<ReadSandbox> {
  const fixture = await marketoFixture(
    { leadCount, rateLimit: 1_000_000, dailyQuota: 10_000_000, bulkJobMs: 20 },
    UNLIMITED,
  );
  const token = await requestToken(fixture.sandbox);
  const get = (path: string) =>
    fetch(`${fixture.sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const page = async (path: string, query: Query) => {
    const params = new URLSearchParams(
      Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const body = (await (await get(`${path}?${params}`)).json()) as {
      success: boolean;
      result?: MarketoRecord[];
      nextPageToken?: string;
      moreResult?: boolean;
      errors?: unknown[];
    };
    if (!body.success) throw new Error(`the sandbox refused ${path}: ${JSON.stringify(body.errors)}`);
    return body;
  };
  // The step names each activity's type (activityType, after activityTypeId, from types.json): the truth
  // does too, from the sandbox's own list, so records are compared with the name the tool adds.
  let typeNames: Promise<Map<number, string>> | undefined;
  const named = async (records: MarketoRecord[]): Promise<MarketoRecord[]> => {
    if (!records.some((record) => Object.hasOwn(record, "activityTypeId"))) return records;
    typeNames ??= page("/rest/v1/activities/types.json", {}).then(
      (body) => new Map((body.result ?? []).map((type) => [Number(type.id), String(type.name)])),
    );
    const names = await typeNames;
    return records.map((record) =>
      Object.hasOwn(record, "activityTypeId")
        ? { ...record, activityType: names.get(Number(record.activityTypeId)) ?? null }
        : record,
    );
  };
  const workspaces = new Map<number, Workspace>();
  return {
    fixture,
    workspace(keptBytes = 4_000_000) {
      let workspace = workspaces.get(keptBytes);
      if (!workspace) {
        workspace = marketoWorkspace(
          fixture.sandbox,
          {},
          {
            ...UNLIMITED,
            MARTECH_STEPS_RESULT_MAX_BYTES: String(keptBytes),
            MARTECH_STEPS_EXPORT_MAX_BYTES: String(keptBytes),
          },
        );
        workspaces.set(keptBytes, workspace);
      }
      return workspace;
    },
    async truth(path, query) {
      const { sinceDatetime, ...rest } = query;
      let token =
        sinceDatetime === undefined
          ? undefined
          : (await page("/rest/v1/activities/pagingtoken.json", { sinceDatetime })).nextPageToken;
      const records: MarketoRecord[] = [];
      let empty = 0;
      let emptyPagesBeforeMore = 0;
      for (let calls = 0; calls < 10_000; calls += 1) {
        const answer = await page(path, {
          ...rest,
          batchSize: 300,
          ...(token ? { nextPageToken: token } : {}),
        });
        const result = answer.result ?? [];
        records.push(...result);
        if (result.length === 0) empty += 1;
        else [emptyPagesBeforeMore, empty] = [emptyPagesBeforeMore + empty, 0];
        if (!answer.nextPageToken || answer.moreResult === false)
          return { records: await named(records), emptyPagesBeforeMore };
        token = answer.nextPageToken;
      }
      throw new Error(`${path}: no last page after 10,000 calls`);
    },
    async fileTruth(path) {
      const res = await get(path);
      if (res.status !== 200) throw new Error(`the sandbox answered ${res.status} for ${path}`);
      return named(
        parse(await res.text(), {
          columns: true,
          cast: (value, context) => (!context.quoting && value === "null" ? null : value),
        }) as MarketoRecord[],
      );
    },
    close: () => fixture.close(),
  };
}

/** A tool call that must answer; its data. */
/**
 * A tool call that must answer; its data. With `keptBytes` the call runs as MCP and the console run it,
 * keeping whole results up to that size beside the answer (ToolContext.fullResults), which changes where
 * a read stops and what the answer shows of it; without, as the CLI and a plugin host run it.
 */
async function answerOf(
  workspace: Workspace,
  input: Record<string, unknown>,
  keptBytes: number | undefined,
): Promise<Answer> {
  const ctx = await workspace.toolContext({});
  const context = keptBytes === undefined ? ctx : { ...ctx, fullResults: { maxBytes: keptBytes } };
  return (await runToolStep("marketo_api_call", input, context)).data as Answer;
}

/** The input of the call after `answer`: the same request, continued as `how` says (when it can). */
function continued(
  input: ReadInput,
  answer: Answer,
  how: Continuation,
  file: string | undefined,
): Record<string, unknown> {
  const { run_to_completion: _once, ...request } = input;
  const rest: Record<string, unknown> = input.run_to_completion
    ? { ...request, ...fileRequest(file), body: undefined }
    : request;
  if (how === "next_page_token" && answer.next_page_token !== undefined)
    return {
      ...rest,
      query_parameters: { ...input.query_parameters, nextPageToken: answer.next_page_token },
    };
  return { ...rest, cursor: answer.next_cursor };
}

/** What a read did, so that a property can show it tried the paths it claims to (cut pages, kept caps, tokens). */
export interface ReadStats {
  answers: number;
  /** Answers continued with Marketo's next_page_token instead of the cursor. */
  byToken: number;
  /** Answers cut inside a page: continued by a cursor that re-reads the page and skips what was shown. */
  withinPage: number;
  /** Answers the 45 KB output cap cut (their warning says "Output capped"). */
  outputCapped: number;
  /** Kept results read, and of those the ones whose read stopped at a cap (their pages carry nextCursor). */
  kept: number;
  keptStopped: number;
  /** Pages of the truth that were empty with records after them (activities: a day without a match). */
  emptyPages: number;
}

const noStats = (): ReadStats => ({
  answers: 0,
  byToken: 0,
  withinPage: 0,
  outputCapped: 0,
  kept: 0,
  keptStopped: 0,
  emptyPages: 0,
});

/**
 * The records of a read in order; a record read twice (by `key`) fails at once, naming the answer, rather
 * than after a read that goes round in circles up to its last allowed answer.
 */
class Records {
  readonly all: MarketoRecord[] = [];
  readonly #seen = new Set<unknown>();
  constructor(readonly key: (record: MarketoRecord) => unknown) {}
  add(records: readonly MarketoRecord[], where: string): void {
    for (const record of records) {
      const id = this.key(record);
      if (this.#seen.has(id)) throw new Error(`${where} shows record ${JSON.stringify(id)} again`);
      this.#seen.add(id);
      this.all.push(record);
    }
  }
}

export type RecordKey = (record: MarketoRecord) => unknown;
export const byId: RecordKey = (record) => record.id;

/**
 * Every record shown, answer after answer, until one says it is complete; the answers of a call that keeps
 * whole results when `keptBytes` is given (the kept results themselves are not read: readKept does).
 */
export async function readByCursor(
  workspace: Workspace,
  input: ReadInput,
  options: { how?: Continuation; key?: RecordKey; keptBytes?: number | undefined } = {},
): Promise<{ records: MarketoRecord[]; stats: ReadStats; file?: string }> {
  const { how = "cursor", key = byId, keptBytes } = options;
  const records = new Records(key);
  const stats = noStats();
  let next: Record<string, unknown> = { ...input };
  let file: string | undefined;
  while (stats.answers < MAX_ANSWERS) {
    stats.answers += 1;
    const answer = await answerOf(workspace, next, keptBytes);
    records.add(answer.result, `answer ${stats.answers}`);
    file ??= fileOf(answer);
    if (answer.complete) return { records: records.all, stats, ...(file ? { file } : {}) };
    if (answer.next_cursor === undefined)
      throw new Error(`answer ${stats.answers} is not complete and has no next_cursor`);
    if (answer.warnings.some((warning) => warning.startsWith("Output capped"))) stats.outputCapped += 1;
    if (answer.next_page_token === undefined) stats.withinPage += 1;
    else if (how === "next_page_token") stats.byToken += 1;
    next = continued(input, answer, how, file);
  }
  throw new Error(`no complete answer after ${MAX_ANSWERS}`);
}

/** The page metadata of a kept result's page. */
interface PageMeta {
  next?: string;
  nextCursor?: string;
}

/** A kept result's every record (its JSON link, page by page) and where the read it holds stopped. */
async function keptRecords(
  session: McpSession,
  result: CallToolResult,
): Promise<{ records: MarketoRecord[]; nextCursor?: string | undefined } | undefined> {
  const link = result.content.find(
    (block) => block.type === "resource_link" && block.mimeType === "application/json",
  );
  if (link?.type !== "resource_link") return undefined;
  const records: MarketoRecord[] = [];
  let nextCursor: string | undefined;
  for (let uri: string | undefined = link.uri; uri !== undefined; ) {
    const { contents } = await session.client.readResource({ uri });
    const [page] = contents as unknown as [{ text: string; _meta: Record<string, PageMeta> }];
    records.push(...(JSON.parse(page.text) as MarketoRecord[]));
    const meta = page._meta["martech-steps/page"];
    nextCursor = meta?.nextCursor;
    uri = meta?.next;
  }
  return { records, nextCursor };
}

/**
 * Every record of the kept results over MCP, call after call: a call whose answer links a kept result
 * continues from the `nextCursor` its pages carry (where the read stopped, not where the answer's text
 * stopped); one that links none (it showed all it read) continues from its next_cursor.
 */
export async function readKept(
  workspace: Workspace,
  input: ReadInput,
  key: RecordKey = byId,
): Promise<{ records: MarketoRecord[]; stats: ReadStats; file?: string }> {
  const session = await mcpSession(workspace);
  try {
    const records = new Records(key);
    const stats = noStats();
    let file: string | undefined;
    let args: Record<string, unknown> = { ...input };
    while (stats.answers < MAX_ANSWERS) {
      stats.answers += 1;
      const result = (await session.client.callTool({
        name: "marketo_api_call",
        arguments: args,
      })) as CallToolResult;
      if (result.isError)
        throw new Error(`answer ${stats.answers} is an error: ${JSON.stringify(result.content)}`);
      const answer = result.structuredContent as unknown as Answer;
      const whole = await keptRecords(session, result);
      records.add(
        whole?.records ?? answer.result,
        `${whole ? "the kept result of " : ""}answer ${stats.answers}`,
      );
      if (whole) stats.kept += 1;
      if (whole?.nextCursor !== undefined) stats.keptStopped += 1;
      const cursor = whole ? whole.nextCursor : answer.next_cursor;
      file ??= fileOf(answer);
      if (cursor === undefined) return { records: records.all, stats, ...(file ? { file } : {}) };
      const { run_to_completion: _once, ...rest } = input;
      args = { ...rest, ...(input.run_to_completion ? fileRequest(file) : {}), cursor };
      // The export's create body belongs to the create call only.
      if (input.run_to_completion) delete args.body;
    }
    throw new Error(`no last kept result after ${MAX_ANSWERS} answers`);
  } finally {
    await session.close();
  }
}

/** The file a run_to_completion export's answer read (its `extra.file_endpoint`). */
function fileOf(answer: Answer): string | undefined {
  return (answer as Answer & { extra?: { file_endpoint?: string } }).extra?.file_endpoint;
}

/** After a run_to_completion export, the request that continues is a GET of its file (the first answer's). */
function fileRequest(file: string | undefined): Record<string, unknown> {
  if (file === undefined) throw new Error("the export's answer names no file to read on");
  return { method: "GET", endpoint: file };
}

/** The records, checked to hold each record once (by `key`). */
export function once(
  records: readonly MarketoRecord[],
  where: string,
  key: RecordKey = byId,
): MarketoRecord[] {
  const checked = new Records(key);
  checked.add(records, where);
  return checked.all;
}

/** The stats of several reads added up. */
export function addStats(total: ReadStats, more: ReadStats): void {
  for (const name of Object.keys(total) as (keyof ReadStats)[]) total[name] += more[name];
}

export { noStats };
