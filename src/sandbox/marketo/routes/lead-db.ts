/** Lead Database routes (`/rest/v1/...`), real paths from Adobe's Lead DB Swagger (mapi.swagger.json). */

import { getErrors, getErrorsLast7Days, getUsage, getUsageLast7Days } from "../access/usage.js";
import {
  getActivities,
  getActivityTypes,
  getDeletedLeads,
  getLeadChanges,
  getPagingToken,
} from "../activities/read.js";
import {
  deleteCustomObjects,
  describeCustomObject,
  listCustomObjects,
  queryCustomObjects,
  syncCustomObjects,
} from "../custom-objects/rest.js";
import { deleteLeads } from "../lead-db/delete.js";
import { describeLeads, describeLeads2, getLeadById, getLeadsByFilter } from "../lead-db/leads.js";
import {
  changeLeadProgramStatus,
  deleteProgramMembers,
  getListMembership,
  getProgramMembership,
  getSmartCampaignMembership,
} from "../lead-db/memberships.js";
import { associateLead, getLeadPartitions, mergeLeads, updateLeadPartitions } from "../lead-db/merge.js";
import { pushLeads } from "../lead-db/push.js";
import { syncLeads } from "../lead-db/sync.js";
import {
  addToList,
  getListById,
  getListMembers,
  getLists,
  isMember,
  removeFromList,
} from "../lists/lists.js";
import { getCampaignById, getCampaigns, scheduleCampaign, triggerCampaign } from "../programs/campaigns.js";
import { syncProgramMemberData } from "../programs/member-data.js";
import { changeProgramMemberStatus } from "../programs/member-status.js";
import { describeProgramMembers, getLeadsByProgram, getProgramMembers } from "../programs/members.js";
import type { Route } from "../types.js";
import { r } from "./table.js";

export const LEAD_DB_ROUTES: readonly Route[] = [
  r("GET", "/rest/v1/leads.json", getLeadsByFilter),
  r("POST", "/rest/v1/leads.json", syncLeads),
  r("DELETE", "/rest/v1/leads.json", deleteLeads),
  r("POST", "/rest/v1/leads/delete.json", deleteLeads),
  r("POST", "/rest/v1/leads/push.json", pushLeads),
  r("GET", "/rest/v1/leads/describe.json", describeLeads),
  r("GET", "/rest/v1/leads/describe2.json", describeLeads2),
  r("GET", "/rest/v1/lead/{id}.json", getLeadById),
  r("POST", "/rest/v1/leads/{id}/merge.json", mergeLeads),
  r("POST", "/rest/v1/leads/{id}/associate.json", associateLead),
  r("GET", "/rest/v1/leads/partitions.json", getLeadPartitions),
  r("POST", "/rest/v1/leads/partitions.json", updateLeadPartitions),
  r("GET", "/rest/v1/leads/programs/{id}.json", getLeadsByProgram),
  r("POST", "/rest/v1/leads/programs/{id}/status.json", changeLeadProgramStatus),
  r("GET", "/rest/v1/leads/{id}/listMembership.json", getListMembership),
  r("GET", "/rest/v1/leads/{id}/programMembership.json", getProgramMembership),
  r("GET", "/rest/v1/leads/{id}/smartCampaignMembership.json", getSmartCampaignMembership),
  r("GET", "/rest/v1/programs/{id}/members.json", getProgramMembers),
  r("POST", "/rest/v1/programs/{id}/members.json", syncProgramMemberData),
  r("GET", "/rest/v1/programs/members/describe.json", describeProgramMembers),
  // The Swagger lists Describe Program Member under both spellings (describeProgramMemberUsingGET/GET2).
  r("GET", "/rest/v1/program/members/describe.json", describeProgramMembers),
  r("POST", "/rest/v1/programs/{id}/members/status.json", changeProgramMemberStatus),
  r("POST", "/rest/v1/programs/{id}/members/delete.json", deleteProgramMembers),
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
  r("GET", "/rest/v1/customobjects.json", listCustomObjects),
  r("GET", "/rest/v1/customobjects/{apiName}/describe.json", describeCustomObject),
  r("GET", "/rest/v1/customobjects/{apiName}.json", queryCustomObjects),
  r("POST", "/rest/v1/customobjects/{apiName}.json", syncCustomObjects),
  r("POST", "/rest/v1/customobjects/{apiName}/delete.json", deleteCustomObjects),
  r("GET", "/rest/v1/stats/usage.json", getUsage),
  r("GET", "/rest/v1/stats/usage/last7days.json", getUsageLast7Days),
  r("GET", "/rest/v1/stats/errors.json", getErrors),
  r("GET", "/rest/v1/stats/errors/last7days.json", getErrorsLast7Days),
];
