/**
 * Landing pages (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/landing-pages):
 * browse, by id, by name, content sections, create from a template, update metadata, approve/unapprove/
 * discard, clone, delete, through the lifecycle kit (lifecycle.ts). A page's metadata, title and
 * sections are versioned: "Updates apply to the draft and become live only after approval".
 */
import type { ApiRequest, HandlerContext, HandlerResult } from "../types.js";
import { MarketoApiError } from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required, toInt } from "../wire/params.js";
import { Lifecycle, pick, type Status, statusParam } from "./lifecycle.js";
import type { LandingPage, LandingPageVersion } from "./model.js";
import { NO_ASSETS } from "./paging.js";
import { booleanParam, existingFolder, folderParam, formParams, sameFolder } from "./params.js";

/** The sandbox's landing page templates: 1 guided (a "body" section), 2 free-form (no sections). */
const TEMPLATES = [1, 2];

/**
 * Landing pages' answers (asset.swagger.json): approveDraft the id (ResponseOfIdResponse), unapprove
 * and clone the record (ResponseOfLandingPageResponse).
 */
export const landingPages = new Lifecycle<LandingPage, LandingPageVersion>({
  noun: "Landing page",
  path: "landingPage",
  store: (world) => world.assets.landingPages,
  copy: (v) => ({ ...v, sections: v.sections.map((s) => ({ ...s })) }),
  json: pageJson,
  answers: { approve: "id", unapprove: "record" },
  unapproveBeforeDelete: true,
});

function pageJson(ctx: HandlerContext, p: LandingPage, status: Status, v: LandingPageVersion) {
  return {
    id: p.id,
    name: p.name,
    description: v.description,
    createdAt: assetDate(p.createdAt),
    updatedAt: assetDate(v.updatedAt),
    folder: { id: p.folder.id, type: p.folder.type },
    workspace: "Default",
    status,
    template: p.template,
    title: v.title,
    keywords: v.keywords,
    robots: v.robots,
    customHeadHTML: v.customHeadHTML,
    facebookOgTags: v.facebookOgTags,
    formPrefill: p.formPrefill,
    mobileEnabled: v.mobileEnabled,
    URL: `${ctx.origin}/lp/${v.urlPageName}.html`,
    computedUrl: `${ctx.origin}/#LP${p.id}A1`,
  };
}

export const getLandingPages = landingPages.browse((req) => {
  const folder = folderParam(req.params, "folder");
  return (p) => !folder || sameFolder(folder, p.folder);
});

/** Each section with its 1-based index, its content as {content, contentType} (ADE content example). */
export function getLandingPageContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = landingPages.get(ctx, id);
  const seen = pick(page, statusParam(req.params));
  if (!seen || seen.v.sections.length === 0) return { warnings: [NO_ASSETS] };
  return {
    result: seen.v.sections.map((s, i) => ({
      id: s.id,
      type: s.type,
      index: i + 1,
      content: { content: s.content, contentType: s.type },
    })),
  };
}

const TEXT_FIELDS = [
  "description",
  "title",
  "keywords",
  "robots",
  "customHeadHTML",
  "facebookOgTags",
  "urlPageName",
] as const;

/** The metadata an update gives (Swagger UpdateLandingPageRequest, name aside), for the draft. */
function metaChanges(params: URLSearchParams): Partial<LandingPageVersion> {
  const changes: Partial<LandingPageVersion> = {};
  for (const field of TEXT_FIELDS) {
    const value = params.get(field);
    if (value !== null && (value !== "" || field !== "urlPageName")) changes[field] = value;
  }
  const mobileEnabled = booleanParam(params, "mobileEnabled");
  if (mobileEnabled !== undefined) changes.mobileEnabled = mobileEnabled;
  return changes;
}

const urlName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

export function createLandingPage(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  const template = toInt(required(params, "template"), "template");
  if (!TEMPLATES.includes(template))
    throw new MarketoApiError(
      "1003",
      `Landing page template ${template} not found; the sandbox has 1 (guided) and 2 (free-form)`,
    );
  landingPages.uniqueName(ctx, name);
  const now = ctx.now();
  const draft: LandingPageVersion = {
    description: "",
    title: "",
    keywords: "",
    robots: "index, nofollow",
    customHeadHTML: "",
    facebookOgTags: "",
    mobileEnabled: false,
    urlPageName: urlName(name),
    sections: template === 1 ? [{ id: "body", type: "RichText", content: "" }] : [],
    updatedAt: now,
  };
  Object.assign(draft, metaChanges(params));
  const formPrefill = booleanParam(params, "prefillForm") ?? false;
  const page = { id: ctx.world.assets.nextId++, name, folder, template, formPrefill, createdAt: now, draft };
  return landingPages.add(ctx, page);
}

/** A rename is the page's; the metadata and title go to the draft (made from the approved version if need be). */
export function updateLandingPage(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = landingPages.get(ctx, id);
  const params = formParams(req);
  landingPages.rename(ctx, page, params);
  landingPages.revise(ctx, page, metaChanges(params));
  return landingPages.latest(ctx, page);
}

/** The clone is a draft of the current version, with a URL of its own name. */
export function cloneLandingPage(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = landingPages.get(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  landingPages.uniqueName(ctx, name);
  const now = ctx.now();
  const draft = { ...landingPages.cloneVersion(source, now, params), urlPageName: urlName(name) };
  return landingPages.add(ctx, {
    ...source,
    id: ctx.world.assets.nextId++,
    name,
    folder,
    createdAt: now,
    approved: undefined,
    draft,
  });
}
