/**
 * Asset API emails (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/emails).
 * An email has an approved version, a draft version, or both; `status` selects which one a read sees.
 */

import { NO_ASSETS, offsetPage, updatedWithin } from "../../programs/programs.js";
import {
  type ApiRequest,
  type EmailAsset,
  type EmailVersion,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../../types.js";
import { assetDate } from "../../wire/codec.js";
import { isRecord, toInt } from "../../wire/params.js";

export type Status = "approved" | "draft";

export function statusParam(req: ApiRequest): Status | undefined {
  const raw = req.params.get("status");
  if (raw === null || raw === "") return undefined;
  if (raw !== "approved" && raw !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for status`);
  return raw;
}

/** The version a read sees: the requested one, else the approved one, else the draft. */
export function pick(
  email: EmailAsset,
  status: Status | undefined,
): { status: Status; v: EmailVersion } | undefined {
  if (status === "draft") return email.draft ? { status, v: email.draft } : undefined;
  if (status === "approved") return email.approved ? { status, v: email.approved } : undefined;
  if (email.approved) return { status: "approved", v: email.approved };
  return email.draft ? { status: "draft", v: email.draft } : undefined;
}

export function formatEmail(email: EmailAsset, status: Status, v: EmailVersion) {
  const text = (value: string) => ({ type: "Text", value });
  return {
    id: email.id,
    name: email.name,
    description: email.description,
    createdAt: assetDate(email.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: null,
    subject: text(v.subject),
    fromName: text(v.fromName),
    fromEmail: text(v.fromEmail),
    replyEmail: text(v.replyEmail),
    folder: { type: "Program", value: email.programId, folderName: email.programName },
    operational: email.operational,
    textOnly: false,
    publishToMSI: false,
    webView: false,
    status,
    template: email.template,
    workspace: "Default",
    version: 2,
    autoCopyToText: true,
    preHeader: v.preHeader,
  };
}

/** `folder={"id":1056,"type":"Program"}` as the real API takes it (JSON in a query parameter). */
function folderFilter(req: ApiRequest): (email: EmailAsset) => boolean {
  const raw = req.params.get("folder");
  if (raw === null || raw === "") return () => true;
  let folder: unknown;
  try {
    folder = JSON.parse(raw);
  } catch {
    throw new MarketoApiError("1003", `Invalid value '${raw}' for folder`);
  }
  if (!isRecord(folder) || typeof folder.id !== "number") {
    throw new MarketoApiError("1003", `Invalid value '${raw}' for folder`);
  }
  return (email) => folder.type === "Program" && email.programId === folder.id;
}

export function findEmail(ctx: HandlerContext, rawId: string | undefined): EmailAsset | undefined {
  const id = toInt(rawId ?? "", "id");
  return ctx.world.emails.find((e) => e.id === id);
}

export function getEmails(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const status = statusParam(req);
  const inFolder = folderFilter(req);
  const inRange = updatedWithin(req);
  const rows = ctx.world.emails.filter(inFolder).flatMap((email) => {
    const seen = pick(email, status);
    return seen && inRange(seen.v.updatedAt) ? [formatEmail(email, seen.status, seen.v)] : [];
  });
  return offsetPage(req, rows, (row) => row);
}

export function getEmailById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = findEmail(ctx, id);
  const seen = email && pick(email, statusParam(req));
  return email && seen ? { result: [formatEmail(email, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

export function getEmailByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const status = statusParam(req);
  const inFolder = folderFilter(req);
  const email = ctx.world.emails.find((e) => e.name === name && inFolder(e));
  const seen = email && pick(email, status);
  return email && seen ? { result: [formatEmail(email, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

export function getEmailContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = findEmail(ctx, id);
  const seen = email && pick(email, statusParam(req));
  if (!seen) return { warnings: [NO_ASSETS] };
  return {
    result: [
      {
        htmlId: "edit_text_1",
        value: [
          { type: "HTML", value: seen.v.html },
          { type: "Text", value: seen.v.text },
        ],
        contentType: "Text",
        index: 0,
        isLocked: false,
      },
    ],
  };
}

export function approveDraft(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = findEmail(ctx, id);
  if (!email) throw new MarketoApiError("702", `Email '${id}' not found`);
  // 709 "business rule violation" is what the service answers when there is nothing to approve.
  if (!email.draft) throw new MarketoApiError("709", "Email does not have a draft version to approve");
  email.approved = { ...email.draft, updatedAt: ctx.now() };
  email.draft = undefined;
  return { result: [{ id: email.id }] };
}
