/** Asset routes (`/rest/asset/v1/...`), real paths from Adobe's Asset Swagger (asset.swagger.json). */
import { activateSmartCampaign, deactivateSmartCampaign } from "../campaign-activation.js";
import { approveDraft, getEmailById, getEmailByName, getEmailContent, getEmails } from "../emails.js";
import { getFolderById, getFolderByName, getFolders } from "../folders.js";
import { getProgramById, getProgramByName, getPrograms } from "../programs.js";
import {
  getSmartCampaignById,
  getSmartCampaignByName,
  getSmartCampaigns,
  getSmartListById,
  getSmartListByName,
  getSmartLists,
} from "../smart-lists.js";
import {
  createStaticList,
  deleteStaticList,
  getStaticListById,
  getStaticListByName,
  getStaticLists,
} from "../static-lists.js";
import type { Route } from "../types.js";
import { r } from "./table.js";

export const ASSET_ROUTES: readonly Route[] = [
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
];
