/** Asset routes (`/rest/asset/v1/...`), real paths from Adobe's Asset Swagger (asset.swagger.json). */

import {
  cloneEmailTemplate,
  createEmailTemplate,
  emailTemplates,
  getEmailTemplateContent,
  getEmailTemplates,
  getEmailTemplateUsedBy,
  updateEmailTemplate,
  updateEmailTemplateContent,
} from "../assets/email-templates.js";
import {
  getEmailCcFields,
  getEmailFullContent,
  getEmailVariables,
  sendSampleEmail,
  updateEmailVariable,
} from "../assets/emails/preview.js";
import { emails, getEmailByName, getEmailContent, getEmails } from "../assets/emails/read.js";
import {
  cloneEmail,
  createEmail,
  updateEmail,
  updateEmailContent,
  updateEmailSection,
} from "../assets/emails/write.js";
import { createFolder, deleteFolder, getFolderContent, updateFolder } from "../assets/folder-write.js";
import { getFolderById, getFolderByName, getFolders } from "../assets/folders.js";
import {
  cloneForm,
  createForm,
  forms,
  getAllFormFields,
  getFormFields,
  getForms,
  updateForm,
  updateFormSubmitButton,
} from "../assets/forms.js";
import {
  cloneLandingPage,
  createLandingPage,
  getLandingPageContent,
  getLandingPages,
  landingPages,
  updateLandingPage,
} from "../assets/landing-pages.js";
import {
  getChannelByName,
  getChannels,
  getSegmentations,
  getSegments,
  getTagTypeByName,
  getTagTypes,
} from "../assets/reference.js";
import {
  cloneSnippet,
  createSnippet,
  getSnippetContent,
  getSnippets,
  snippets,
  updateSnippet,
  updateSnippetContent,
} from "../assets/snippets.js";
import { deleteToken, getTokens, upsertToken } from "../assets/tokens.js";
import {
  getSmartCampaignById,
  getSmartCampaignByName,
  getSmartCampaigns,
  getSmartListByCampaignId,
  getSmartListById,
  getSmartListByName,
  getSmartLists,
} from "../lists/smart-lists.js";
import {
  createStaticList,
  deleteStaticList,
  getStaticListById,
  getStaticListByName,
  getStaticLists,
} from "../lists/static-lists.js";
import { activateSmartCampaign, deactivateSmartCampaign } from "../programs/campaign-activation.js";
import { getProgramById, getProgramByName, getPrograms } from "../programs/programs.js";
import {
  approveProgram,
  cloneProgram,
  createProgram,
  deleteProgram,
  getProgramsByTag,
  unapproveProgram,
  updateProgram,
} from "../programs/write.js";
import type { Route } from "../types.js";
import { multipart, r } from "./table.js";

const A = "/rest/asset/v1";

const PROGRAMS: readonly Route[] = [
  r("GET", `${A}/programs.json`, getPrograms),
  r("POST", `${A}/programs.json`, createProgram),
  r("GET", `${A}/program/{id}.json`, getProgramById),
  r("POST", `${A}/program/{id}.json`, updateProgram),
  r("GET", `${A}/program/byName.json`, getProgramByName),
  r("GET", `${A}/program/byTag.json`, getProgramsByTag),
  r("POST", `${A}/program/{id}/clone.json`, cloneProgram),
  r("POST", `${A}/program/{id}/delete.json`, deleteProgram),
  r("POST", `${A}/program/{id}/approve.json`, approveProgram),
  r("POST", `${A}/program/{id}/unapprove.json`, unapproveProgram),
];

const EMAILS: readonly Route[] = [
  r("GET", `${A}/emails.json`, getEmails),
  r("POST", `${A}/emails.json`, createEmail),
  r("GET", `${A}/email/{id}.json`, emails.byId),
  r("POST", `${A}/email/{id}.json`, updateEmail),
  r("GET", `${A}/email/byName.json`, getEmailByName),
  r("GET", `${A}/email/ccFields.json`, getEmailCcFields),
  r("GET", `${A}/email/{id}/content.json`, getEmailContent),
  r("POST", `${A}/email/{id}/content.json`, updateEmailContent),
  {
    // "rearrange" is a path of its own (rearrangeModulesUsingPOST), not a section id.
    ...r("POST", `${A}/email/{id}/content/{htmlId}.json`, updateEmailSection),
    pattern: /^\/rest\/asset\/v1\/email\/(\d+)\/content\/(?!rearrange\.json$)([^/]+)\.json$/,
  },
  r("GET", `${A}/email/{id}/fullContent.json`, getEmailFullContent),
  r("GET", `${A}/email/{id}/variables.json`, getEmailVariables),
  r("POST", `${A}/email/{id}/variable/{name}.json`, updateEmailVariable),
  r("POST", `${A}/email/{id}/approveDraft.json`, emails.approve),
  r("POST", `${A}/email/{id}/unapprove.json`, emails.unapprove),
  r("POST", `${A}/email/{id}/discardDraft.json`, emails.discardDraft),
  r("POST", `${A}/email/{id}/clone.json`, cloneEmail),
  r("POST", `${A}/email/{id}/delete.json`, emails.remove),
  r("POST", `${A}/email/{id}/sendSample.json`, sendSampleEmail),
];

const EMAIL_TEMPLATES: readonly Route[] = [
  r("GET", `${A}/emailTemplates.json`, getEmailTemplates),
  multipart(r("POST", `${A}/emailTemplates.json`, createEmailTemplate)),
  r("GET", `${A}/emailTemplate/{id}.json`, emailTemplates.byId),
  r("POST", `${A}/emailTemplate/{id}.json`, updateEmailTemplate),
  r("GET", `${A}/emailTemplate/byName.json`, emailTemplates.byName),
  // The real path has no ".json" (Swagger getTemplateContentByIdUsingGET).
  r("GET", `${A}/emailTemplate/{id}/content`, getEmailTemplateContent),
  multipart(r("POST", `${A}/emailTemplate/{id}/content.json`, updateEmailTemplateContent)),
  r("POST", `${A}/emailTemplate/{id}/approveDraft.json`, emailTemplates.approve),
  r("POST", `${A}/emailTemplate/{id}/unapprove.json`, emailTemplates.unapprove),
  r("POST", `${A}/emailTemplate/{id}/discardDraft.json`, emailTemplates.discardDraft),
  r("POST", `${A}/emailTemplate/{id}/clone.json`, cloneEmailTemplate),
  r("POST", `${A}/emailTemplate/{id}/delete.json`, emailTemplates.remove),
  r("GET", `${A}/emailTemplates/{id}/usedBy.json`, getEmailTemplateUsedBy),
];

const LANDING_PAGES: readonly Route[] = [
  r("GET", `${A}/landingPages.json`, getLandingPages),
  r("POST", `${A}/landingPages.json`, createLandingPage),
  r("GET", `${A}/landingPage/{id}.json`, landingPages.byId),
  r("POST", `${A}/landingPage/{id}.json`, updateLandingPage),
  r("GET", `${A}/landingPage/byName.json`, landingPages.byName),
  r("GET", `${A}/landingPage/{id}/content.json`, getLandingPageContent),
  r("POST", `${A}/landingPage/{id}/approveDraft.json`, landingPages.approve),
  r("POST", `${A}/landingPage/{id}/unapprove.json`, landingPages.unapprove),
  r("POST", `${A}/landingPage/{id}/discardDraft.json`, landingPages.discardDraft),
  r("POST", `${A}/landingPage/{id}/clone.json`, cloneLandingPage),
  r("POST", `${A}/landingPage/{id}/delete.json`, landingPages.remove),
];

const FORMS: readonly Route[] = [
  r("GET", `${A}/forms.json`, getForms),
  r("POST", `${A}/forms.json`, createForm),
  r("GET", `${A}/form/{id}.json`, forms.byId),
  r("POST", `${A}/form/{id}.json`, updateForm),
  r("GET", `${A}/form/byName.json`, forms.byName),
  r("GET", `${A}/form/fields.json`, getAllFormFields),
  r("GET", `${A}/form/{id}/fields.json`, getFormFields),
  r("POST", `${A}/form/{id}/approveDraft.json`, forms.approve),
  r("POST", `${A}/form/{id}/discardDraft.json`, forms.discardDraft),
  r("POST", `${A}/form/{id}/clone.json`, cloneForm),
  r("POST", `${A}/form/{id}/submitButton.json`, updateFormSubmitButton),
  r("POST", `${A}/form/{id}/delete.json`, forms.remove),
];

const FOLDERS: readonly Route[] = [
  r("GET", `${A}/folders.json`, getFolders),
  r("POST", `${A}/folders.json`, createFolder),
  r("GET", `${A}/folder/byName.json`, getFolderByName),
  r("GET", `${A}/folder/{id}.json`, getFolderById),
  r("POST", `${A}/folder/{id}.json`, updateFolder),
  r("GET", `${A}/folder/{id}/content.json`, getFolderContent),
  r("POST", `${A}/folder/{id}/delete.json`, deleteFolder),
  r("GET", `${A}/folder/{id}/tokens.json`, getTokens),
  r("POST", `${A}/folder/{id}/tokens.json`, upsertToken),
  r("POST", `${A}/folder/{id}/tokens/delete.json`, deleteToken),
];

const LISTS_AND_CAMPAIGNS: readonly Route[] = [
  r("GET", `${A}/staticLists.json`, getStaticLists),
  r("POST", `${A}/staticLists.json`, createStaticList),
  r("GET", `${A}/staticList/{id}.json`, getStaticListById),
  r("GET", `${A}/staticList/byName.json`, getStaticListByName),
  r("POST", `${A}/staticList/{id}/delete.json`, deleteStaticList),
  r("GET", `${A}/smartLists.json`, getSmartLists),
  r("GET", `${A}/smartList/{id}.json`, getSmartListById),
  r("GET", `${A}/smartList/byName.json`, getSmartListByName),
  r("GET", `${A}/smartCampaigns.json`, getSmartCampaigns),
  r("GET", `${A}/smartCampaign/{id}.json`, getSmartCampaignById),
  r("GET", `${A}/smartCampaign/byName.json`, getSmartCampaignByName),
  r("GET", `${A}/smartCampaign/{id}/smartList.json`, getSmartListByCampaignId),
  r("POST", `${A}/smartCampaign/{id}/activate.json`, activateSmartCampaign),
  r("POST", `${A}/smartCampaign/{id}/deactivate.json`, deactivateSmartCampaign),
];

const SNIPPETS: readonly Route[] = [
  r("GET", `${A}/snippets.json`, getSnippets),
  r("POST", `${A}/snippets.json`, createSnippet),
  r("GET", `${A}/snippet/{id}.json`, snippets.byId),
  r("POST", `${A}/snippet/{id}.json`, updateSnippet),
  r("GET", `${A}/snippet/{id}/content.json`, getSnippetContent),
  r("POST", `${A}/snippet/{id}/content.json`, updateSnippetContent),
  r("POST", `${A}/snippet/{id}/approveDraft.json`, snippets.approve),
  r("POST", `${A}/snippet/{id}/unapprove.json`, snippets.unapprove),
  r("POST", `${A}/snippet/{id}/discardDraft.json`, snippets.discardDraft),
  r("POST", `${A}/snippet/{id}/clone.json`, cloneSnippet),
  r("POST", `${A}/snippet/{id}/delete.json`, snippets.remove),
];

const REFERENCE: readonly Route[] = [
  r("GET", `${A}/channels.json`, getChannels),
  r("GET", `${A}/channel/byName.json`, getChannelByName),
  r("GET", `${A}/tagTypes.json`, getTagTypes),
  r("GET", `${A}/tagType/byName.json`, getTagTypeByName),
  r("GET", `${A}/segmentation.json`, getSegmentations),
  r("GET", `${A}/segmentation/{id}/segments.json`, getSegments),
];

export const ASSET_ROUTES: readonly Route[] = [
  ...PROGRAMS,
  ...EMAILS,
  ...EMAIL_TEMPLATES,
  ...LANDING_PAGES,
  ...FORMS,
  ...FOLDERS,
  ...LISTS_AND_CAMPAIGNS,
  ...SNIPPETS,
  ...REFERENCE,
];
