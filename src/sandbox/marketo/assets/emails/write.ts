/**
 * Email lifecycle (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/emails):
 * create, edit (metadata, header fields, an editable section), unapprove, discard the draft, clone,
 * delete. An edit lands in the draft: an approved email without one gets a draft copied from its approved
 * version first ("Approval": edits to an approved email create a draft; approveDraft makes it the
 * approved version; discardDraft drops it; unapprove turns the approved version back into a draft).
 */

import {
  type ApiRequest,
  type EmailAsset,
  type EmailVersion,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../../types.js";
import { required, toInt } from "../../wire/params.js";
import { templateExists } from "../email-templates.js";
import { booleanParam, folderParam, formParams } from "../params.js";
import { findEmail, formatEmail, pick } from "./read.js";

/** The one editable section of the sandbox's email templates (emails/read.ts getEmailContent). */
export const SECTION_ID = "edit_text_1";

export function emailOr702(ctx: HandlerContext, id: string | undefined): EmailAsset {
  const email = findEmail(ctx, id);
  if (!email) throw new MarketoApiError("702", `Email '${id}' not found`);
  return email;
}

/** The draft to edit: the existing one, else a copy of the approved version. */
export function editableDraft(email: EmailAsset, now: number): EmailVersion {
  if (!email.draft) email.draft = { ...(email.approved as EmailVersion), updatedAt: now };
  email.draft.updatedAt = now;
  return email.draft;
}

function current(email: EmailAsset): HandlerResult {
  const seen = pick(email, undefined);
  return seen ? { result: [formatEmail(email, seen.status, seen.v)] } : { result: [] };
}

/** Emails live in programs here: the folder must be `{"id":<programId>,"type":"Program"}`. */
function programParam(params: URLSearchParams, ctx: HandlerContext): Program {
  const folder = folderParam(params, "folder");
  if (!folder) throw new MarketoApiError("701", "folder cannot be blank");
  const program = folder.type === "Program" ? ctx.world.programs.find((p) => p.id === folder.id) : undefined;
  if (!program) {
    throw new MarketoApiError(
      "1003",
      `Invalid folder: the sandbox keeps emails in programs; give {"id":<programId>,"type":"Program"} of an existing program`,
    );
  }
  return program;
}

/** Asset names are unique within their folder; a second one is a business rule violation. */
function uniqueName(ctx: HandlerContext, name: string, programId: number): void {
  if (ctx.world.emails.some((e) => e.name === name && e.programId === programId)) {
    throw new MarketoApiError("709", `Email name '${name}' is already in use in program ${programId}`);
  }
}

export function createEmail(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const program = programParam(params, ctx);
  const template = toInt(required(params, "template"), "template");
  if (!templateExists(ctx, template))
    throw new MarketoApiError("1003", `Email template ${template} not found; emailTemplates.json lists them`);
  uniqueName(ctx, name, program.id);
  const now = ctx.now();
  const email: EmailAsset = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? "",
    programId: program.id,
    programName: program.name,
    template,
    operational: booleanParam(params, "operational") ?? false,
    createdAt: now,
    draft: {
      subject: params.get("subject") ?? "",
      fromName: params.get("fromName") ?? "",
      fromEmail: params.get("fromEmail") ?? "",
      replyEmail: params.get("replyEmail") ?? "",
      preHeader: "",
      html: "",
      text: "",
      updatedAt: now,
    },
  };
  ctx.world.emails.push(email);
  return current(email);
}

/** Metadata: name, description, operational (on the asset); preHeader (on the draft). */
export function updateEmail(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emailOr702(ctx, id);
  const params = formParams(req);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== email.name) {
    uniqueName(ctx, name, email.programId);
    email.name = name;
  }
  const description = params.get("description");
  if (description !== null) email.description = description;
  email.operational = booleanParam(params, "operational") ?? email.operational;
  const preHeader = params.get("preHeader");
  if (preHeader !== null) editableDraft(email, ctx.now()).preHeader = preHeader;
  return current(email);
}

/** A header field given as `{"type":"Text","value":"…"}` (ADE emails.md "Update Content") or plain text. */
function headerValue(params: URLSearchParams, name: string): string | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === "object" && parsed !== null && "value" in parsed) return String(parsed.value);
  } catch {
    // Plain text is the value itself.
  }
  return raw;
}

export function updateEmailContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emailOr702(ctx, id);
  const params = formParams(req);
  const fields: [keyof EmailVersion, string][] = [
    ["subject", "subject"],
    ["fromName", "fromName"],
    ["fromEmail", "fromEmail"],
    ["replyEmail", "replyTO"],
  ];
  const given = fields.flatMap(([field, param]) => {
    const value = headerValue(params, param);
    return value === undefined ? [] : [[field, value] as const];
  });
  if (given.length === 0)
    throw new MarketoApiError("701", "Give at least one of subject, fromName, fromEmail, replyTO");
  const draft = editableDraft(email, ctx.now());
  for (const [field, value] of given) Object.assign(draft, { [field]: value });
  return { result: [{ id: email.id }] };
}

/** Updates the editable section: `type=Text`, `value` (HTML), optional `textValue`. */
export function updateEmailSection(
  req: ApiRequest,
  ctx: HandlerContext,
  [id, htmlId]: string[],
): HandlerResult {
  const email = emailOr702(ctx, id);
  if (htmlId !== SECTION_ID)
    throw new MarketoApiError(
      "702",
      `Email ${email.id} has no section '${htmlId}'; its section is ${SECTION_ID}`,
    );
  const params = formParams(req);
  const type = required(params, "type");
  if (type !== "Text")
    throw new MarketoApiError("1003", `Invalid value '${type}' for type; the sandbox edits Text sections`);
  const value = required(params, "value");
  const draft = editableDraft(email, ctx.now());
  draft.html = value;
  draft.text = params.get("textValue") ?? value.replace(/<[^>]*>/g, "");
  return { result: [{ id: email.id }] };
}

export function unapproveEmail(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emailOr702(ctx, id);
  if (!email.approved) throw new MarketoApiError("709", `Email ${email.id} is not approved`);
  // The approved version becomes the draft, unless a newer draft is already there.
  if (!email.draft) email.draft = { ...email.approved, updatedAt: ctx.now() };
  email.approved = undefined;
  return { result: [{ id: email.id }] };
}

export function discardEmailDraft(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emailOr702(ctx, id);
  if (!email.draft) throw new MarketoApiError("709", `Email ${email.id} has no draft to discard`);
  if (!email.approved) {
    throw new MarketoApiError(
      "709",
      `Email ${email.id} has only a draft; discarding it would leave nothing: delete the email instead`,
    );
  }
  email.draft = undefined;
  return { result: [{ id: email.id }] };
}

export function deleteEmail(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emailOr702(ctx, id);
  ctx.world.emails = ctx.world.emails.filter((e) => e !== email);
  return { result: [{ id: email.id }] };
}

/** The clone is a draft of the current version (approved if any) in the given program. */
export function cloneEmail(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = emailOr702(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const program = programParam(params, ctx);
  uniqueName(ctx, name, program.id);
  const now = ctx.now();
  const from = (source.approved ?? source.draft) as EmailVersion;
  const email: EmailAsset = {
    ...source,
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? source.description,
    programId: program.id,
    programName: program.name,
    operational: booleanParam(params, "operational") ?? source.operational,
    createdAt: now,
    approved: undefined,
    draft: { ...from, updatedAt: now },
  };
  ctx.world.emails.push(email);
  return current(email);
}
