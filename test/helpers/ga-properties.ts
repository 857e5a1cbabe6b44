/**
 * Run Reports requests generated for the property tests (test/tools/ga/properties/): metrics and dimensions
 * of the sandbox's catalogue (the fields its data set models, item-scoped ones aside: they combine only with
 * each other), one to four date ranges, a filter, a sort, and the answers read through MCP, whole.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { expect } from "vitest";
import { MODELLED_DIMENSIONS, MODELLED_METRICS } from "../../src/sandbox/google/data/fields.js";

export type Row = Record<string, string | number | null>;
export interface Answer {
  rows: Row[];
  row_count: number;
  next_offset?: number;
  totals: Row[];
  date_ranges?: { name?: string; start_date: string; end_date: string }[];
  comparison?: { from: string; to: string; paired?: string; no_row_change?: string };
  hints: string[];
}
export type Request = {
  account?: string;
  property: string;
  metrics: string[];
  dimensions: string[];
  date_ranges: (string | { start_date: string; end_date: string; name?: string })[];
  filter?: string;
  order_by?: string;
};

export const PROPERTY = "412345671";
/** Fixed seed: the same requests every run; a failure prints the shrunk request and this seed. */
export const SEED = 20_251_201;

export const DIMENSIONS = MODELLED_DIMENSIONS.filter((d) => d.scope !== "item").map((d) => d.apiName);
export const METRICS = MODELLED_METRICS.filter((m) => m.scope !== "item").map((m) => m.apiName);
/** Integer counts GA adds up over rows (events, and sessions by a session's own attributes). */
export const EVENT_COUNTS = ["eventCount", "screenPageViews", "keyEvents"];
/** Dimensions a session has one value of: its sessions add up over them. */
export const SESSION_DIMENSIONS = [
  "sessionSource",
  "sessionMedium",
  "sessionSourceMedium",
  "sessionCampaignName",
  "sessionDefaultChannelGroup",
  "deviceCategory",
  "platform",
];

/** A range of 1–10 days ending 1–60 days ago, or a preset; sometimes named. */
const range = fc.oneof(
  fc
    .record({ end: fc.integer({ min: 1, max: 60 }), days: fc.integer({ min: 1, max: 10 }) })
    .map(({ end, days }) => ({ start_date: `${end + days - 1}daysAgo`, end_date: `${end}daysAgo` })),
  fc.constantFrom("yesterday", "last7days", "last14days"),
);

const DIMENSION_FILTERS = [
  'deviceCategory == "mobile"',
  'country in ("United States", "France", "Japan", "Germany")',
  'sessionDefaultChannelGroup != "Direct"',
  'not deviceCategory == "tablet"',
];

function orderBy(metrics: string[], dimensions: string[], merged: boolean) {
  const fields = [...metrics, ...dimensions, ...(merged ? metrics.map((m) => `${m}_change`) : [])];
  return fc
    .uniqueArray(fc.constantFrom(...fields), { maxLength: 2 })
    .chain((keys) => fc.tuple(...keys.map((key) => fc.constantFrom(key, `-${key}`))))
    .map((keys) => (keys.length > 0 ? keys.join(",") : undefined));
}

/** A report request; `ranges` bounds how many date ranges it has. */
export function requests(
  o: {
    metrics?: readonly string[];
    dimensions?: readonly string[];
    ranges?: { min: number; max: number };
    metricFilter?: boolean;
    minDimensions?: number;
    maxDimensions?: number;
  } = {},
): fc.Arbitrary<Request> {
  const metrics = fc.uniqueArray(fc.constantFrom(...(o.metrics ?? METRICS)), { minLength: 1, maxLength: 3 });
  const dimensions = fc.uniqueArray(fc.constantFrom(...(o.dimensions ?? DIMENSIONS)), {
    minLength: o.minDimensions ?? 0,
    maxLength: o.maxDimensions ?? 2,
  });
  const ranges = fc.array(range, { minLength: o.ranges?.min ?? 1, maxLength: o.ranges?.max ?? 4 });
  return fc.record({ metrics, dimensions, date_ranges: ranges }).chain((base) => {
    const filters = [...DIMENSION_FILTERS, ...(o.metricFilter === false ? [] : [`${base.metrics[0]} > 3`])];
    return fc
      .record({
        filter: fc.option(fc.constantFrom(...filters), { nil: undefined }),
        order_by: orderBy(base.metrics, base.dimensions, base.date_ranges.length === 2),
      })
      .map(({ filter, order_by }) => ({
        property: PROPERTY,
        ...base,
        ...(filter ? { filter } : {}),
        ...(order_by ? { order_by } : {}),
      }));
  });
}

export const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** One call of Run Reports through MCP; an error result fails the property with its text. */
export async function report(client: Client, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({
    name: "google_analytics_run_reports",
    arguments: args,
  })) as CallToolResult;
  expect(result.isError, `${JSON.stringify(args)}\n${text(result)}`).toBeFalsy();
  return result;
}

export const answer = (r: CallToolResult) => r.structuredContent as unknown as Answer;

/** Every row of a request, read from offset 0 following next_offset with `limit` rows a call. */
export async function readAll(
  client: Client,
  request: Request,
  limit: number,
): Promise<{ rows: Row[]; pages: Answer[] }> {
  const rows: Row[] = [];
  const pages: Answer[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const page = answer(await report(client, { ...request, limit, offset }));
    pages.push(page);
    rows.push(...page.rows);
    expect(pages.length, "paging does not end").toBeLessThan(200);
    offset = page.next_offset;
  }
  return { rows, pages };
}
