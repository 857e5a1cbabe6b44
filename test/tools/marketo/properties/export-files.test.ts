/**
 * A bulk export run to completion (`run_to_completion`: create, enqueue, poll, read the file) holds the
 * rows of its file, in order, once each, read two ways (issue 25, §3): answer after answer by next_cursor
 * (the first answer shows the file's first rows, then GET …/file.json with the cursor, `max_items` rows at
 * most per answer, the 45 KB output cap cutting wide rows), and from the kept results over MCP (the whole
 * file linked, or its first `kept_bytes`, then on from the `nextCursor` its pages carry). The truth is the
 * file downloaded whole and parsed. The connector reads the file in Range chunks of 64 KB and more, so rows
 * cross chunk boundaries, and activity rows carry JSON attributes that CSV quotes. Generated: the export
 * (leads of a static list or created in a window of up to 31 days, with some of 16 fields; activities
 * created in such a window, of some types), max_items and the kept result's size. A failure prints the
 * shrunk request.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkReads } from "../../../helpers/marketo-read-properties.js";
import {
  addStats,
  once,
  type ReadInput,
  type ReadSandbox,
  type ReadStats,
  type RecordKey,
  readByCursor,
  readKept,
  startReadSandbox,
} from "../../../helpers/marketo-reads.js";

const DAY_MS = 86_400_000;
const NOW = Date.now();
const LEAD_FIELDS = [
  "email",
  "firstName",
  "lastName",
  "company",
  "title",
  "country",
  "city",
  "phone",
  "industry",
  "leadSource",
  "leadStatus",
  "leadScore",
  "customerTier",
  "productInterest",
  "createdAt",
  "updatedAt",
];

interface ExportPlan {
  request: ReadInput;
  kept_bytes: number;
  /** Whether the answers read by cursor come from a call that keeps whole results (as MCP's) or not. */
  cursor_beside_kept: boolean;
  /** The column that names a row (a lead's id, an activity's marketoGUID). */
  key: "id" | "marketoGUID";
}

/** createdAt from `daysAgo` days before the clock, `days` long (at most 31, Marketo's limit). */
function window(daysAgo: fc.Arbitrary<number>, days: fc.Arbitrary<number>) {
  return fc.record({ daysAgo, days }).map(({ daysAgo, days }) => ({
    startAt: new Date(NOW - daysAgo * DAY_MS).toISOString(),
    endAt: new Date(NOW - (daysAgo - days) * DAY_MS).toISOString(),
  }));
}

/**
 * Leads: mostly a large static list (1001: 1,250 leads, 1006: 600, 1002: 310), else any list (1010 is
 * empty) or a creation window over the sandbox's three years (a few dozen leads); id and some fields.
 */
const leadsExport = fc.record({
  fields: fc.subarray(LEAD_FIELDS).map((fields) => ["id", ...fields]),
  format: fc.constant("CSV"),
  filter: fc.oneof(
    { arbitrary: fc.record({ staticListId: fc.constantFrom(1001, 1006, 1002) }), weight: 2 },
    { arbitrary: fc.record({ staticListId: fc.integer({ min: 1001, max: 1010 }) }), weight: 1 },
    {
      arbitrary: fc.record({
        createdAt: window(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 31 })),
      }),
      weight: 1,
    },
  ),
});

/** Activities of 3 to 12 days within the last 40 (the sandbox holds 60), of some types or all: up to a thousand rows. */
const activitiesExport = fc.record(
  {
    format: fc.constant("CSV"),
    filter: fc.record(
      {
        createdAt: window(fc.integer({ min: 14, max: 40 }), fc.integer({ min: 3, max: 12 })),
        activityTypeIds: fc.subarray([1, 2, 6, 7, 8, 10, 11, 12, 13, 27], { minLength: 1 }),
      },
      { requiredKeys: ["createdAt"] },
    ),
  },
  { requiredKeys: ["format", "filter"] },
);

/** Rows per answer: at least 100, so that a file of a thousand rows takes ten answers at most. */
const planOf = (endpoint: string, body: fc.Arbitrary<Record<string, unknown>>, key: ExportPlan["key"]) =>
  fc.record({
    request: fc.record({
      method: fc.constant("POST" as const),
      endpoint: fc.constant(endpoint),
      body,
      run_to_completion: fc.constant(true),
      max_items: fc.integer({ min: 100, max: 2_000 }),
    }),
    kept_bytes: fc.integer({ min: 20_000, max: 200_000 }),
    cursor_beside_kept: fc.boolean(),
    key: fc.constant(key),
  });

const exportPlan = fc.oneof(
  planOf("/bulk/v1/leads/export/create.json", leadsExport, "id"),
  planOf("/bulk/v1/activities/export/create.json", activitiesExport, "marketoGUID"),
);

/**
 * A plan that reaches every path: list 1006's 600 leads with every field, kept 60 KB at a time, and read by
 * the cursors of answers the output cap cut beside their kept results.
 */
const EXAMPLE: ExportPlan = {
  request: {
    method: "POST",
    endpoint: "/bulk/v1/leads/export/create.json",
    body: { fields: ["id", ...LEAD_FIELDS], format: "CSV", filter: { staticListId: 1006 } },
    run_to_completion: true,
    max_items: 2_000,
  },
  kept_bytes: 60_000,
  cursor_beside_kept: true,
  key: "id",
};

describe("Marketo bulk export files: by cursor, from the kept result and whole, the same rows", () => {
  let sandbox: ReadSandbox;
  beforeAll(async () => {
    sandbox = await startReadSandbox();
  });
  afterAll(async () => sandbox?.close());

  /** Each read creates its own job; its rows equal its own file's, downloaded whole. */
  async function sameRows(plan: ExportPlan, stats: ReadStats): Promise<void> {
    const key: RecordKey = (row) => row[plan.key];
    const byCursor = await readByCursor(sandbox.workspace(), plan.request, {
      key,
      keptBytes: plan.cursor_beside_kept ? plan.kept_bytes : undefined,
    });
    const kept = await readKept(sandbox.workspace(plan.kept_bytes), plan.request, key);
    for (const [how, read] of [
      ["read by cursor", byCursor],
      ["read from the kept results", kept],
    ] as const) {
      if (read.file === undefined) throw new Error(`${how}: the answer names no file`);
      const truth = once(await sandbox.fileTruth(read.file), `the file ${read.file}`, key);
      expect(read.records, how).toEqual(truth);
      addStats(stats, read.stats);
    }
  }

  it("leads and activities exports (/bulk/v1/{leads|activities}/export/create.json)", async () => {
    await checkReads(exportPlan, sameRows, {
      numRuns: 6,
      paths: ["withinPage", "outputCapped", "keptStopped"],
      examples: [EXAMPLE],
    });
  }, 150_000);
});
