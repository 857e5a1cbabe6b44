/**
 * Leads and static list members read to the end three ways hold the same records, in the same order, once
 * each (issue 25, §3): the sandbox read whole by a plain loop (the truth), marketo_api_call answer after
 * answer by next_cursor (or Marketo's next_page_token where the answer offers it), and the kept results
 * over MCP (each answer's JSON resource link read page by page, then on from the `nextCursor` its pages
 * carry). Generated: the filter (ids, some unknown, or customer tiers), which list, the page size
 * (batchSize), the fields (narrow records, or wide ones that the 45 KB output cap cuts inside a page),
 * paginate, max_pages, max_items and the kept result's size. A failure prints the shrunk request.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  checkReads,
  type Path,
  type Plan,
  planOf,
  sameRecords,
} from "../../../helpers/marketo-read-properties.js";
import { type ReadSandbox, startReadSandbox } from "../../../helpers/marketo-reads.js";

/** About 15 lead fields: a page of 300 such records is twice the 45 KB an answer shows. */
const WIDE =
  "id,email,firstName,lastName,company,title,country,city,phone,industry,leadSource,leadStatus,leadScore,customerTier,productInterest";
const fields = fc.oneof(fc.constantFrom("id", "id,email,updatedAt"), fc.constant(WIDE));
const PATHS: Path[] = ["withinPage", "outputCapped", "byToken", "keptStopped"];

/**
 * Leads by filter: a few ids (some beyond the sandbox's 1,500 leads) with any page size, or up to 300 ids
 * or whole customer tiers (about 270 to 850 leads) with pages of 40 or more, so that a run stays a few
 * hundred calls.
 */
const leadsPlan = fc.oneof(
  planOf(
    "/rest/v1/leads.json",
    fc.record({
      filterType: fc.constant("id"),
      filterValues: fc
        .uniqueArray(fc.integer({ min: 1, max: 1_600 }), { minLength: 1, maxLength: 30 })
        .map(String),
      batchSize: fc.integer({ min: 1, max: 300 }),
      fields,
    }),
  ),
  planOf(
    "/rest/v1/leads.json",
    fc.record({
      filterType: fc.constantFrom("id", "customerTier"),
      filterValues: fc.constant(""),
      batchSize: fc.integer({ min: 40, max: 300 }),
      fields,
    }),
    { least: 40 },
  ).chain((plan) => {
    const query = plan.request.query_parameters ?? {};
    const values =
      query.filterType === "id"
        ? fc.uniqueArray(fc.integer({ min: 1, max: 1_600 }), { minLength: 31, maxLength: 300 }).map(String)
        : fc.subarray(["Gold", "Silver", "Bronze"], { minLength: 1 }).map(String);
    return values.map((filterValues) => ({
      ...plan,
      request: { ...plan.request, query_parameters: { ...query, filterValues } },
    }));
  }),
);

/**
 * A static list's members: lists 1007 (12 members), 1009 (5) and 1010 (empty) with any page size, lists
 * 1001 (1,250), 1002 to 1006 (80 to 600) with pages of 40 or more.
 */
const membersPlan = fc.oneof(
  fc
    .constantFrom(1007, 1009, 1010)
    .chain((list) =>
      planOf(
        `/rest/v1/lists/${list}/leads.json`,
        fc.record({ batchSize: fc.integer({ min: 1, max: 300 }), fields }),
      ),
    ),
  fc
    .integer({ min: 1001, max: 1006 })
    .chain((list) =>
      planOf(
        `/rest/v1/lists/${list}/leads.json`,
        fc.record({ batchSize: fc.integer({ min: 40, max: 300 }), fields }),
        { least: 40 },
      ),
    ),
);

/**
 * A plan that reaches every path: list 1001's 1,250 members, wide, read in answers the output cap cuts
 * inside pages and kept 100 KB at a time (a read of about 450 KB), and a short page-sized read by token.
 * Then reads without paginate: a wide page of 300 that the output cap cuts, kept whole with the cursor to
 * the pages after it, and pages that max_items cuts (it keeps the first records of a plain read's page too).
 */
const membersExamples: Plan[] = [
  {
    request: {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { batchSize: 300, fields: WIDE },
      paginate: true,
      max_pages: 6,
      max_items: 1_500,
    },
    kept_bytes: 100_000,
    continue_with: "next_page_token",
    cursor_beside_kept: true,
  },
  {
    request: {
      method: "GET",
      endpoint: "/rest/v1/lists/1002/leads.json",
      query_parameters: { batchSize: 100, fields: "id" },
      paginate: false,
    },
    kept_bytes: 100_000,
    continue_with: "next_page_token",
    cursor_beside_kept: true,
  },
  {
    request: {
      method: "GET",
      endpoint: "/rest/v1/lists/1001/leads.json",
      query_parameters: { batchSize: 300, fields: WIDE },
      paginate: false,
    },
    kept_bytes: 400_000,
    continue_with: "cursor",
    cursor_beside_kept: true,
  },
  {
    request: {
      method: "GET",
      endpoint: "/rest/v1/lists/1002/leads.json",
      query_parameters: { batchSize: 300, fields: "id,email,updatedAt" },
      paginate: false,
      max_items: 120,
    },
    kept_bytes: 100_000,
    continue_with: "next_page_token",
    cursor_beside_kept: false,
  },
];
const leadsExamples: Plan[] = membersExamples.map((plan) => ({
  ...plan,
  request: {
    ...plan.request,
    endpoint: "/rest/v1/leads.json",
    query_parameters: {
      ...plan.request.query_parameters,
      filterType: "customerTier",
      filterValues: "Gold,Silver",
    },
  },
}));

describe("Marketo leads and list members: by cursor, from the kept result and whole, the same records", () => {
  let sandbox: ReadSandbox;
  beforeAll(async () => {
    sandbox = await startReadSandbox();
  });
  afterAll(async () => sandbox?.close());

  it("leads by filter (/rest/v1/leads.json, filterType id or customerTier)", async () => {
    await checkReads(leadsPlan, (plan, stats) => sameRecords(sandbox, plan, stats), {
      numRuns: 12,
      paths: PATHS,
      examples: leadsExamples,
    });
  }, 120_000);

  it("a static list's members (/rest/v1/lists/{id}/leads.json)", async () => {
    await checkReads(membersPlan, (plan, stats) => sameRecords(sandbox, plan, stats), {
      numRuns: 12,
      paths: PATHS,
      examples: membersExamples,
    });
  }, 120_000);
});
