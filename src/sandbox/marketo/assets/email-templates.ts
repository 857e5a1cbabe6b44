/**
 * Email templates (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/email-templates):
 * browse, by id, by name, content, create and content update (multipart/form-data with the HTML as the
 * `content` part, Swagger `consumes`), metadata update, approve/unapprove/discard, clone, delete, and
 * the emails that use one, through the lifecycle kit (lifecycle.ts). A template's description and HTML
 * are versioned; edits land in the draft.
 */

import {
  type ApiRequest,
  type FolderRef,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required } from "../wire/params.js";
import { Lifecycle, pick, type Status, statusParam } from "./lifecycle.js";
import type { EmailTemplate, TemplateVersion } from "./model.js";
import { NO_ASSETS, offsetPage } from "./paging.js";
import { folderParam, formParams } from "./params.js";

/**
 * Email templates' answers (asset.swagger.json): approveDraft, unapprove and clone the record
 * (ResponseOfEmailTemplateResponse). A template emails use cannot be unapproved while one of them is
 * approved (an approved email needs its template approved), nor deleted: 1022 "Object in use"
 * (ADE error-codes.md).
 */
export const emailTemplates = new Lifecycle<EmailTemplate, TemplateVersion>({
  noun: "Email template",
  path: "emailTemplate",
  store: (world) => world.assets.emailTemplates,
  copy: (v) => ({ ...v }),
  json: templateJson,
  answers: { approve: "record", unapprove: "record" },
  unapproveBeforeDelete: true,
  inUse: {
    unapprove(ctx, template) {
      const approvedEmails = usedBy(ctx, template).filter((e) => e.approved);
      if (approvedEmails.length > 0) {
        throw new MarketoApiError(
          "709",
          `Email template ${template.id} is used by ${approvedEmails.length} approved emails (emailTemplates/${template.id}/usedBy.json); unapprove them first`,
        );
      }
    },
    delete(ctx, template) {
      const users = usedBy(ctx, template);
      if (users.length > 0) {
        throw new MarketoApiError(
          "1022",
          `Email template ${template.id} is used by ${users.length} emails (emailTemplates/${template.id}/usedBy.json)`,
        );
      }
    },
  },
});

function usedBy(ctx: HandlerContext, template: EmailTemplate) {
  return ctx.world.emails.filter((e) => e.template === template.id);
}

function templateJson(ctx: HandlerContext, t: EmailTemplate, status: Status, v: TemplateVersion) {
  return {
    id: t.id,
    name: t.name,
    description: v.description,
    createdAt: assetDate(t.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: `${ctx.origin}/#EMT${t.id}A1`,
    folder: { id: t.folder.id, type: t.folder.type },
    status,
    workspace: "Default",
    version: 2,
  };
}

/** Templates live in Design Studio folders. */
function designFolder(ctx: HandlerContext, params: URLSearchParams): FolderRef {
  const ref = folderParam(params, "folder");
  if (!ref) throw new MarketoApiError("701", "folder cannot be blank");
  const folder = ctx.world.folders.find((f) => f.id === ref.id && f.path.startsWith("/Design Studio"));
  if (ref.type !== "Folder" || !folder) {
    throw new MarketoApiError(
      "1003",
      `Invalid folder ${JSON.stringify(ref)}: give {"id":<id>,"type":"Folder"} of a Design Studio folder`,
    );
  }
  return ref;
}

/** The fields of a multipart body (bulk-style `parts`), or of a form body. */
function partsOf(req: ApiRequest): URLSearchParams {
  const params = formParams(req);
  for (const [k, v] of req.parts ?? []) params.set(k, v);
  return params;
}

export const getEmailTemplates = emailTemplates.browse();

export function getEmailTemplateContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = emailTemplates.get(ctx, id);
  const seen = pick(template, statusParam(req.params));
  return seen
    ? { result: [{ id: template.id, status: seen.status, content: seen.v.content }] }
    : { warnings: [NO_ASSETS] };
}

export function createEmailTemplate(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = partsOf(req);
  const name = required(params, "name");
  const folder = designFolder(ctx, params);
  const content = required(params, "content");
  emailTemplates.uniqueName(ctx, name);
  const now = ctx.now();
  const draft = { description: params.get("description") ?? "", content, updatedAt: now };
  return emailTemplates.add(ctx, { id: ctx.world.assets.nextId++, name, folder, createdAt: now, draft });
}

/** "Updating an approved version creates a new draft. Updating a draft-only asset replaces the current draft." */
export function updateEmailTemplateContent(
  req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const template = emailTemplates.get(ctx, id);
  const content = required(partsOf(req), "content");
  emailTemplates.revise(ctx, template, { content });
  return { result: [{ id: template.id }] };
}

/** A rename is the template's; the description goes to the draft. */
export function updateEmailTemplate(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = emailTemplates.get(ctx, id);
  const params = formParams(req);
  emailTemplates.rename(ctx, template, params);
  const description = params.get("description");
  emailTemplates.revise(ctx, template, description === null ? {} : { description });
  return emailTemplates.latest(ctx, template);
}

export function cloneEmailTemplate(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = emailTemplates.get(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = designFolder(ctx, params);
  emailTemplates.uniqueName(ctx, name);
  const now = ctx.now();
  const draft = emailTemplates.cloneVersion(source, now, params);
  return emailTemplates.add(ctx, { id: ctx.world.assets.nextId++, name, folder, createdAt: now, draft });
}

export function getEmailTemplateUsedBy(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = emailTemplates.get(ctx, id);
  return offsetPage(req, usedBy(ctx, template), (e) => ({
    id: e.id,
    name: e.name,
    type: "Email",
    status: e.approved ? "approved" : "draft",
    updatedAt: assetDate((e.draft ?? e.approved)?.updatedAt ?? e.createdAt),
  }));
}

/** Whether an email may name `id` as its template (emails.json create). */
export const templateExists = (ctx: HandlerContext, id: number): boolean =>
  ctx.world.assets.emailTemplates.some((t) => t.id === id);
