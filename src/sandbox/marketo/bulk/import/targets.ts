/**
 * What a completed custom object or program member import batch writes.
 *
 * Custom objects (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-custom-object-import):
 * each row is an insert or update of one record by the type's dedupe field, linked to a lead.
 * Program members (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-program-member-import):
 * "The record operation is 'insert or update' only"; "All records must contain the email field, used for
 * deduplication purposes"; the lead is created or updated from the row's lead fields and added to the
 * program with the batch's programMemberStatus (which writes the status change activity).
 *
 * Inferred as for lead imports (queue.ts): a column that is no field is ignored with a warning per
 * row, an empty cell leaves the value as it is, a file without the dedupe column fails the batch, and
 * the messages' wording.
 */
import { syncRecord } from "../../custom-objects/rest.js";
import { fieldByName } from "../../lead-db/fields.js";
import { syncOne } from "../../lead-db/sync.js";
import { setMemberStatus } from "../../programs/member-status.js";
import type { LeadField, World } from "../../types.js";
import type { ImportBatch } from "../model.js";

const warnText = (ignored: string[]) =>
  `Field${ignored.length > 1 ? "s" : ""} '${ignored.join("', '")}' not found`;

function finish(batch: ImportBatch, members: boolean): void {
  batch.status = "Complete";
  const imported = `${batch.imported} records imported${members ? ` (${batch.imported} members)` : ""}`;
  batch.message =
    batch.failures.length > 0
      ? `Import completed with errors, ${imported}, ${batch.failures.length} failed`
      : `Import succeeded, ${imported}`;
}

export function completeCustomObjects(world: World, batch: ImportBatch, apiName: string, at: number): void {
  const type = world.customObjectTypes.find((t) => t.apiName === apiName);
  const key = type?.dedupeFields[0] ?? "";
  if (!type || !batch.header.includes(key)) {
    batch.status = "Failed";
    batch.message = `Import failed: the file has no column for the dedupe field '${key}'`;
    return;
  }
  for (const row of batch.rows) {
    const record: Record<string, string | number> = {};
    const ignored: string[] = [];
    batch.header.forEach((name, i) => {
      const value = row[i] ?? "";
      if (value === "") return;
      const field = type.fields.find((f) => f.name === name);
      if (!field) ignored.push(name);
      else record[name] = field.dataType === "integer" || field.dataType === "link" ? Number(value) : value;
    });
    const outcome = syncRecord(world, type, "createOrUpdate", key, record, at);
    if (outcome.status === "skipped") {
      batch.failures.push([...row, outcome.message]);
      continue;
    }
    batch.imported += 1;
    if (ignored.length > 0) batch.warnings.push([...row, warnText(ignored)]);
  }
  finish(batch, false);
}

export function completeProgramMembers(
  world: World,
  batch: ImportBatch,
  target: { programId: number; statusName: string },
  at: number,
): void {
  const email = fieldByName(world.fields, "email") as LeadField;
  const program = world.programs.find((p) => p.id === target.programId);
  const columns = batch.header.map((name) => fieldByName(world.fields, name));
  if (!program || !columns.includes(email)) {
    batch.status = "Failed";
    batch.message = "Import failed: the file has no column for the field 'email'";
    return;
  }
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
    const outcome = syncOne(world, "createOrUpdate", email, record, at);
    if (outcome.status === "skipped") {
      batch.failures.push([...row, outcome.reasons.map((r) => r.message).join("; ")]);
      continue;
    }
    setMemberStatus(world, program, outcome.id, target.statusName, at);
    batch.imported += 1;
    if (ignored.length > 0) batch.warnings.push([...row, warnText(ignored)]);
  }
  finish(batch, true);
}
