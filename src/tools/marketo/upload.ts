/**
 * A bulk import's file, given as text in the step's input: checked before any call, then sent by the
 * connector as the `file` part of a multipart/form-data body. The import endpoints are Adobe's three
 * (Swagger importLeadUsingPOST, importProgramMemberUsingPOST, importCustomObjectUsingPOST), and the
 * part's name and media type follow the `format` parameter (csv, tsv or ssv;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-lead-import).
 */
import type { MarketoUpload } from "../../connectors/marketo/types.js";
import { ValidationError } from "../../errors.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";

const IMPORT_ENDPOINT =
  /^\/bulk\/v1\/(?:leads|program\/[^/]+\/members\/import|customobjects\/[^/]+\/import)\.json$/;

const MEDIA: Record<string, string> = {
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  ssv: "text/plain",
};

/** The upload the input asks for, or undefined; a file with another method or endpoint is refused. */
export function uploadOf(input: MarketoApiCallInput, path: string): MarketoUpload | undefined {
  if (input.file === undefined) return undefined;
  if (input.method !== "POST" || !IMPORT_ENDPOINT.test(path)) {
    throw new ValidationError(
      "file",
      `a file is sent only with POST to a bulk import endpoint, not ${input.method} ${path}.`,
      {
        hint: 'POST it to /bulk/v1/leads.json with query_parameters {"format":"csv"} (or to a program member or custom object import).',
      },
    );
  }
  if (input.body !== undefined) {
    throw new ValidationError(
      "file",
      "a file is the request's only body: remove body and give its parameters in query_parameters.",
    );
  }
  const format = String(input.query_parameters?.format ?? "csv").toLowerCase();
  return { name: `import.${format}`, content: input.file, contentType: MEDIA[format] ?? "text/plain" };
}
