/**
 * Email writes (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/emails):
 * create, edit (metadata, header fields, an editable section) and clone; approve, unapprove, discard the
 * draft and delete are the lifecycle kit's (lifecycle.ts, `emails` in read.ts). An edit lands in the
 * draft: an approved email without one gets a draft copied from its approved version first.
 */
import type { ApiRequest, EmailVersion, HandlerContext, HandlerResult, Program } from "../../types.js";
import { MarketoApiError } from "../../types.js";
import { required, toInt } from "../../wire/params.js";
import { templateExists } from "../email-templates.js";
import { booleanParam, folderParam, formParams } from "../params.js";
import { emails } from "./read.js";

/** The one editable section of the sandbox's email templates (read.ts getEmailContent). */
export const SECTION_ID = "edit_text_1";

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

export function createEmail(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const program = programParam(params, ctx);
  const template = toInt(required(params, "template"), "template");
  if (!templateExists(ctx, template))
    throw new MarketoApiError("1003", `Email template ${template} not found; emailTemplates.json lists them`);
  emails.uniqueName(ctx, name, undefined, program.id);
  const now = ctx.now();
  return emails.add(ctx, {
    id: ctx.world.assets.nextId++,
    name,
    programId: program.id,
    programName: program.name,
    template,
    createdAt: now,
    draft: {
      description: params.get("description") ?? "",
      operational: booleanParam(params, "operational") ?? false,
      subject: params.get("subject") ?? "",
      fromName: params.get("fromName") ?? "",
      fromEmail: params.get("fromEmail") ?? "",
      replyEmail: params.get("replyEmail") ?? "",
      preHeader: "",
      html: "",
      text: "",
      updatedAt: now,
    },
  });
}

/** Metadata: a rename is the email's; description, operational and preHeader go to the draft. */
export function updateEmail(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emails.get(ctx, id);
  const params = formParams(req);
  emails.rename(ctx, email, params);
  const changes: Partial<EmailVersion> = {};
  const description = params.get("description");
  if (description !== null) changes.description = description;
  const operational = booleanParam(params, "operational");
  if (operational !== undefined) changes.operational = operational;
  const preHeader = params.get("preHeader");
  if (preHeader !== null) changes.preHeader = preHeader;
  emails.revise(ctx, email, changes);
  return emails.latest(ctx, email);
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

/** The header fields Update Email Content takes: version field and parameter name. */
const HEADER_FIELDS: readonly (readonly ["subject" | "fromName" | "fromEmail" | "replyEmail", string])[] = [
  ["subject", "subject"],
  ["fromName", "fromName"],
  ["fromEmail", "fromEmail"],
  ["replyEmail", "replyTO"],
];

export function updateEmailContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emails.get(ctx, id);
  const params = formParams(req);
  const changes: Partial<EmailVersion> = {};
  for (const [field, param] of HEADER_FIELDS) {
    const value = headerValue(params, param);
    if (value !== undefined) changes[field] = value;
  }
  if (Object.keys(changes).length === 0)
    throw new MarketoApiError("701", "Give at least one of subject, fromName, fromEmail, replyTO");
  emails.revise(ctx, email, changes);
  return { result: [{ id: email.id }] };
}

/** Updates the editable section: `type=Text`, `value` (HTML), optional `textValue`. */
export function updateEmailSection(
  req: ApiRequest,
  ctx: HandlerContext,
  [id, htmlId]: string[],
): HandlerResult {
  const email = emails.get(ctx, id);
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
  emails.revise(ctx, email, { html: value, text: params.get("textValue") ?? value.replace(/<[^>]*>/g, "") });
  return { result: [{ id: email.id }] };
}

/** The clone is a draft of the current version (approved if any) in the given program. */
export function cloneEmail(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = emails.get(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const program = programParam(params, ctx);
  emails.uniqueName(ctx, name, undefined, program.id);
  const now = ctx.now();
  const draft = emails.cloneVersion(source, now, params);
  draft.operational = booleanParam(params, "operational") ?? draft.operational;
  return emails.add(ctx, {
    ...source,
    id: ctx.world.assets.nextId++,
    name,
    programId: program.id,
    programName: program.name,
    createdAt: now,
    approved: undefined,
    draft,
  });
}
