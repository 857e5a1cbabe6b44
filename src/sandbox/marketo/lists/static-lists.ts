/**
 * Static lists through the Asset API
 * (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/static-lists): the
 * same objects as the Lead DB lists 1001… (a list created here is in lists.json, and its members are
 * managed through /rest/v1/lists/{id}/leads.json). Shapes follow the docs' examples and the GRP
 * recording: no `description` key when there is none, `computedUrl` and `workspace`, `Z+0000` dates.
 */

import { NO_ASSETS, offsetPage, updatedWithin } from "../assets/paging.js";
import { folderParam, formParams, sameFolder } from "../assets/params.js";
import { advance } from "../bulk/export/queue.js";
import {
  type ApiRequest,
  type FolderRef,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type StaticList,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { toInt } from "../wire/params.js";

export function formatStaticList(list: StaticList, origin: string) {
  return {
    id: list.id,
    name: list.name,
    ...(list.description !== "" ? { description: list.description } : {}),
    createdAt: assetDate(list.createdAt),
    updatedAt: assetDate(list.updatedAt),
    folder: { ...list.folder },
    computedUrl: `${origin}/#ST${list.id}A1`,
    workspace: list.workspaceName,
  };
}

function byId(ctx: HandlerContext, rawId: string | undefined): StaticList | undefined {
  const id = toInt(rawId ?? "", "id");
  return ctx.world.lists.find((l) => l.id === id);
}

export function getStaticLists(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const folder = folderParam(req.params, "folder");
  const inRange = updatedWithin(req);
  const lists = ctx.world.lists.filter(
    (l) => (!folder || sameFolder(l.folder, folder)) && inRange(l.updatedAt),
  );
  return offsetPage(req, lists, (l) => formatStaticList(l, ctx.origin));
}

export function getStaticListById(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const list = byId(ctx, id);
  return list ? { result: [formatStaticList(list, ctx.origin)] } : { warnings: [NO_ASSETS] };
}

export function getStaticListByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const list = ctx.world.lists.find((l) => l.name === name);
  return list ? { result: [formatStaticList(list, ctx.origin)] } : { warnings: [NO_ASSETS] };
}

/**
 * The parent must be a Lead Database list folder or a program: 710 when it does not exist, 711 when it
 * is a folder of another kind (error-codes.md; which folders qualify is inferred from the UI).
 */
function listParent(ctx: HandlerContext, folder: FolderRef): { programName: string } {
  if (folder.type === "Program") {
    const program = ctx.world.programs.find((p) => p.id === folder.id);
    if (!program) throw new MarketoApiError("710", `Parent folder '${folder.id}' (Program) not found`);
    return { programName: program.name };
  }
  const parent = ctx.world.folders.find((f) => f.id === folder.id);
  if (!parent) throw new MarketoApiError("710", `Parent folder '${folder.id}' (Folder) not found`);
  if (parent.folderType !== "List") {
    throw new MarketoApiError(
      "711",
      `Folder '${parent.name}' cannot hold static lists: use a list folder or a program`,
    );
  }
  return { programName: parent.name };
}

export function createStaticList(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = params.get("name")?.trim() ?? "";
  if (name === "") throw new MarketoApiError("701", "name cannot be blank");
  const folder = folderParam(params, "folder");
  if (!folder) throw new MarketoApiError("701", "folder cannot be blank");
  const { programName } = listParent(ctx, folder);
  // Names are unique (ADE static-lists.md); the 709 wording is inferred.
  if (ctx.world.lists.some((l) => l.name.toLowerCase() === name.toLowerCase())) {
    throw new MarketoApiError("709", `Static list with name '${name}' already exists`);
  }
  const now = ctx.now();
  const list: StaticList = {
    id: ctx.world.nextListId++,
    name,
    description: params.get("description") ?? "",
    programName,
    workspaceName: "Default",
    folder,
    createdAt: now,
    updatedAt: now,
    members: new Set(),
  };
  ctx.world.lists.push(list);
  return { result: [formatStaticList(list, ctx.origin)] };
}

/**
 * "You cannot delete a list used by an import, export, or another asset" (ADE static-lists.md): a bulk
 * export that is queued or running holds it (1022 "Object in use", error-codes.md). A job only created
 * does not; if its list is gone when it starts, the job fails.
 */
export function deleteStaticList(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const list = byId(ctx, id);
  if (!list) throw new MarketoApiError("702", `Static list '${id}' not found`);
  advance(ctx.world, ctx.now());
  const busy = ctx.world.bulk.jobs.some(
    (job) =>
      (job.status === "Queued" || job.status === "Processing") &&
      job.selection.kind === "leads" &&
      job.selection.by === "list" &&
      job.selection.list === "static" &&
      (job.selection.id === list.id || job.selection.name === list.name),
  );
  if (busy) throw new MarketoApiError("1022", `Static list '${list.name}' is in use by a bulk export job`);
  ctx.world.lists.splice(ctx.world.lists.indexOf(list), 1);
  return { result: [{ id: list.id }] };
}
