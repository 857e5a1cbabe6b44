/**
 * Asset API emails (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/emails):
 * the lifecycle kit's kind for emails (lifecycle.ts) and the reads. An email has an approved version, a
 * draft version, or both; `status` selects which one a read sees.
 */
import type { ApiRequest, EmailAsset, EmailVersion, HandlerContext, HandlerResult } from "../../types.js";
import { MarketoApiError } from "../../types.js";
import { assetDate } from "../../wire/codec.js";
import { isRecord } from "../../wire/params.js";
import { Lifecycle, pick, type Status, statusParam } from "../lifecycle.js";
import { NO_ASSETS, updatedWithin } from "../paging.js";

/**
 * Emails' answers (asset.swagger.json): approveDraft and unapprove the id (ResponseOfIdResponse, as the
 * page's examples show), clone the record (ResponseOfEmailResponse). Names are unique in their program.
 */
export const emails = new Lifecycle<EmailAsset, EmailVersion>({
  noun: "Email",
  path: "email",
  store: (world) => world.emails,
  copy: (v) => ({ ...v, ...(v.variables ? { variables: { ...v.variables } } : {}) }),
  json: (_ctx, email, status, v) => formatEmail(email, status, v),
  answers: { approve: "id", unapprove: "id" },
  unapproveBeforeDelete: true,
  scope: (email) => email.programId,
});

export function formatEmail(email: EmailAsset, status: Status, v: EmailVersion) {
  const text = (value: string) => ({ type: "Text", value });
  return {
    id: email.id,
    name: email.name,
    description: v.description,
    createdAt: assetDate(email.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: null,
    subject: text(v.subject),
    fromName: text(v.fromName),
    fromEmail: text(v.fromEmail),
    replyEmail: text(v.replyEmail),
    folder: { type: "Program", value: email.programId, folderName: email.programName },
    operational: v.operational,
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

export const getEmails = emails.browse((req) => {
  const inFolder = folderFilter(req);
  const inRange = updatedWithin(req);
  return (email, v) => inFolder(email) && inRange(v.updatedAt);
});

export function getEmailByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const status = statusParam(req.params);
  const inFolder = folderFilter(req);
  const email = ctx.world.emails.find((e) => e.name === name && inFolder(e));
  const seen = email && pick(email, status);
  return email && seen ? { result: [formatEmail(email, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

export function getEmailContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emails.find(ctx, id);
  const seen = email && pick(email, statusParam(req.params));
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
