import { UpstreamError } from "../../errors.js";
import type { Redactor } from "../../redact.js";
import type { HttpResponse } from "./http.js";
import type { HttpPlan } from "./url.js";

/**
 * Bulk files, answered as CSV/TSV/SSV and not as an envelope: extract downloads
 * (/bulk/v1/{leads|activities|program/members|customobjects/x}/export/{id}/file.json) and the failures
 * and warnings files of an import (/bulk/v1/leads/batch/{id}/…, /bulk/v1/{program/members|customobjects/x}/import/{id}/…;
 * Swagger getImportLeadFailuresUsingGET & co. answer ObservableOfInputStreamContent).
 */
export const BULK_FILE =
  /^\/bulk\/v1\/(?:.+\/export\/[^/]+\/file|leads\/batch\/[^/]+\/(?:failures|warnings)|.+\/import\/[^/]+\/(?:failures|warnings))\.json$/;

/** An import's failures or warnings file (as opposed to an extract's file). */
export const IMPORT_FILE = /\/(?:failures|warnings)\.json$/;

const BULK_IMPORT_DOC =
  "https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-import";

export const BULK_EXTRACT_DOC =
  "https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract";

/** One piece of an export file, as a Range request returned it (or the whole file, on a plain 200). */
export interface FileChunk {
  bytes: Uint8Array;
  /** Byte offset of the first byte in the file. */
  start: number;
  /** Size of the whole file, when the answer said it (Content-Range, or a 200's own length). */
  total: number | undefined;
  contentType: string;
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

/**
 * A file download's answer. The file endpoint is not a Marketo envelope: it sends the content (206
 * with Content-Range for a `Range: bytes=…` request, 200 without one), or 404 with a plain-text
 * message while the job is unknown or not Completed, "unlike most other Marketo REST endpoints"
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-extract#retrieving-your-data).
 */
export function interpretFile(
  plan: HttpPlan,
  response: HttpResponse,
  redactor: Redactor,
): { type: "file"; chunk: FileChunk } {
  const { status } = response;
  const base = { path: plan.path, status };
  if ((status === 200 || status === 206) && response.bytes) {
    const bytes = response.bytes;
    const contentType = redactor.text(response.contentType);
    if (status === 200) return { type: "file", chunk: { bytes, start: 0, total: bytes.length, contentType } };
    const range = CONTENT_RANGE.exec(response.contentRange?.trim() ?? "");
    if (!range) {
      throw new UpstreamError(`Marketo answered ${plan.path} with HTTP 206 and no usable Content-Range.`, {
        hint: "Retry later; if it persists, read the export in one piece with a bulk export client.",
        details: base,
      });
    }
    const total = range[3] === "*" ? undefined : Number(range[3]);
    return { type: "file", chunk: { bytes, start: Number(range[1]), total, contentType } };
  }
  // Marketo's plain-text message (e.g. "Export … is Processing, not Completed"), redacted and cut short.
  const said = redactor.text(response.text.replace(/\s+/g, " ").trim()).slice(0, 200);
  if (status === 404 && IMPORT_FILE.test(plan.path)) {
    throw new UpstreamError(`Marketo has no file for ${plan.path} (HTTP 404${said ? `: ${said}` : ""}).`, {
      hint:
        "An import's failures and warnings files exist once its batch is Complete: poll the batch's status " +
        `(${plan.path.replace(IMPORT_FILE, ".json").replace(/\/import\/([^/]+)\.json$/, "/import/$1/status.json")}) and check the batch id; see ${BULK_IMPORT_DOC}.`,
      details: base,
    });
  }
  if (status === 404) {
    throw new UpstreamError(`Marketo has no file for ${plan.path} (HTTP 404${said ? `: ${said}` : ""}).`, {
      hint:
        "A file exists only once the export job is Completed: read …/export/{exportId}/status.json; while it says " +
        "Created, enqueue the job (POST …/export/{exportId}/enqueue.json), then poll the status until Completed " +
        "(Marketo updates it at most once a minute). Check the exportId too: files are kept for seven days.",
      details: base,
    });
  }
  if (status === 416) {
    throw new UpstreamError(`Marketo refused the byte range asked of ${plan.path} (HTTP 416).`, {
      hint: "The cursor points past the end of this export's file: start again without a cursor.",
      status,
      details: { path: plan.path },
    });
  }
  throw new UpstreamError(
    `Marketo answered ${plan.path} with HTTP ${status}${said ? ` (${said})` : ""} instead of the file.`,
    { hint: `See ${BULK_EXTRACT_DOC}, check the exportId, and retry later.`, details: base },
  );
}
