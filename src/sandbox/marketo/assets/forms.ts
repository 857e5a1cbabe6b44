/**
 * Forms (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/forms):
 * browse, by id, by name, a form's fields, the fields a form may use, create, update metadata,
 * approve/discard the draft, clone, delete, through the lifecycle kit (lifecycle.ts), and its submit button. A
 * form's metadata, fields and button are versioned; its fields are lead fields (the instance's own).
 */

import { type ApiRequest, type HandlerContext, type HandlerResult, MarketoApiError } from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required } from "../wire/params.js";
import { Lifecycle, pick, type Status, statusParam } from "./lifecycle.js";
import type { FormVersion, MarketoForm } from "./model.js";
import { NO_ASSETS, offsetPage } from "./paging.js";
import { booleanParam, existingFolder, folderParam, formParams, sameFolder } from "./params.js";

/** Forms' answers (asset.swagger.json): approveDraft and clone the record (ResponseOfLpFormResponse). */
export const forms = new Lifecycle<MarketoForm, FormVersion>({
  noun: "Form",
  path: "form",
  store: (world) => world.assets.forms,
  copy: (v) => ({ ...v, fields: [...v.fields] }),
  json: formJson,
  // The Swagger has no form unapprove; forms may be deleted while approved (assets "Delete").
  answers: { approve: "record" },
  unapproveBeforeDelete: false,
});

function formJson(ctx: HandlerContext, f: MarketoForm, status: Status, v: FormVersion) {
  return {
    id: f.id,
    name: f.name,
    description: v.description,
    createdAt: assetDate(f.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: `${ctx.origin}/#FO${f.id}A1`,
    status,
    folder: { id: f.folder.id, type: f.folder.type },
    theme: v.theme,
    language: v.language,
    locale: v.locale,
    progressiveProfiling: v.progressiveProfiling,
    labelPosition: v.labelPosition,
    fontFamily: v.fontFamily,
    fontSize: v.fontSize,
    knownVisitor: { type: "form" },
    thankYouList: [],
    buttonLocation: v.buttonLocation ?? 120,
    buttonLabel: v.buttonLabel,
    waitingLabel: v.waitingLabel ?? "Please Wait",
    ...(v.buttonStyle ? { buttonStyle: v.buttonStyle } : {}),
  };
}

export const getForms = forms.browse((req) => {
  const folder = folderParam(req.params, "folder");
  return (f) => !folder || sameFolder(folder, f.folder);
});

/** The form's fields, one row each; the Email field is required (every Marketo form keys on it). */
export function getFormFields(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = forms.get(ctx, id);
  const seen = pick(form, statusParam(req.params));
  if (!seen) return { warnings: [NO_ASSETS] };
  const fields = seen.v.fields.flatMap((name) => {
    const field = ctx.world.fields.find((f) => f.name === name);
    return field ? [field] : [];
  });
  return {
    result: fields.map((f, i) => ({
      id: f.name.charAt(0).toUpperCase() + f.name.slice(1),
      label: `${f.displayName}:`,
      dataType: f.dataType === "email" ? "email" : "string",
      required: f.name === "email",
      formPrefill: true,
      isSensitive: false,
      maxLength: f.length ?? 255,
      rowNumber: i,
      columnNumber: 0,
      labelWidth: 100,
      fieldWidth: 150,
      visibilityRules: { ruleType: "alwaysShow" },
    })),
  };
}

/** The lead fields a form may carry (form/fields.json). */
export function getAllFormFields(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const fields = ctx.world.fields.filter((f) => !f.readOnly);
  return offsetPage(req, fields, (f) => ({
    id: f.name.charAt(0).toUpperCase() + f.name.slice(1),
    dataType: f.dataType,
    ...(f.length === undefined ? {} : { maxLength: f.length }),
    isSensitive: false,
  }));
}

const TEXT_FIELDS = ["fontFamily", "fontSize", "labelPosition", "language", "locale", "theme"] as const;

/** The metadata an update or a create gives (Swagger UpdateFormMetaDataRequest), for the draft. */
function metaChanges(params: URLSearchParams): Partial<FormVersion> {
  const changes: Partial<FormVersion> = {};
  for (const field of TEXT_FIELDS) {
    const value = params.get(field);
    if (value !== null && value !== "") changes[field] = value;
  }
  const description = params.get("description");
  if (description !== null) changes.description = description;
  const progressiveProfiling = booleanParam(params, "progressiveProfiling");
  if (progressiveProfiling !== undefined) changes.progressiveProfiling = progressiveProfiling;
  return changes;
}

/** A new form is a draft with the Email field. */
export function createForm(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  forms.uniqueName(ctx, name);
  const now = ctx.now();
  const draft: FormVersion = {
    description: "",
    fontFamily: "Helvetica",
    fontSize: "13px",
    labelPosition: "left",
    language: "English",
    locale: "en_US",
    theme: "simple",
    progressiveProfiling: false,
    fields: ["email"],
    buttonLabel: "Submit",
    updatedAt: now,
  };
  Object.assign(draft, metaChanges(params));
  return forms.add(ctx, { id: ctx.world.assets.nextId++, name, folder, createdAt: now, draft });
}

/** A rename is the form's; the metadata goes to the draft (made from the approved version if need be). */
export function updateForm(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = forms.get(ctx, id);
  const params = formParams(req);
  forms.rename(ctx, form, params);
  forms.revise(ctx, form, metaChanges(params));
  return forms.latest(ctx, form);
}

/**
 * Update Submit Button (asset.swagger.json updateFormSubmitButtonUsingPOST, SubmitButtonRequest: label,
 * waitingLabel, buttonPosition, buttonStyle): the button of the form's draft (made from the approved version if
 * need be), answered as the form. A trial's agent could not change a button's text as a draft (trial s27, N365).
 */
export function updateFormSubmitButton(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = forms.get(ctx, id);
  const params = formParams(req);
  const changes: Partial<FormVersion> = {};
  const label = params.get("label");
  if (label !== null && label !== "") changes.buttonLabel = label;
  const waiting = params.get("waitingLabel");
  if (waiting !== null && waiting !== "") changes.waitingLabel = waiting;
  const style = params.get("buttonStyle");
  if (style !== null && style !== "") changes.buttonStyle = style;
  const position = params.get("buttonPosition");
  if (position !== null && position !== "") changes.buttonLocation = integerParam(position, "buttonPosition");
  forms.revise(ctx, form, changes);
  return forms.latest(ctx, form);
}

/** A whole number, else Marketo's 1003 naming the parameter. */
function integerParam(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value)) throw new MarketoApiError("1003", `Invalid value '${text}' for ${name}`);
  return value;
}

export function cloneForm(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = forms.get(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  forms.uniqueName(ctx, name);
  const now = ctx.now();
  const draft = forms.cloneVersion(source, now, params);
  return forms.add(ctx, { id: ctx.world.assets.nextId++, name, folder, createdAt: now, draft });
}
