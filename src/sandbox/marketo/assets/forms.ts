/**
 * Forms (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/forms):
 * browse, by id, by name, a form's fields, the fields a form may use, create, update metadata,
 * approve/discard the draft, clone, delete. A form's fields are lead fields (the instance's own).
 */

import { NO_ASSETS, offsetPage } from "../programs/programs.js";
import { type ApiRequest, type HandlerContext, type HandlerResult, MarketoApiError } from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required, toInt } from "../wire/params.js";
import type { FormVersion, MarketoForm } from "./model.js";
import { booleanParam, existingFolder, folderParam, formParams, sameFolder } from "./params.js";

type Status = "approved" | "draft";

function statusParam(params: URLSearchParams): Status | undefined {
  const raw = params.get("status");
  if (raw === null || raw === "") return undefined;
  if (raw !== "approved" && raw !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for status, must be approved or draft`);
  return raw;
}

function pick(f: MarketoForm, status: Status | undefined): { status: Status; v: FormVersion } | undefined {
  if (status !== "draft" && f.approved) return { status: "approved", v: f.approved };
  if (status !== "approved" && f.draft) return { status: "draft", v: f.draft };
  return undefined;
}

function formJson(ctx: HandlerContext, f: MarketoForm, status: Status, v: FormVersion) {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    createdAt: assetDate(f.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: `${ctx.origin}/#FO${f.id}A1`,
    status,
    folder: { id: f.folder.id, type: f.folder.type },
    theme: f.theme,
    language: f.language,
    locale: f.locale,
    progressiveProfiling: f.progressiveProfiling,
    labelPosition: f.labelPosition,
    fontFamily: f.fontFamily,
    fontSize: f.fontSize,
    knownVisitor: { type: "form" },
    thankYouList: [],
    buttonLocation: 120,
    buttonLabel: v.buttonLabel,
    waitingLabel: "Please Wait",
  };
}

function current(ctx: HandlerContext, f: MarketoForm): HandlerResult {
  const seen = pick(f, undefined) as { status: Status; v: FormVersion };
  return { result: [formJson(ctx, f, seen.status, seen.v)] };
}

function formOr702(ctx: HandlerContext, id: string | undefined): MarketoForm {
  const formId = toInt(id ?? "", "id");
  const form = ctx.world.assets.forms.find((f) => f.id === formId);
  if (!form) throw new MarketoApiError("702", `Form ${formId} not found`);
  return form;
}

function uniqueName(ctx: HandlerContext, name: string, except?: MarketoForm): void {
  if (ctx.world.assets.forms.some((f) => f !== except && f.name === name))
    throw new MarketoApiError("709", `Form name '${name}' is already in use`);
}

export function getForms(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const status = statusParam(req.params);
  const folder = folderParam(req.params, "folder");
  const rows = ctx.world.assets.forms.flatMap((f) => {
    const seen = (!folder || sameFolder(folder, f.folder)) && pick(f, status);
    return seen ? [formJson(ctx, f, seen.status, seen.v)] : [];
  });
  return offsetPage(req, rows, (row) => row);
}

export function getFormById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const formId = toInt(id ?? "", "id");
  const form = ctx.world.assets.forms.find((f) => f.id === formId);
  const seen = form && pick(form, statusParam(req.params));
  return form && seen ? { result: [formJson(ctx, form, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

export function getFormByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = required(req.params, "name");
  const form = ctx.world.assets.forms.find((f) => f.name === name);
  const seen = form && pick(form, statusParam(req.params));
  return form && seen ? { result: [formJson(ctx, form, seen.status, seen.v)] } : { warnings: [NO_ASSETS] };
}

/** The form's fields, one row each; the Email field is required (every Marketo form keys on it). */
export function getFormFields(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = formOr702(ctx, id);
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

function applyMeta(form: MarketoForm, params: URLSearchParams): void {
  for (const field of TEXT_FIELDS) {
    const value = params.get(field);
    if (value !== null && value !== "") form[field] = value;
  }
  const description = params.get("description");
  if (description !== null) form.description = description;
  form.progressiveProfiling = booleanParam(params, "progressiveProfiling") ?? form.progressiveProfiling;
}

/** A new form is a draft with the Email field. */
export function createForm(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const form: MarketoForm = {
    id: ctx.world.assets.nextId++,
    name,
    description: "",
    folder,
    createdAt: now,
    fontFamily: "Helvetica",
    fontSize: "13px",
    labelPosition: "left",
    language: "English",
    locale: "en_US",
    theme: "simple",
    progressiveProfiling: false,
    draft: { fields: ["email"], buttonLabel: "Submit", updatedAt: now },
  };
  applyMeta(form, params);
  ctx.world.assets.forms.push(form);
  return current(ctx, form);
}

export function updateForm(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = formOr702(ctx, id);
  const params = formParams(req);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== form.name) {
    uniqueName(ctx, name, form);
    form.name = name;
  }
  applyMeta(form, params);
  return current(ctx, form);
}

export function approveForm(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = formOr702(ctx, id);
  if (!form.draft) throw new MarketoApiError("709", `Form ${form.id} has no draft to approve`);
  form.approved = { ...form.draft, updatedAt: ctx.now() };
  form.draft = undefined;
  return current(ctx, form);
}

export function discardFormDraft(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = formOr702(ctx, id);
  if (!form.draft) throw new MarketoApiError("709", `Form ${form.id} has no draft to discard`);
  if (!form.approved)
    throw new MarketoApiError("709", `Form ${form.id} has only a draft: delete the form instead`);
  form.draft = undefined;
  return { result: [{ id: form.id }] };
}

export function cloneForm(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = formOr702(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const from = (source.approved ?? source.draft) as FormVersion;
  const form: MarketoForm = {
    ...source,
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? source.description,
    folder,
    createdAt: now,
    approved: undefined,
    draft: { ...from, fields: [...from.fields], updatedAt: now },
  };
  ctx.world.assets.forms.push(form);
  return current(ctx, form);
}

export function deleteForm(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const form = formOr702(ctx, id);
  ctx.world.assets.forms = ctx.world.assets.forms.filter((f) => f !== form);
  return { result: [{ id: form.id }] };
}
