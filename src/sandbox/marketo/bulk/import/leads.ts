/**
 * Bulk lead import (Swagger importLeadUsingPOST, getImportLeadStatusUsingGET,
 * getImportLeadFailuresUsingGET, getImportLeadWarningsUsingGET;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-lead-import):
 * `POST /bulk/v1/leads.json` takes a multipart/form-data body with a `file` part and `format`
 * (csv, tsv or ssv: comma, tab or semicolon separated, per the docs), optional `lookupField`, `listId`
 * and `partitionName`, in the query (Swagger) or as form fields (the docs' cURL example). The answer is
 * the batch, Queued; its status moves Queued → Importing → Complete (queue.ts). The failures and
 * warnings files have the format of the import, with one column added for the reason.
 *
 * Inferred: 1002 for a missing format or file (the wording of bulk export's missing parameter), 1003
 * for an unknown format or a file without rows, 1013 for an unknown batch, and the failures/warnings
 * answers before completion (a plain-text 404, as the export file answers), the reason columns' names.
 */
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { fieldByName } from "../../lead-db/fields.js";
import { findList } from "../../lists/lists.js";
import { type ApiRequest, type Handler, type HandlerContext, MarketoApiError } from "../../types.js";
import { plain, rangedFile } from "../export/handlers.js";
import type { ImportBatch } from "../model.js";
import { advanceImports, batchJson, IMPORT_QUEUE_MAX } from "./queue.js";

const FORMATS = {
  csv: { delimiter: ",", contentType: "text/csv" },
  tsv: { delimiter: "\t", contentType: "text/tab-separated-values" },
  ssv: { delimiter: ";", contentType: "text/plain" },
} as const;

/** A parameter from the query or, failing that, from the form fields. */
export function param(req: ApiRequest, name: string): string | undefined {
  const value = req.params.get(name) ?? req.parts?.get(name);
  return value === undefined || value === null || value.trim() === "" ? undefined : value.trim();
}

export const missing = (name: string) =>
  new MarketoApiError("1002", `Missing value for the required parameter '${name}'`);

function parseFile(text: string, delimiter: string): { header: string[]; rows: string[][] } {
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch {
    throw new MarketoApiError("1003", "The file could not be read in the format given");
  }
  const [header, ...rows] = records;
  if (!header || rows.length === 0) throw new MarketoApiError("1003", "The file has no records");
  return { header: header.map((h) => h.trim()), rows };
}

/** The batch of this import type (`owns`: leads by default); 1013 otherwise (inferred). */
export function findBatch(
  ctx: HandlerContext,
  id: string | undefined,
  owns: (batch: ImportBatch) => boolean = (b) => b.target === undefined,
): ImportBatch {
  const batch = ctx.world.bulk.imports.find((b) => String(b.batchId) === id && owns(b));
  if (!batch) throw new MarketoApiError("1013", `Import batch '${id ?? ""}' not found`);
  return batch;
}

/** A new Queued batch from the request's format and file (the checks every import makes). */
export function newBatch(
  req: ApiRequest,
  ctx: HandlerContext,
  extra: Pick<ImportBatch, "lookupField" | "listId" | "target">,
): ImportBatch {
  const now = ctx.now();
  advanceImports(ctx.world, now);
  const formatName = param(req, "format")?.toLowerCase();
  if (!formatName) throw missing("format");
  const format = FORMATS[formatName as keyof typeof FORMATS];
  if (!format) throw new MarketoApiError("1003", `Invalid format '${formatName}': use csv, tsv or ssv`);
  const file = req.parts?.get("file");
  if (file === undefined || file.trim() === "") throw missing("file");
  const open = ctx.world.bulk.imports.filter((b) => b.status === "Queued" || b.status === "Importing");
  if (open.length >= IMPORT_QUEUE_MAX) throw new MarketoApiError("1016", "Too many imports");
  const { header, rows } = parseFile(file, format.delimiter);
  const batch: ImportBatch = {
    batchId: ctx.world.bulk.nextBatch++,
    status: "Queued",
    delimiter: format.delimiter,
    contentType: format.contentType,
    ...extra,
    header,
    rows,
    createdAt: now,
    imported: 0,
    failures: [],
    warnings: [],
  };
  ctx.world.bulk.imports.push(batch);
  return batch;
}

const createImport: Handler = (req, ctx) => {
  const lookupName = param(req, "lookupField") ?? "email";
  const lookup = fieldByName(ctx.world.fields, lookupName);
  if (!lookup) throw new MarketoApiError("1006", `Field '${lookupName}' not found`);
  const listParam = param(req, "listId");
  const list = listParam === undefined ? undefined : findList(ctx, listParam);
  const batch = newBatch(req, ctx, { lookupField: lookup.name, ...(list ? { listId: list.id } : {}) });
  return { result: [batchJson(batch)] };
};

const importStatus: Handler = (_req, ctx, [id]) => {
  advanceImports(ctx.world, ctx.now());
  return { result: [batchJson(findBatch(ctx, id))] };
};

/** The failures or warnings file of a Complete batch that `owns` names (its import type). */
export function reasonsFile(
  kind: "failures" | "warnings",
  owns: (batch: ImportBatch, params: string[]) => boolean = (b) => b.target === undefined,
): Handler {
  return (req, ctx, params) => {
    advanceImports(ctx.world, ctx.now());
    const id = params.at(-1);
    const batch = ctx.world.bulk.imports.find((b) => String(b.batchId) === id && owns(b, params));
    if (!batch) return plain(404, `Import batch ${id ?? ""} not found`);
    if (batch.status !== "Complete")
      return plain(404, `Import batch ${batch.batchId} is ${batch.status}, not Complete`);
    const reason = kind === "failures" ? "Import Failure Reason" : "Import Warning Reason";
    const file = Buffer.from(
      stringify([[...batch.header, reason], ...batch[kind]], { delimiter: batch.delimiter }),
      "utf8",
    );
    return rangedFile(req.range, file, {
      "Content-Type": `${batch.contentType};charset=UTF-8`,
      "Accept-Ranges": "bytes",
    });
  };
}

export const importHandlers = {
  create: createImport,
  status: importStatus,
  failures: reasonsFile("failures"),
  warnings: reasonsFile("warnings"),
};
