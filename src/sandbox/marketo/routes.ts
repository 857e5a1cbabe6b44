/**
 * The route table: real paths from the official Swagger (paths.txt beside the spec). A real path the
 * sandbox does not serve is 610 with a message that says so (real-paths.generated.ts); any other path
 * is 610 "Requested resource not found"; a listed path with another method is 605.
 * Deliberately absent because they do not exist on the real service (REAL-API.md A8):
 * /rest/v1/activities/emailbounced.json, /emailopened.json, /rest/v1/programs.json,
 * /rest/asset/v1/program/{id}/stats.json, /rest/asset/v1/landingPage/{id}/stats.json.
 * `DELETE /rest/v1/leads.json` is not in the Swagger but real clients send it (marketorestpython
 * `delete_lead`, and GRP's recorded `POST leads.json?_method=DELETE`).
 */
import { findRealPath } from "../../real-paths.js";
import {
  getActivities,
  getActivityTypes,
  getDeletedLeads,
  getLeadChanges,
  getPagingToken,
} from "./activities.js";
import { bulkHandlers } from "./bulk/handlers.js";
import { importHandlers } from "./bulk/imports.js";
import { activateSmartCampaign, deactivateSmartCampaign } from "./campaign-activation.js";
import { getCampaignById, getCampaigns, scheduleCampaign, triggerCampaign } from "./campaigns.js";
import { approveDraft, getEmailById, getEmailByName, getEmailContent, getEmails } from "./emails.js";
import { getFolderById, getFolderByName, getFolders } from "./folders.js";
import { describeLeads, describeLeads2, getLeadById, getLeadsByFilter } from "./leads.js";
import { deleteLeads } from "./leads-delete.js";
import { syncLeads } from "./leads-sync.js";
import { addToList, getListById, getListMembers, getLists, isMember, removeFromList } from "./lists.js";
import { changeProgramMemberStatus } from "./program-member-status.js";
import { describeProgramMembers, getLeadsByProgram, getProgramMembers } from "./program-members.js";
import { getProgramById, getProgramByName, getPrograms } from "./programs.js";
import {
  getSmartCampaignById,
  getSmartCampaignByName,
  getSmartCampaigns,
  getSmartListById,
  getSmartListByName,
  getSmartLists,
} from "./smart-lists.js";
import {
  createStaticList,
  deleteStaticList,
  getStaticListById,
  getStaticListByName,
  getStaticLists,
} from "./static-lists.js";
import type { Handler, Route } from "./types.js";
import { getErrors, getErrorsLast7Days, getUsage, getUsageLast7Days } from "./usage.js";

const r = (method: Route["method"], path: string, handler: Handler): Route => ({
  method,
  template: path,
  pattern: new RegExp(
    `^${path.replaceAll(".", "\\.").replaceAll("{id}", "(\\d+)").replaceAll("{exportId}", "([^/]+)")}$`,
  ),
  handler,
});

/** A route whose body is multipart/form-data (bulk imports). */
const multipart = (route: Route): Route => ({ ...route, consumes: "multipart/form-data" });

const shape = (template: string) => template.replace(/\{[^}]+\}/g, "{}");

const bulkLeads = bulkHandlers("leads");
const bulkActivities = bulkHandlers("activities");
const bulkRoutes = (base: string, h: typeof bulkLeads): Route[] => [
  r("POST", `${base}/export/create.json`, h.create),
  r("POST", `${base}/export/{exportId}/enqueue.json`, h.enqueue),
  r("GET", `${base}/export/{exportId}/status.json`, h.status),
  r("POST", `${base}/export/{exportId}/cancel.json`, h.cancel),
  r("GET", `${base}/export/{exportId}/file.json`, h.file),
  r("GET", `${base}/export.json`, h.list),
];

export const ROUTES: readonly Route[] = [
  r("GET", "/rest/v1/leads.json", getLeadsByFilter),
  r("POST", "/rest/v1/leads.json", syncLeads),
  r("DELETE", "/rest/v1/leads.json", deleteLeads),
  r("POST", "/rest/v1/leads/delete.json", deleteLeads),
  r("GET", "/rest/v1/leads/describe.json", describeLeads),
  r("GET", "/rest/v1/leads/describe2.json", describeLeads2),
  r("GET", "/rest/v1/lead/{id}.json", getLeadById),
  r("GET", "/rest/v1/leads/programs/{id}.json", getLeadsByProgram),
  r("GET", "/rest/v1/programs/{id}/members.json", getProgramMembers),
  r("GET", "/rest/v1/programs/members/describe.json", describeProgramMembers),
  r("POST", "/rest/v1/programs/{id}/members/status.json", changeProgramMemberStatus),
  r("GET", "/rest/v1/lists.json", getLists),
  r("GET", "/rest/v1/lists/{id}.json", getListById),
  r("GET", "/rest/v1/lists/{id}/leads.json", getListMembers),
  r("POST", "/rest/v1/lists/{id}/leads.json", addToList),
  r("DELETE", "/rest/v1/lists/{id}/leads.json", removeFromList),
  r("GET", "/rest/v1/list/{id}/leads.json", getListMembers),
  r("GET", "/rest/v1/lists/{id}/leads/ismember.json", isMember),
  r("GET", "/rest/v1/campaigns.json", getCampaigns),
  r("GET", "/rest/v1/campaigns/{id}.json", getCampaignById),
  r("POST", "/rest/v1/campaigns/{id}/trigger.json", triggerCampaign),
  r("POST", "/rest/v1/campaigns/{id}/schedule.json", scheduleCampaign),
  r("GET", "/rest/v1/activities/types.json", getActivityTypes),
  r("GET", "/rest/v1/activities/pagingtoken.json", getPagingToken),
  r("GET", "/rest/v1/activities.json", getActivities),
  r("GET", "/rest/v1/activities/leadchanges.json", getLeadChanges),
  r("GET", "/rest/v1/activities/deletedleads.json", getDeletedLeads),
  r("GET", "/rest/v1/stats/usage.json", getUsage),
  r("GET", "/rest/v1/stats/usage/last7days.json", getUsageLast7Days),
  r("GET", "/rest/v1/stats/errors.json", getErrors),
  r("GET", "/rest/v1/stats/errors/last7days.json", getErrorsLast7Days),
  r("GET", "/rest/asset/v1/programs.json", getPrograms),
  r("GET", "/rest/asset/v1/program/{id}.json", getProgramById),
  r("GET", "/rest/asset/v1/program/byName.json", getProgramByName),
  r("GET", "/rest/asset/v1/emails.json", getEmails),
  r("GET", "/rest/asset/v1/email/{id}.json", getEmailById),
  r("GET", "/rest/asset/v1/email/byName.json", getEmailByName),
  r("GET", "/rest/asset/v1/email/{id}/content.json", getEmailContent),
  r("POST", "/rest/asset/v1/email/{id}/approveDraft.json", approveDraft),
  r("GET", "/rest/asset/v1/staticLists.json", getStaticLists),
  r("POST", "/rest/asset/v1/staticLists.json", createStaticList),
  r("GET", "/rest/asset/v1/staticList/{id}.json", getStaticListById),
  r("GET", "/rest/asset/v1/staticList/byName.json", getStaticListByName),
  r("POST", "/rest/asset/v1/staticList/{id}/delete.json", deleteStaticList),
  r("GET", "/rest/asset/v1/folders.json", getFolders),
  r("GET", "/rest/asset/v1/folder/byName.json", getFolderByName),
  r("GET", "/rest/asset/v1/folder/{id}.json", getFolderById),
  r("GET", "/rest/asset/v1/smartLists.json", getSmartLists),
  r("GET", "/rest/asset/v1/smartList/{id}.json", getSmartListById),
  r("GET", "/rest/asset/v1/smartList/byName.json", getSmartListByName),
  r("GET", "/rest/asset/v1/smartCampaigns.json", getSmartCampaigns),
  r("GET", "/rest/asset/v1/smartCampaign/{id}.json", getSmartCampaignById),
  r("GET", "/rest/asset/v1/smartCampaign/byName.json", getSmartCampaignByName),
  r("POST", "/rest/asset/v1/smartCampaign/{id}/activate.json", activateSmartCampaign),
  r("POST", "/rest/asset/v1/smartCampaign/{id}/deactivate.json", deactivateSmartCampaign),
  multipart(r("POST", "/bulk/v1/leads.json", importHandlers.create)),
  r("GET", "/bulk/v1/leads/batch/{id}.json", importHandlers.status),
  r("GET", "/bulk/v1/leads/batch/{id}/failures.json", importHandlers.failures),
  r("GET", "/bulk/v1/leads/batch/{id}/warnings.json", importHandlers.warnings),
  ...bulkRoutes("/bulk/v1/leads", bulkLeads),
  ...bulkRoutes("/bulk/v1/activities", bulkActivities),
];

export type RouteMatch =
  | { kind: "found"; route: Route; params: string[] }
  | { kind: "wrong-method" }
  | { kind: "bad-parameter"; template: string }
  | { kind: "not-emulated"; operation: string }
  | { kind: "not-found" };

/**
 * Routes by method and path. Without a route, Adobe's Swagger decides the answer: a real operation the
 * sandbox does not serve is "not emulated"; a served template whose id is not a number is a parameter
 * error; a real path asked with a method it does not serve is 605, as it is on the real service;
 * anything else is an unknown path.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { kind: "found", route, params: m.slice(1) };
    pathKnown = true;
  }
  const real = findRealPath("marketo", path);
  if (real?.methods.includes(method)) {
    const served = ROUTES.some(
      (route) => route.method === method && shape(route.template) === shape(real.template),
    );
    if (served) return { kind: "bad-parameter", template: real.template };
    return { kind: "not-emulated", operation: `${method} ${real.template}` };
  }
  return pathKnown || real ? { kind: "wrong-method" } : { kind: "not-found" };
}

export const isAssetPath = (path: string): boolean => path.startsWith("/rest/asset/");
