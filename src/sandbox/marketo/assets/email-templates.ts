/**
 * Email templates (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/email-templates):
 * browse, by id, by name, content, create and content update (multipart/form-data with the HTML as the
 * `content` part, Swagger `consumes`), metadata update, approve/unapprove/discard, clone, delete, and
 * the emails that use one. Edits land in the draft, as for emails.
 */

import { NO_ASSETS, offsetPage } from "../programs/programs.js";
import {
  type ApiRequest,
  type FolderRef,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required, toInt } from "../wire/params.js";
import type { EmailTemplate, TemplateVersion } from "./model.js";
import { folderParam, formParams } from "./params.js";

type Status = "approved" | "draft";

function statusParam(params: URLSearchParams): Status | undefined {
  const raw = params.get("status");
  if (raw === null || raw === "") return undefined;
  if (raw !== "approved" && raw !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for status, must be approved or draft`);
  return raw;
}

function pick(
  t: EmailTemplate,
  status: Status | undefined,
): { status: Status; v: TemplateVersion } | undefined {
  if (status !== "draft" && t.approved) return { status: "approved", v: t.approved };
  if (status !== "approved" && t.draft) return { status: "draft", v: t.draft };
  return undefined;
}

function templateJson(ctx: HandlerContext, t: EmailTemplate, status: Status, v: TemplateVersion) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    createdAt: assetDate(t.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: `${ctx.origin}/#EMT${t.id}A1`,
    folder: { id: t.folder.id, type: t.folder.type },
    status,
    workspace: "Default",
    version: 2,
  };
}

function current(ctx: HandlerContext, t: EmailTemplate): HandlerResult {
  const seen = pick(t, undefined) as { status: Status; v: TemplateVersion };
  return { result: [templateJson(ctx, t, seen.status, seen.v)] };
}

function templateOr702(ctx: HandlerContext, id: string | undefined): EmailTemplate {
  const templateId = toInt(id ?? "", "id");
  const template = ctx.world.assets.emailTemplates.find((t) => t.id === templateId);
  if (!template) throw new MarketoApiError("702", `Email template ${templateId} not found`);
  return template;
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

function uniqueName(ctx: HandlerContext, name: string, except?: EmailTemplate): void {
  if (ctx.world.assets.emailTemplates.some((t) => t !== except && t.name === name))
    throw new MarketoApiError("709", `Email template name '${name}' is already in use`);
}

/** The fields of a multipart body (bulk-style `parts`), or of a form body. */
function partsOf(req: ApiRequest): URLSearchParams {
  const params = formParams(req);
  for (const [k, v] of req.parts ?? []) params.set(k, v);
  return params;
}

export function getEmailTemplates(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const status = statusParam(req.params);
  const rows = ctx.world.assets.emailTemplates.flatMap((t) => {
    const seen = pick(t, status);
    return seen ? [templateJson(ctx, t, seen.status, seen.v)] : [];
  });
  return offsetPage(req, rows, (row) => row);
}

export function getEmailTemplateById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const templateId = toInt(id ?? "", "id");
  const template = ctx.world.assets.emailTemplates.find((t) => t.id === templateId);
  const seen = template && pick(template, statusParam(req.params));
  return template && seen
    ? { result: [templateJson(ctx, template, seen.status, seen.v)] }
    : { warnings: [NO_ASSETS] };
}

export function getEmailTemplateByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = required(req.params, "name");
  const template = ctx.world.assets.emailTemplates.find((t) => t.name === name);
  const seen = template && pick(template, statusParam(req.params));
  return template && seen
    ? { result: [templateJson(ctx, template, seen.status, seen.v)] }
    : { warnings: [NO_ASSETS] };
}

export function getEmailTemplateContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = templateOr702(ctx, id);
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
  uniqueName(ctx, name);
  const now = ctx.now();
  const template: EmailTemplate = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? "",
    folder,
    createdAt: now,
    draft: { content, updatedAt: now },
  };
  ctx.world.assets.emailTemplates.push(template);
  return current(ctx, template);
}

export function updateEmailTemplateContent(
  req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const template = templateOr702(ctx, id);
  const content = required(partsOf(req), "content");
  template.draft = { content, updatedAt: ctx.now() };
  return { result: [{ id: template.id }] };
}

export function updateEmailTemplate(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = templateOr702(ctx, id);
  const params = formParams(req);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== template.name) {
    uniqueName(ctx, name, template);
    template.name = name;
  }
  const description = params.get("description");
  if (description !== null) template.description = description;
  return current(ctx, template);
}

export function approveEmailTemplate(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = templateOr702(ctx, id);
  if (!template.draft)
    throw new MarketoApiError("709", `Email template ${template.id} has no draft to approve`);
  template.approved = { ...template.draft, updatedAt: ctx.now() };
  template.draft = undefined;
  return current(ctx, template);
}

const usedBy = (ctx: HandlerContext, template: EmailTemplate) =>
  ctx.world.emails.filter((e) => e.template === template.id);

/** An approved email needs its template approved: unapproving one they use is refused. */
export function unapproveEmailTemplate(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = templateOr702(ctx, id);
  if (!template.approved) throw new MarketoApiError("709", `Email template ${template.id} is not approved`);
  const approvedEmails = usedBy(ctx, template).filter((e) => e.approved);
  if (approvedEmails.length > 0) {
    throw new MarketoApiError(
      "709",
      `Email template ${template.id} is used by ${approvedEmails.length} approved emails (emailTemplates/${template.id}/usedBy.json); unapprove them first`,
    );
  }
  if (!template.draft) template.draft = { ...template.approved, updatedAt: ctx.now() };
  template.approved = undefined;
  return current(ctx, template);
}

export function discardEmailTemplateDraft(
  _req: ApiRequest,
  ctx: HandlerContext,
  [id]: string[],
): HandlerResult {
  const template = templateOr702(ctx, id);
  if (!template.draft)
    throw new MarketoApiError("709", `Email template ${template.id} has no draft to discard`);
  if (!template.approved)
    throw new MarketoApiError(
      "709",
      `Email template ${template.id} has only a draft: delete the template instead`,
    );
  template.draft = undefined;
  return { result: [{ id: template.id }] };
}

export function cloneEmailTemplate(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = templateOr702(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = designFolder(ctx, params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const from = (source.approved ?? source.draft) as TemplateVersion;
  const template: EmailTemplate = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? source.description,
    folder,
    createdAt: now,
    draft: { ...from, updatedAt: now },
  };
  ctx.world.assets.emailTemplates.push(template);
  return current(ctx, template);
}

/** A template emails use cannot go: 1022 "Object in use" (ADE error-codes.md). */
export function deleteEmailTemplate(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = templateOr702(ctx, id);
  const users = usedBy(ctx, template);
  if (users.length > 0) {
    throw new MarketoApiError(
      "1022",
      `Email template ${template.id} is used by ${users.length} emails (emailTemplates/${template.id}/usedBy.json)`,
    );
  }
  ctx.world.assets.emailTemplates = ctx.world.assets.emailTemplates.filter((t) => t !== template);
  return { result: [{ id: template.id }] };
}

export function getEmailTemplateUsedBy(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const template = templateOr702(ctx, id);
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
