/**
 * Snippets (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/snippets):
 * browse, read, content, create, update, approve/unapprove/discard, clone, delete, through the lifecycle
 * kit (lifecycle.ts). A snippet's description and content are versioned; edits land in the draft.
 */
import type { ApiRequest, FolderRef, HandlerContext, HandlerResult } from "../types.js";
import { MarketoApiError } from "../types.js";
import { assetDate } from "../wire/codec.js";
import { required } from "../wire/params.js";
import { Lifecycle, pick, type Status, statusParam } from "./lifecycle.js";
import type { Snippet, SnippetVersion } from "./model.js";
import { NO_ASSETS } from "./paging.js";
import { existingFolder, formParams } from "./params.js";

/** Snippets' answers (asset.swagger.json): approveDraft, unapprove and clone the record (ResponseOfSnippetResponse). */
export const snippets = new Lifecycle<Snippet, SnippetVersion>({
  noun: "Snippet",
  path: "snippet",
  store: (world) => world.assets.snippets,
  copy: (v) => ({ ...v }),
  json: snippetJson,
  answers: { approve: "record", unapprove: "record" },
  unapproveBeforeDelete: true,
});

function folderName(ctx: HandlerContext, ref: FolderRef): string {
  if (ref.type === "Program") return ctx.world.programs.find((p) => p.id === ref.id)?.name ?? "";
  return ctx.world.folders.find((f) => f.id === ref.id)?.name ?? "";
}

/** Snippets report their folder as {value, type, folderName} (Swagger SnippetFolder). */
function snippetJson(ctx: HandlerContext, s: Snippet, status: Status, v: SnippetVersion) {
  return {
    id: s.id,
    name: s.name,
    description: v.description,
    createdAt: assetDate(s.createdAt),
    updatedAt: assetDate(v.updatedAt),
    url: `${ctx.origin}/#SN${s.id}A1`,
    folder: { value: s.folder.id, type: s.folder.type, folderName: folderName(ctx, s.folder) },
    status,
    workspace: "Default",
  };
}

export const getSnippets = snippets.browse();

export function getSnippetContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippets.get(ctx, id);
  const seen = pick(snippet, statusParam(req.params));
  return seen ? { result: [{ type: seen.v.type, content: seen.v.content }] } : { warnings: [NO_ASSETS] };
}

export function createSnippet(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  snippets.uniqueName(ctx, name);
  const now = ctx.now();
  const description = params.get("description") ?? "";
  const draft: SnippetVersion = { description, type: "HTML", content: "", updatedAt: now };
  return snippets.add(ctx, { id: ctx.world.assets.nextId++, name, folder, createdAt: now, draft });
}

/** A rename is the snippet's; the description goes to the draft. */
export function updateSnippet(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippets.get(ctx, id);
  const params = formParams(req);
  snippets.rename(ctx, snippet, params);
  const description = params.get("description");
  snippets.revise(ctx, snippet, description === null ? {} : { description });
  return snippets.latest(ctx, snippet);
}

/** `content` and `type` (HTML or Text) are query or form parameters (Swagger updateContentUsingPOST_1). */
export function updateSnippetContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const snippet = snippets.get(ctx, id);
  const params = formParams(req);
  const type = required(params, "type");
  if (type !== "HTML" && type !== "Text")
    throw new MarketoApiError("1003", `Invalid value '${type}' for type; the sandbox takes HTML or Text`);
  const content = params.get("content");
  if (content === null) throw new MarketoApiError("701", "content cannot be blank");
  snippets.revise(ctx, snippet, { type, content });
  return { result: [{ id: snippet.id }] };
}

/** The clone is a draft of the current version. */
export function cloneSnippet(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = snippets.get(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = existingFolder(ctx, params);
  snippets.uniqueName(ctx, name);
  const now = ctx.now();
  const draft = snippets.cloneVersion(source, now, params);
  return snippets.add(ctx, { id: ctx.world.assets.nextId++, name, folder, createdAt: now, draft });
}
