/**
 * Activities read to the end three ways hold the same records, in the same order, once each (issue 25,
 * §3): the sandbox read whole by a plain loop (a paging token for sinceDatetime, then nextPageToken until
 * `moreResult` is false: the truth), marketo_api_call answer after answer by next_cursor (or Marketo's
 * next_page_token where the answer offers it), and the kept results over MCP. Activity pages scan one day
 * each and may be empty while more follow
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/activities), so
 * caps fall on empty pages, on cut pages and on the last one. Generated: the activity type ids (up to the
 * 10 Marketo allows), the start (1 hour to 20 days ago), the page size (batchSize), a filter by list or by
 * lead ids or none, paginate, max_pages, max_items and the kept result's size. A failure prints the shrunk
 * request.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { checkReads, type Plan, planOf, sameRecords } from "../../../helpers/marketo-read-properties.js";
import { type ReadSandbox, startReadSandbox } from "../../../helpers/marketo-reads.js";

const HOUR_MS = 3_600_000;
/** The clock the starts are counted back from: the sandbox's activities end at its start. */
const NOW = Date.now();

/** The sandbox's activity types that hold activities (3, Click Link, holds none: an empty read is a case too). */
const TYPES = [1, 2, 3, 6, 7, 8, 10, 11, 12, 13, 27];

/** No filter (most runs), or one list's members (1007: 12 leads, 1002: 310), or up to 30 lead ids. */
const filter = fc.oneof(
  { arbitrary: fc.constant({}), weight: 6 },
  { arbitrary: fc.record({ listId: fc.constantFrom(1007, 1002) }), weight: 1 },
  {
    arbitrary: fc.record({
      leadIds: fc.uniqueArray(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 30 }).map(String),
    }),
    weight: 1,
  },
);

/**
 * The read itself, one of three kinds, each a few dozen calls at most: small pages (1 to 20) over at most 3
 * days; pages of 50 or more over 2 to 20 days of a busy type and others, where a day's page holds dozens of
 * records and caps and the output cap fall inside pages; or rare types (bounces, clicks, a few a week) over
 * 2 to 20 days, where most days' pages are empty with records after them.
 */
const read = fc.oneof(
  {
    arbitrary: fc.record({
      activityTypeIds: fc.subarray(TYPES, { minLength: 1, maxLength: 10 }).map(String),
      sinceDatetime: since(1, 3 * 24),
      batchSize: fc.integer({ min: 1, max: 20 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      // One of the busy types (web visits, email sends and deliveries: about 20 a day each), and others.
      activityTypeIds: fc
        .tuple(fc.constantFrom(1, 6, 7), fc.subarray(TYPES, { maxLength: 9 }))
        .map(([busy, others]) => String([...new Set([busy, ...others])].slice(0, 10))),
      sinceDatetime: since(2 * 24, 20 * 24),
      batchSize: fc.integer({ min: 50, max: 300 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      activityTypeIds: fc.subarray([8, 11, 12, 27], { minLength: 1 }).map(String),
      sinceDatetime: since(2 * 24, 20 * 24),
      batchSize: fc.integer({ min: 1, max: 300 }),
    }),
    weight: 2,
  },
);

const query = fc.tuple(read, filter).map(([base, only]) => ({ ...base, ...only }));

/** A start between `min` and `max` hours before the sandbox's clock, as Marketo's ISO 8601 text. */
function since(min: number, max: number): fc.Arbitrary<string> {
  return fc.integer({ min, max }).map(hoursAgo);
}

function hoursAgo(hours: number): string {
  return new Date(NOW - hours * HOUR_MS).toISOString();
}

/**
 * Two plans that reach every path: the busy types over 10 days read in answers the output cap cuts inside
 * pages, kept 100 KB at a time (a read of about 190 KB); and bounces over 20 days, most days empty.
 */
const EXAMPLES: Plan[] = [
  {
    request: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "1,6,7", sinceDatetime: hoursAgo(10 * 24), batchSize: 300 },
      paginate: true,
      max_pages: 30,
      max_items: 1_500,
    },
    kept_bytes: 100_000,
    continue_with: "next_page_token",
    cursor_beside_kept: true,
  },
  {
    request: {
      method: "GET",
      endpoint: "/rest/v1/activities.json",
      query_parameters: { activityTypeIds: "8,27", sinceDatetime: hoursAgo(20 * 24), batchSize: 300 },
      paginate: false,
    },
    kept_bytes: 100_000,
    continue_with: "next_page_token",
    cursor_beside_kept: true,
  },
];

describe("Marketo activities: by cursor, from the kept result and whole, the same records", () => {
  let sandbox: ReadSandbox;
  beforeAll(async () => {
    sandbox = await startReadSandbox();
  });
  afterAll(async () => sandbox?.close());

  it("/rest/v1/activities.json from sinceDatetime, by type, list or leads", async () => {
    await checkReads(
      planOf("/rest/v1/activities.json", query, { least: 40, maxPages: 30 }),
      (plan, stats) => sameRecords(sandbox, plan, stats),
      {
        numRuns: 12,
        paths: ["withinPage", "outputCapped", "byToken", "keptStopped", "emptyPages"],
        examples: EXAMPLES,
      },
    );
  }, 150_000);
});
