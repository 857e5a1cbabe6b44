/**
 * The route table: real paths from the official Swagger (paths.txt beside the spec). Anything not
 * listed is 610 "Requested resource not found"; a listed path with another method is 605.
 * Deliberately absent because they do not exist on the real service (REAL-API.md A8):
 * /rest/v1/activities/emailbounced.json, /emailopened.json, /rest/v1/programs.json,
 * /rest/asset/v1/program/{id}/stats.json, /rest/asset/v1/landingPage/{id}/stats.json.
 */
import { getActivities, getActivityTypes, getLeadChanges, getPagingToken } from "./activities.js";
import { getCampaignById, getCampaigns, scheduleCampaign, triggerCampaign } from "./campaigns.js";
import { approveDraft, getEmailById, getEmailByName, getEmailContent, getEmails } from "./emails.js";
import { describeLeads, getLeadById, getLeadsByFilter } from "./leads.js";
import { syncLeads } from "./leads-sync.js";
import { addToList, getListById, getListMembers, getLists, isMember, removeFromList } from "./lists.js";
import { getProgramById, getProgramByName, getPrograms } from "./programs.js";
import type { Handler, Route } from "./types.js";
import { getUsage, getUsageLast7Days } from "./usage.js";

const ID = "(\\d+)";
const r = (method: Route["method"], path: string, handler: Handler): Route => ({
  method,
  pattern: new RegExp(`^${path.replaceAll(".", "\\.").replaceAll("{id}", ID)}$`),
  handler,
});

export const ROUTES: readonly Route[] = [
  r("GET", "/rest/v1/leads.json", getLeadsByFilter),
  r("POST", "/rest/v1/leads.json", syncLeads),
  r("GET", "/rest/v1/leads/describe.json", describeLeads),
  r("GET", "/rest/v1/lead/{id}.json", getLeadById),
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
  r("GET", "/rest/v1/stats/usage.json", getUsage),
  r("GET", "/rest/v1/stats/usage/last7days.json", getUsageLast7Days),
  r("GET", "/rest/asset/v1/programs.json", getPrograms),
  r("GET", "/rest/asset/v1/program/{id}.json", getProgramById),
  r("GET", "/rest/asset/v1/program/byName.json", getProgramByName),
  r("GET", "/rest/asset/v1/emails.json", getEmails),
  r("GET", "/rest/asset/v1/email/{id}.json", getEmailById),
  r("GET", "/rest/asset/v1/email/byName.json", getEmailByName),
  r("GET", "/rest/asset/v1/email/{id}/content.json", getEmailContent),
  r("POST", "/rest/asset/v1/email/{id}/approveDraft.json", approveDraft),
];

export type RouteMatch =
  | { kind: "found"; route: Route; params: string[] }
  | { kind: "wrong-method" }
  | { kind: "not-found" };

export function matchRoute(method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { kind: "found", route, params: m.slice(1) };
    pathKnown = true;
  }
  return pathKnown ? { kind: "wrong-method" } : { kind: "not-found" };
}

export const isAssetPath = (path: string): boolean => path.startsWith("/rest/asset/");
