/**
 * Email reads and actions beyond the lifecycle (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/emails):
 * the serialized HTML (fullContent), template variables, sample sends and the CC fields.
 */

import {
  type ApiRequest,
  type EmailVersion,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../../types.js";
import { required, toInt } from "../../wire/params.js";
import { pick, statusParam } from "../lifecycle.js";
import { NO_ASSETS } from "../paging.js";
import { booleanParam, formParams } from "../params.js";
import { emails } from "./read.js";

/** The variables of the sandbox's email templates, until a draft sets its own. */
const TEMPLATE_VARIABLES: Readonly<Record<string, string>> = {
  backgroundColor: "#FFFFFF",
  showFooter: "true",
};

const variablesOf = (v: EmailVersion): Record<string, string> => v.variables ?? { ...TEMPLATE_VARIABLES };

/** `type=Text` gives the text version; otherwise the whole HTML document. */
export function getEmailFullContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emails.get(ctx, id);
  const seen = pick(email, statusParam(req.params));
  if (!seen) return { warnings: [NO_ASSETS] };
  const type = req.params.get("type");
  if (type !== null && type !== "" && type !== "HTML" && type !== "Text")
    throw new MarketoApiError("1003", `Invalid value '${type}' for type, must be HTML or Text`);
  const content =
    type === "Text"
      ? seen.v.text
      : `<!DOCTYPE html><html><head><title>${seen.v.subject}</title></head><body>${seen.v.html}</body></html>`;
  return { result: [{ id: email.id, status: seen.status, content }] };
}

export function getEmailVariables(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emails.get(ctx, id);
  const seen = pick(email, statusParam(req.params));
  if (!seen) return { warnings: [NO_ASSETS] };
  const variables = Object.entries(variablesOf(seen.v));
  return { result: variables.map(([name, value]) => ({ name, value, moduleScope: false })) };
}

/** Sets a variable the template declares, in the draft. */
export function updateEmailVariable(
  req: ApiRequest,
  ctx: HandlerContext,
  [id, name]: string[],
): HandlerResult {
  const email = emails.get(ctx, id);
  const variable = decodeURIComponent(name ?? "");
  const params = formParams(req);
  const value = params.get("value");
  if (value === null) throw new MarketoApiError("701", "value cannot be blank");
  const variables = variablesOf(email.draft ?? (email.approved as EmailVersion));
  if (!(variable in variables)) {
    throw new MarketoApiError(
      "702",
      `Email ${email.id} has no variable '${variable}'; its variables are ${Object.keys(variables).join(", ")}`,
    );
  }
  emails.revise(ctx, email, { variables: { ...variables, [variable]: value } });
  return { result: [{ name: variable, value, moduleScope: false }] };
}

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Records the send (nothing leaves the sandbox); `leadId`, when given, must be a lead of the instance. */
export function sendSampleEmail(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const email = emails.get(ctx, id);
  const params = formParams(req);
  const emailAddress = required(params, "emailAddress");
  if (!EMAIL_ADDRESS.test(emailAddress))
    throw new MarketoApiError("1003", `Invalid value '${emailAddress}' for emailAddress`);
  const rawLead = params.get("leadId");
  const leadId = rawLead === null || rawLead === "" ? undefined : toInt(rawLead, "leadId");
  if (leadId !== undefined && !ctx.world.leads.has(leadId))
    throw new MarketoApiError("1003", `Lead ${leadId} not found; leadId must be an existing lead`);
  const textOnly = booleanParam(params, "textOnly") ?? false;
  ctx.world.assets.sampleSends.push({
    emailId: email.id,
    emailAddress,
    textOnly,
    at: ctx.now(),
    ...(leadId === undefined ? {} : { leadId }),
  });
  return { result: [{ service: "sendTestEmail", result: true }] };
}

/** The lead fields of type email, which an email can CC (Swagger EmailCCFields). */
export function getEmailCcFields(_req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const fields = ctx.world.fields.filter((f) => f.dataType === "email");
  return {
    result: fields.map((f) => ({
      attributeId: String(f.id),
      objectName: "lead",
      displayName: f.displayName,
      apiName: f.name,
    })),
  };
}
