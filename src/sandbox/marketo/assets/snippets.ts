/**
 * Snippets (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/snippets):
 * browse, read, content, create, update, approve/unapprove/discard, clone, delete. Like emails, a
 * snippet has an approved version, a draft, or both; edits land in the draft.
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
import type { Snippet, SnippetVersion } from "./model.js";
import { existingFolder, formParams } from "./params.js";

type Status = "approved" | "draft";

function statusParam(params: URLSearchParams): Status | undefined {
  const raw = params.get("status");
  if (raw === null || raw === "") return undefined;
  if (raw !== "approved" && raw !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for status, must be approved or draft`);
  return raw;
}

/** The version a read sees: the requested one, else the approved one, else the draft. */
function pick(s: Snippet, status: Status | undefined): { status: Status; v: SnippetVersion } | undefined {
  if (status !== "draft" && s.approved) return { status: "approved", v: s.approved };
  if (status !== "approved" && s.draft) return { status: "draft", v: s.draft };
  return undefined;
}

function folderName(ctx: HandlerContext, ref: FolderRef): string {
  if (ref.type === "Program") return ctx.world.programs.find((p) => p.id === ref.id)?.name ?? "";
  return ctx.world.folders.find((f) => f.id === ref.id)?.name ?? "";
}

/** Snippets report their folder as {value, type, folderName} (Swagger SnippetFolder). */
function snippetJson(ctx: HandlerContext, s: Snippet, status: Status, v: SnippetVersion) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    createdAt: assetDate(s.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: `${ctx.origin}/#SN${s.id}A1`,
    folder: { value: s.folder.id, type: s.folder.type, folderName: folderName(ctx, s.folder) },
    status,
    workspace: "Default",
  };
}

function current(ctx: HandlerContext, s: Snippet): HandlerResult {
  const seen = pick(s, undefined) as { status: Status; v: SnippetVersion };
  return { result: [snippetJson(ctx, s, seen.status, seen.v)] };
}

function snippetOr702(ctx: HandlerContext, id: string | undefined): Snippet {
  const snippetId = toInt(id ?? "", "id");
  const snippet = ctx.world.assets.snippets.find((s) => s.id === snippetId);
  if (!snippet) throw new MarketoApiError("702", `Snippet ${snippetId} not found`);
  return snippet;
}

function uniqueName(ctx: HandlerContext, name: string, except?: Snippet): void {
  if (ctx.world.assets.snippets.some((s) => s !== except && s.name === name))
    throw new MarketoApiError("709", `Snippet name '${name}' is already in use`);
}

export function getSnippets(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const status = statusParam(req.params);
  const rows = ctx.world.assets.snippets.flatMap((s) => {
    const seen = pick(s, status);
    return seen ? [snippetJson(ctx, s, seen.status, seen.v)] : [];
  });
  return offsetPage(req, rows, (row) => row);
}

export function getSnippetById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippetId = toInt(id ?? "", "id");
  const snippet = ctx.world.assets.snippets.find((s) => s.id === snippetId);
  const seen = snippet && pick(snippet, statusParam(req.params));
  return snippet && seen
    ? { result: [snippetJson(ctx, snippet, seen.status, seen.v)] }
    : { warnings: [NO_ASSETS] };
}

export function getSnippetContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  const seen = pick(snippet, statusParam(req.params));
  return seen ? { result: [{ type: seen.v.type, content: seen.v.content }] } : { warnings: [NO_ASSETS] };
}

export function createSnippet(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const snippet: Snippet = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? "",
    folder,
    createdAt: now,
    draft: { type: "HTML", content: "", updatedAt: now },
  };
  ctx.world.assets.snippets.push(snippet);
  return current(ctx, snippet);
}

export function updateSnippet(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  const params = formParams(req);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== snippet.name) {
    uniqueName(ctx, name, snippet);
    snippet.name = name;
  }
  const description = params.get("description");
  if (description !== null) snippet.description = description;
  return current(ctx, snippet);
}

/** `content` and `type` (HTML or Text) are query or form parameters (Swagger updateContentUsingPOST_1). */
export function updateSnippetContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  const params = formParams(req);
  const type = required(params, "type");
  if (type !== "HTML" && type !== "Text")
    throw new MarketoApiError("1003", `Invalid value '${type}' for type; the sandbox takes HTML or Text`);
  const content = params.get("content");
  if (content === null) throw new MarketoApiError("701", "content cannot be blank");
  snippet.draft = { type, content, updatedAt: ctx.now() };
  return { result: [{ id: snippet.id }] };
}

export function approveSnippet(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  if (!snippet.draft) throw new MarketoApiError("709", `Snippet ${snippet.id} has no draft to approve`);
  snippet.approved = { ...snippet.draft, updatedAt: ctx.now() };
  snippet.draft = undefined;
  return current(ctx, snippet);
}

export function unapproveSnippet(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  if (!snippet.approved) throw new MarketoApiError("709", `Snippet ${snippet.id} is not approved`);
  if (!snippet.draft) snippet.draft = { ...snippet.approved, updatedAt: ctx.now() };
  snippet.approved = undefined;
  return current(ctx, snippet);
}

export function discardSnippetDraft(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  if (!snippet.draft) throw new MarketoApiError("709", `Snippet ${snippet.id} has no draft to discard`);
  if (!snippet.approved)
    throw new MarketoApiError("709", `Snippet ${snippet.id} has only a draft: delete the snippet instead`);
  snippet.draft = undefined;
  return { result: [{ id: snippet.id }] };
}

/** The clone is a draft of the current version. */
export function cloneSnippet(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = snippetOr702(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const from = (source.approved ?? source.draft) as SnippetVersion;
  const snippet: Snippet = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? source.description,
    folder,
    createdAt: now,
    draft: { ...from, updatedAt: now },
  };
  ctx.world.assets.snippets.push(snippet);
  return current(ctx, snippet);
}

export function deleteSnippet(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippetOr702(ctx, id);
  ctx.world.assets.snippets = ctx.world.assets.snippets.filter((s) => s !== snippet);
  return { result: [{ id: snippet.id }] };
}
