/**
 * Landing pages (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/landing-pages):
 * browse, by id, by name, content sections, create from a template, update metadata, approve/unapprove/
 * discard, clone, delete. Like emails, a page has an approved version, a draft, or both; an edit of
 * the title lands in the draft.
 */

import { NO_ASSETS, offsetPage } from "../programs/programs.js";
import { type ApiRequest, type HandlerContext, type HandlerResult, MarketoApiError } from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required, toInt } from "../wire/params.js";
import type { LandingPage, LandingPageVersion } from "./model.js";
import { booleanParam, existingFolder, folderParam, formParams, sameFolder } from "./params.js";

type Status = "approved" | "draft";
/** The sandbox's landing page templates: 1 guided (a "body" section), 2 free-form (no sections). */
const TEMPLATES = [1, 2];

function statusParam(params: URLSearchParams): Status | undefined {
  const raw = params.get("status");
  if (raw === null || raw === "") return undefined;
  if (raw !== "approved" && raw !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for status, must be approved or draft`);
  return raw;
}

function pick(
  p: LandingPage,
  status: Status | undefined,
): { status: Status; v: LandingPageVersion } | undefined {
  if (status !== "draft" && p.approved) return { status: "approved", v: p.approved };
  if (status !== "approved" && p.draft) return { status: "draft", v: p.draft };
  return undefined;
}

function pageJson(ctx: HandlerContext, p: LandingPage, status: Status, v: LandingPageVersion) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    createdAt: assetDate(p.createdAt),
    updatedAt: assetDate(v.updatedAt),
    folder: { id: p.folder.id, type: p.folder.type },
    workspace: "Default",
    status,
    template: p.template,
    title: v.title,
    keywords: p.keywords,
    robots: p.robots,
    customHeadHTML: p.customHeadHTML,
    facebookOgTags: p.facebookOgTags,
    formPrefill: p.formPrefill,
    mobileEnabled: p.mobileEnabled,
    URL: `${ctx.origin}/lp/${p.urlPageName}.html`,
    computedUrl: `${ctx.origin}/#LP${p.id}A1`,
  };
}

function current(ctx: HandlerContext, p: LandingPage): HandlerResult {
  const seen = pick(p, undefined) as { status: Status; v: LandingPageVersion };
  return { result: [pageJson(ctx, p, seen.status, seen.v)] };
}

function pageOr702(ctx: HandlerContext, id: string | undefined): LandingPage {
  const pageId = toInt(id ?? "", "id");
  const page = ctx.world.assets.landingPages.find((p) => p.id === pageId);
  if (!page) throw new MarketoApiError("702", `Landing page ${pageId} not found`);
  return page;
}

/** Landing page names (and so URLs) are unique in the instance. */
function uniqueName(ctx: HandlerContext, name: string, except?: LandingPage): void {
  if (ctx.world.assets.landingPages.some((p) => p !== except && p.name === name))
    throw new MarketoApiError("709", `Landing page name '${name}' is already in use`);
}

export function getLandingPages(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const status = statusParam(req.params);
  const folder = folderParam(req.params, "folder");
  const rows = ctx.world.assets.landingPages.flatMap((p) => {
    const seen = (!folder || sameFolder(folder, p.folder)) && pick(p, status);
    return seen ? [pageJson(ctx, p, seen.status, seen.v)] : [];
  });
  return offsetPage(req, rows, (row) => row);
}

export function getLandingPageById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const pageId = toInt(id ?? "", "id");
  const page = ctx.world.assets.landingPages.find((p) => p.id === pageId);
  const seen = page && pick(page, statusParam(req.params));
  return page && seen ? { result: [pageJson(ctx, page, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

export function getLandingPageByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = required(req.params, "name");
  const page = ctx.world.assets.landingPages.find((p) => p.name === name);
  const seen = page && pick(page, statusParam(req.params));
  return page && seen ? { result: [pageJson(ctx, page, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

/** Each section with its 1-based index, its content as {content, contentType} (ADE content example). */
export function getLandingPageContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = pageOr702(ctx, id);
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
  uniqueName(ctx, name);
  const now = ctx.now();
  const page: LandingPage = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? "",
    folder,
    template,
    keywords: params.get("keywords") ?? "",
    robots: params.get("robots") ?? "index, nofollow",
    customHeadHTML: params.get("customHeadHTML") ?? "",
    facebookOgTags: params.get("facebookOgTags") ?? "",
    mobileEnabled: booleanParam(params, "mobileEnabled") ?? false,
    formPrefill: booleanParam(params, "prefillForm") ?? false,
    urlPageName: params.get("urlPageName") || name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    createdAt: now,
    draft: {
      title: params.get("title") ?? "",
      sections: template === 1 ? [{ id: "body", type: "RichText", content: "" }] : [],
      updatedAt: now,
    },
  };
  ctx.world.assets.landingPages.push(page);
  return current(ctx, page);
}

const TEXT_FIELDS = [
  "description",
  "keywords",
  "robots",
  "customHeadHTML",
  "facebookOgTags",
  "urlPageName",
] as const;

/** Metadata on the page; the title in the draft (a new draft from the approved version if needed). */
export function updateLandingPage(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = pageOr702(ctx, id);
  const params = formParams(req);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== page.name) {
    uniqueName(ctx, name, page);
    page.name = name;
  }
  for (const field of TEXT_FIELDS) {
    const value = params.get(field);
    if (value !== null) page[field] = value;
  }
  page.mobileEnabled = booleanParam(params, "mobileEnabled") ?? page.mobileEnabled;
  const title = params.get("title");
  if (title !== null) {
    const now = ctx.now();
    page.draft = { ...(page.draft ?? (page.approved as LandingPageVersion)), title, updatedAt: now };
  }
  return current(ctx, page);
}

export function approveLandingPage(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = pageOr702(ctx, id);
  if (!page.draft) throw new MarketoApiError("709", `Landing page ${page.id} has no draft to approve`);
  page.approved = { ...page.draft, updatedAt: ctx.now() };
  page.draft = undefined;
  return { result: [{ id: page.id }] };
}

export function unapproveLandingPage(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = pageOr702(ctx, id);
  if (!page.approved) throw new MarketoApiError("709", `Landing page ${page.id} is not approved`);
  if (!page.draft) page.draft = { ...page.approved, updatedAt: ctx.now() };
  page.approved = undefined;
  return current(ctx, page);
}

export function discardLandingPageDraft(
  _req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const page = pageOr702(ctx, id);
  if (!page.draft) throw new MarketoApiError("709", `Landing page ${page.id} has no draft to discard`);
  if (!page.approved)
    throw new MarketoApiError("709", `Landing page ${page.id} has only a draft: delete the page instead`);
  page.draft = undefined;
  return { result: [{ id: page.id }] };
}

/** The clone is a draft of the current version; `template` may switch it to the other template. */
export function cloneLandingPage(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = pageOr702(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const from = (source.approved ?? source.draft) as LandingPageVersion;
  const page: LandingPage = {
    ...source,
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? source.description,
    folder,
    urlPageName: name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    createdAt: now,
    approved: undefined,
    draft: { ...from, sections: from.sections.map((s) => ({ ...s })), updatedAt: now },
  };
  ctx.world.assets.landingPages.push(page);
  return current(ctx, page);
}

export function deleteLandingPage(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const page = pageOr702(ctx, id);
  ctx.world.assets.landingPages = ctx.world.assets.landingPages.filter((p) => p !== page);
  return { result: [{ id: page.id }] };
}
