/**
 * `previous`, `next`, `per` and `lead_fields` on an export run to completion: agents read activities over long spans by export (trial
 * s29: N398, N406 read 213,000 and 666,000 characters of export files back to pair opens with deliveries and
 * leads with their first open). The export runs as it would without them (its rows kept for reuse, export-reuse.ts),
 * then its rows are paired in time order (activity-pairs.ts), all of them, max_items keeps the first, those are joined to
 * their leads (lead-join.ts), and where, per, count_by, order_by, sum and limit run over them in memory (joined-answer.ts). A run the deadline or a cancel cut answers as an export does (the
 * same call again continues it); previous, next and per then wait for the whole.
 */

import type { MarketoConnector } from "../../connectors/marketo/connector.js";
import type { OnWait } from "../../connectors/marketo/types.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { isPlainObject } from "../input/schema-walk.js";
import { n, plural } from "../numbers-in-words.js";
import { type ComputeSpec, RecordCompute } from "../records/compute.js";
import type { PerGroups } from "../records/per.js";
import type { ToolContext } from "../types.js";
import { activityPairs } from "./activity-pairs.js";
import { activityTypes, typeIds } from "./activity-types.js";
import { reusedAgo } from "./export-reused.js";
import { type ExportSink, runExport } from "./export-run.js";
import type { NameReader } from "./id-names.js";
import { computedJoined } from "./joined-answer.js";
import { type LeadJoin, leadFreeTest } from "./lead-join.js";
import type { ReadAnswer } from "./read-calls.js";

export interface ExportThen {
  marketo: MarketoConnector;
  ctx: ToolContext;
  onWait: OnWait;
  spec: ComputeSpec | undefined;
  per: PerGroups | undefined;
  /** The part of the spec per's first pass tests (where). */
  first: ComputeSpec;
  /** With `lead_fields`: each row gets its lead's fields (lead-join.ts). */
  leads: LeadJoin | undefined;
}

export async function exportThen(input: MarketoApiCallInput, o: ExportThen): Promise<ReadAnswer> {
  const { marketo, ctx, onWait } = o;
  const {
    where: _w,
    order_by: _o,
    count_by: _c,
    min_count: _m,
    count_by_ignore_case: _i,
    count_distinct: _d,
    sum: _s,
    limit: _l,
    previous: _p,
    next: _nx,
    per: _per,
    lead_fields: _lf,
    // The whole export is read, then its first max_items rows kept (review s33, 2): a read cut by it left no rows.
    max_items: _mi,
    ...plain
  } = input;
  const sink: ExportSink = {};
  // A field Marketo has not is refused before the export's job runs, not after (review s33, 14).
  await o.leads?.check();
  const run = await runExport(plain, marketo, ctx, onWait, new RecordCompute({}), sink);
  if (!sink.rows) {
    // The plain run's figures are of no where, per or count_by: not given as if they were (review s37, 2).
    const { computed: _none, ...data } = run.data;
    return { ...run, data, summary: `${run.summary} ${WAIT}.` };
  }
  // Copies: the kept rows serve a later call as they are. Paired over every row, then max_items keeps the first,
  // as on the plain export (review s33, 2; s35, 2: a kept row's next may be among the rows after the cut).
  const reader = { marketo, signal: ctx.signal, onWait };
  const all = sink.rows.map((row) => ({ ...row }));
  const pairs = await pairRows(input, reader, all);
  const rows = all.slice(0, input.max_items ?? Number.POSITIVE_INFINITY);
  const itemsCut = rows.length < all.length;
  // A kept export's rows answered: said, since they may be minutes old (review s33, 6).
  let paired =
    sink.reusedFinishedAt === undefined
      ? ""
      : ` (the rows of the same export run ${reusedAgo(sink.reusedFinishedAt)} ago, reused: no export ran now)`;
  if (o.leads) {
    await o.leads.join(rows, leadFreeTest(o.first));
    paired += `; ${o.leads.words()}`;
  }
  // The pairs' counts are of every row paired, not of the first rows kept (review s36, 2).
  paired +=
    pairs && itemsCut
      ? `${pairs} (counted over all ${n(all.length)} rows of the export, before max_items)`
      : pairs;
  const calls = run.data.calls_used + (o.leads?.calls ?? 0);
  const kept = itemsCut
    ? ` (max_items ${n(rows.length)} kept the first of the export's ${n(sink.rows.length)}; leave it out for all)`
    : "";
  const head = (spent: number) =>
    `POST ${input.endpoint} run to completion: ${plural(rows.length, "row")}${kept}, ${plural(spent, "call")}${paired}`;
  const base = {
    warnings: run.data.warnings,
    record_errors: [],
    pages: run.data.pages,
    calls_used: calls,
    request_ids: [...run.data.request_ids, ...(o.leads?.requestIds ?? [])],
  };
  const compute = new RecordCompute(o.per ? o.first : (o.spec ?? {}));
  const answer = await computedJoined(input, ctx, compute, rows, {
    head,
    base,
    cut: undefined,
    itemsCut,
    reader,
    per: o.per,
    unit: "row",
    // The export's rows, bounded by its file's bytes as it ran (export-join.ts): none is cut here.
    keepBytes: Number.POSITIVE_INFINITY,
    file: true,
  });
  // The export's own figures (exportId, file_endpoint) as its plain answer gives them (review s34, 10); rows left
  // out by max_items: not the whole export, as its plain answer says too (review s34, 1).
  const extra = run.data.extra ? { extra: run.data.extra } : {};
  return { ...answer, data: { ...answer.data, ...extra, ...(itemsCut ? { complete: false } : {}) } };
}

/** previous and next over the export's rows, in time order; their words ("" without them). */
async function pairRows(
  input: MarketoApiCallInput,
  reader: NameReader,
  rows: Record<string, unknown>[],
): Promise<string> {
  if (input.previous === undefined && input.next === undefined) return "";
  const filter = isPlainObject(input.body?.filter) ? input.body.filter : undefined;
  const given = filter?.activityTypeIds;
  const read = given === undefined ? undefined : await typeIds(given, reader, "body.filter.activityTypeIds");
  const types = read?.types ?? (await activityTypes(reader));
  const pairer = await activityPairs(input, { ids: read?.ids, types }, async (value, field) => {
    return (await typeIds(value, reader, field)).ids;
  });
  pairer?.pair(rows);
  return pairer ? `; ${pairer.words(true)}` : "";
}

/** An export stopped before its end (its run's summary says why): nothing of these is worked out yet. */
const WAIT =
  "Previous, next, per and lead_fields are worked out only over the whole export, and this one stopped before its end (said above): do what it says, then call again";

/** Whether an export run to completion is answered here. */
export const isExportThen = (input: MarketoApiCallInput): boolean =>
  input.run_to_completion &&
  (input.previous !== undefined ||
    input.next !== undefined ||
    input.per !== undefined ||
    input.lead_fields !== undefined);
