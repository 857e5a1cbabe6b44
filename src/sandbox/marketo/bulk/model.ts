/**
 * The bulk extract model: export jobs and the queue they share
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract).
 */

export type BulkKind = "leads" | "activities" | "programMembers" | "customObjects";
/** Marketo spells the state "Cancelled" on the wire (ADE bulk-extract.md examples; marketorestpython live test). */
export type BulkStatus = "Created" | "Queued" | "Processing" | "Completed" | "Cancelled" | "Failed";

/** What a bulk export job selects, resolved from its `filter` at create time. */
export type BulkSelection =
  | { kind: "leads"; by: "date"; field: "createdAt" | "updatedAt"; from: number; to: number }
  | { kind: "leads"; by: "list"; list: "static" | "smart"; id?: number; name?: string }
  | {
      kind: "activities";
      from: number;
      to: number;
      activityTypeIds?: number[];
      primaryAttributeValueIds?: number[];
      primaryAttributeValues?: string[];
    }
  | {
      kind: "programMembers";
      programIds: number[];
      /** Set by the `programIds` filter: the file then starts with a programId column. */
      many: boolean;
      isExhausted?: boolean;
      nurtureCadence?: string;
      statusNames?: string[];
      updatedAt?: { from: number; to: number };
    }
  | { kind: "customObjects"; by: "date"; from: number; to: number }
  | { kind: "customObjects"; by: "list"; list: "static" | "smart"; id?: number; name?: string };

export interface BulkJob {
  exportId: string;
  kind: BulkKind;
  /** The custom object type of a custom object export (the `{apiName}` of its paths). */
  apiName?: string;
  status: BulkStatus;
  format: "CSV" | "TSV" | "SSV";
  fields: string[];
  /** Column headers, after `columnHeaderNames`. */
  headers: string[];
  selection: BulkSelection;
  createdAt: number;
  queuedAt?: number;
  startedAt?: number;
  finishedAt?: number;
  errorMsg?: string;
  /**
   * Written when processing starts (the selection is a snapshot of that moment), served once Completed,
   * dropped seven days after the job finished (File Retention Period, ADE bulk-extract.md "Limits").
   */
  file?: Buffer;
  /** The file's facts, kept after the file expires: status stays available longer than the file. */
  fileSize?: number;
  fileChecksum?: string;
  numberOfRecords?: number;
}

/**
 * A bulk lead import batch (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-lead-import):
 * Queued, then Importing when one of the two import slots is free, then Complete (or Failed) `jobMs` later.
 */
export interface ImportBatch {
  batchId: number;
  /** What the batch imports: leads (absent), a custom object type's records, or a program's members. */
  target?:
    | { kind: "customObject"; apiName: string }
    | { kind: "programMember"; programId: number; statusName: string };
  status: "Queued" | "Importing" | "Complete" | "Failed";
  delimiter: string;
  contentType: string;
  lookupField: string;
  listId?: number;
  /** The file as sent: a header row and the records. */
  header: string[];
  rows: string[][];
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  imported: number;
  /** Failure and warning files: the rows as sent plus one column with the reason. */
  failures: string[][];
  warnings: string[][];
  message?: string;
}

/** The bulk extract queue, shared by every export type (ADE bulk-extract.md "Queue"), and the import batches. */
export interface BulkState {
  imports: ImportBatch[];
  nextBatch: number;
  jobs: BulkJob[];
  /** How long a job stays Processing. */
  jobMs: number;
  /** Export bytes per Chicago day (default 500 MB). */
  dailyQuotaBytes: number;
  nextJob: number;
}
