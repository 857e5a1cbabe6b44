/**
 * Running bulk lead import batches: the FIFO queue (two batches import at once, ten at most queued
 * or importing) and what a batch does to the lead database when it completes: each row is an
 * "insert or update" on the lookup field (email by default; `id` means update only), as Sync Leads
 * does it, and rows it refuses go to the failures file with the reason
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-lead-import).
 *
 * Inferred where the docs are silent: a column that is no lead field is ignored and each row that gave
 * it a value gets a warning; an empty cell leaves the field as it is; a file whose header lacks the
 * lookup field (but for an insert-only id lookup) fails the batch; the wording of the messages
 * beyond the docs' one example ("Import completed with errors, 2 records imported (2 members), 1 failed").
 */
import { fieldByName } from "../../lead-db/fields.js";
import { syncOne } from "../../lead-db/sync.js";
import type { LeadField, World } from "../../types.js";
import type { ImportBatch } from "../model.js";
import { completeCustomObjects, completeProgramMembers } from "./targets.js";

/** "A maximum of two jobs are processed at the same time" (ADE bulk-lead-import.md). */
export const IMPORT_SLOTS = 2;
/** "A maximum of 10 jobs are allowed in the queue at any given time (including the two … processed)". */
export const IMPORT_QUEUE_MAX = 10;

/** Plays the import queue forward to `now`: batches finish `jobMs` after they start, in start order. */
export function advanceImports(world: World, now: number): void {
  const { imports, jobMs } = world.bulk;
  let freedAt = 0;
  for (;;) {
    const importing = imports.filter((b) => b.status === "Importing");
    const queued = imports.find((b) => b.status === "Queued");
    if (queued && importing.length < IMPORT_SLOTS) {
      queued.status = "Importing";
      queued.startedAt = Math.max(queued.createdAt, freedAt);
      continue;
    }
    const next = importing.sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0))[0];
    const due = next ? (next.startedAt ?? 0) + jobMs : Number.POSITIVE_INFINITY;
    if (!next || due > now) return;
    complete(world, next, due);
    freedAt = due;
  }
}

function complete(world: World, batch: ImportBatch, at: number): void {
  batch.finishedAt = at;
  const { target } = batch;
  if (target?.kind === "customObject") {
    completeCustomObjects(world, batch, target.apiName, at);
    return;
  }
  if (target?.kind === "programMember") {
    completeProgramMembers(world, batch, target, at);
    return;
  }
  const lookup = fieldByName(world.fields, batch.lookupField) as LeadField;
  const columns = batch.header.map((name) => fieldByName(world.fields, name));
  if (!columns.includes(lookup)) {
    batch.status = "Failed";
    batch.message = `Import failed: the file has no column for the lookup field '${lookup.name}'`;
    return;
  }
  const list = batch.listId === undefined ? undefined : world.lists.find((l) => l.id === batch.listId);
  const action = lookup.name === "id" ? "updateOnly" : "createOrUpdate";
  for (const row of batch.rows) {
    const record: Record<string, string> = {};
    const ignored: string[] = [];
    batch.header.forEach((name, i) => {
      const value = row[i] ?? "";
      if (value === "") return;
      const field = columns[i];
      if (field) record[field.name] = value;
      else ignored.push(name);
    });
    const outcome = syncOne(world, action, lookup, record, at);
    if (outcome.status === "skipped") {
      const reason = outcome.reasons.map((r) => r.message).join("; ");
      batch.failures.push([...row, reason]);
      continue;
    }
    batch.imported += 1;
    list?.members.add(outcome.id);
    if (ignored.length > 0) {
      batch.warnings.push([
        ...row,
        `Field${ignored.length > 1 ? "s" : ""} '${ignored.join("', '")}' not found`,
      ]);
    }
  }
  batch.status = "Complete";
  const members = list ? ` (${batch.imported} members)` : "";
  const imported = `${batch.imported} records imported${members}`;
  batch.message =
    batch.failures.length > 0
      ? `Import completed with errors, ${imported}, ${batch.failures.length} failed`
      : `Import succeeded, ${imported}`;
}

/** The batch as Get Import Lead Status answers it (Swagger ImportLeadResponse). */
export function batchJson(batch: ImportBatch): Record<string, unknown> {
  return {
    batchId: batch.batchId,
    importId: String(batch.batchId),
    status: batch.status,
    // Required by the Swagger (the docs' Queued example leaves it out): nothing is processed before completion.
    numOfLeadsProcessed: batch.imported,
    numOfRowsFailed: batch.failures.length,
    numOfRowsWithWarning: batch.warnings.length,
    ...(batch.message ? { message: batch.message } : {}),
  };
}
