/** Bulk routes (`/bulk/v1/...`): exports (leads, activities, program members, custom objects) and imports, real paths from Adobe's Swagger. */
import { bulkHandlers } from "../bulk/export/handlers.js";
import { importHandlers } from "../bulk/import/leads.js";
import { customImportHandlers, memberImportHandlers } from "../bulk/import/members-objects.js";
import type { Route } from "../types.js";
import { multipart, r } from "./table.js";

const bulkLeads = bulkHandlers("leads");
const bulkActivities = bulkHandlers("activities");
const bulkMembers = bulkHandlers("programMembers");
const bulkCustom = bulkHandlers("customObjects");
const bulkRoutes = (base: string, h: typeof bulkLeads): Route[] => [
  r("POST", `${base}/export/create.json`, h.create),
  r("POST", `${base}/export/{exportId}/enqueue.json`, h.enqueue),
  r("GET", `${base}/export/{exportId}/status.json`, h.status),
  r("POST", `${base}/export/{exportId}/cancel.json`, h.cancel),
  r("GET", `${base}/export/{exportId}/file.json`, h.file),
  r("GET", `${base}/export.json`, h.list),
];

export const BULK_ROUTES: readonly Route[] = [
  multipart(r("POST", "/bulk/v1/leads.json", importHandlers.create)),
  r("GET", "/bulk/v1/leads/batch/{id}.json", importHandlers.status),
  r("GET", "/bulk/v1/leads/batch/{id}/failures.json", importHandlers.failures),
  r("GET", "/bulk/v1/leads/batch/{id}/warnings.json", importHandlers.warnings),
  multipart(r("POST", "/bulk/v1/customobjects/{apiName}/import.json", customImportHandlers.create)),
  r("GET", "/bulk/v1/customobjects/{apiName}/import/{id}/status.json", customImportHandlers.status),
  r("GET", "/bulk/v1/customobjects/{apiName}/import/{id}/failures.json", customImportHandlers.failures),
  r("GET", "/bulk/v1/customobjects/{apiName}/import/{id}/warnings.json", customImportHandlers.warnings),
  multipart(r("POST", "/bulk/v1/program/{id}/members/import.json", memberImportHandlers.create)),
  r("GET", "/bulk/v1/program/members/import/{id}/status.json", memberImportHandlers.status),
  r("GET", "/bulk/v1/program/members/import/{id}/failures.json", memberImportHandlers.failures),
  r("GET", "/bulk/v1/program/members/import/{id}/warnings.json", memberImportHandlers.warnings),
  ...bulkRoutes("/bulk/v1/leads", bulkLeads),
  ...bulkRoutes("/bulk/v1/activities", bulkActivities),
  ...bulkRoutes("/bulk/v1/program/members", bulkMembers),
  ...bulkRoutes("/bulk/v1/customobjects/{apiName}", bulkCustom),
];
