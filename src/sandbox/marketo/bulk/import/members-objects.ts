/**
 * Bulk custom object import and bulk program member import: create, status, failures and warnings
 * (Swagger importCustomObjectUsingPOST, getImportCustomObjectStatusUsingGET, …Failures…, …Warnings…;
 * importProgramMemberUsingPOST, getImportProgramMemberStatusUsingGET, …Failures…, …Warnings…), the
 * lead import's batches and queue (leads.ts, queue.ts) with their own targets.
 * A custom object batch is found under its `{apiName}` only; its status is Swagger
 * ImportCustomObjectResponse (objectApiName, operation "import", numOfObjectsProcessed). A program member
 * import needs `programMemberStatus`, a status of the program's channel
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-import/bulk-program-member-import).
 *
 * Inferred: 1013 for an unknown type, program or batch; 1002 for a missing programMemberStatus (the
 * wording of a missing parameter); 1003 for a status outside the channel.
 */
import { findType } from "../../custom-objects/rest.js";
import { findProgram } from "../../programs/members.js";
import { statusNamed } from "../../programs/seed.js";
import type { Handler } from "../../types.js";
import type { ImportBatch } from "../model.js";
import { findBatch, missing, newBatch, param, reasonsFile } from "./leads.js";
import { advanceImports, batchJson } from "./queue.js";

const ofType = (apiName: string | undefined) => (b: ImportBatch) =>
  b.target?.kind === "customObject" && b.target.apiName === apiName;
const ofMembers = (b: ImportBatch) => b.target?.kind === "programMember";

function customJson(batch: ImportBatch, apiName: string): Record<string, unknown> {
  return {
    batchId: batch.batchId,
    operation: "import",
    objectApiName: apiName,
    status: batch.status,
    numOfObjectsProcessed: batch.imported,
    numOfRowsFailed: batch.failures.length,
    numOfRowsWithWarning: batch.warnings.length,
    ...(batch.message ? { message: batch.message } : {}),
  };
}

const createCustom: Handler = (req, ctx, [apiName]) => {
  const type = findType(ctx.world, apiName);
  const batch = newBatch(req, ctx, {
    lookupField: type.dedupeFields[0] as string,
    target: { kind: "customObject", apiName: type.apiName },
  });
  return { result: [customJson(batch, type.apiName)] };
};

const customStatus: Handler = (_req, ctx, [apiName, id]) => {
  advanceImports(ctx.world, ctx.now());
  return { result: [customJson(findBatch(ctx, id, ofType(apiName)), apiName ?? "")] };
};

const createMembers: Handler = (req, ctx, [programId]) => {
  const program = findProgram(ctx, programId);
  const asked = param(req, "programMemberStatus");
  if (!asked) throw missing("programMemberStatus");
  const statusName = statusNamed(program, asked);
  const batch = newBatch(req, ctx, {
    lookupField: "email",
    target: { kind: "programMember", programId: program.id, statusName },
  });
  // The docs' create answer: {"batchId":1040,"importId":"1040","status":"Queued"}, no counts.
  return { result: [{ batchId: batch.batchId, importId: String(batch.batchId), status: batch.status }] };
};

const memberStatus: Handler = (_req, ctx, [id]) => {
  advanceImports(ctx.world, ctx.now());
  return { result: [batchJson(findBatch(ctx, id, ofMembers))] };
};

export const customImportHandlers = {
  create: createCustom,
  status: customStatus,
  failures: reasonsFile("failures", (b, [apiName]) => ofType(apiName)(b)),
  warnings: reasonsFile("warnings", (b, [apiName]) => ofType(apiName)(b)),
};

export const memberImportHandlers = {
  create: createMembers,
  status: memberStatus,
  failures: reasonsFile("failures", ofMembers),
  warnings: reasonsFile("warnings", ofMembers),
};
