/**
 * The bulk extract model: export jobs and the queue they share
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract).
 */

export type BulkKind = "leads" | "activities";
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
    };

export interface BulkJob {
  exportId: string;
  kind: BulkKind;
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

/** The bulk extract queue, shared by every export type (ADE bulk-extract.md "Queue"). */
export interface BulkState {
  jobs: BulkJob[];
  /** How long a job stays Processing. */
  jobMs: number;
  /** Export bytes per Chicago day (default 500 MB). */
  dailyQuotaBytes: number;
  nextJob: number;
}
