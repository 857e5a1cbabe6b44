/**
 * Folder writes and contents (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/folders):
 * create under a parent folder, update name/description/archive state, delete an empty folder, list
 * what a folder or program holds. Bodies are x-www-form-urlencoded, `parent` as JSON text.
 */

import {
  type ApiRequest,
  type AssetFolder,
  type FolderRef,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { required, toInt } from "../wire/params.js";
import { children, findNode, folderJson } from "./folders.js";
import { offsetPage } from "./paging.js";
import { booleanParam, folderParam, formParams } from "./params.js";

/** What a folder directly under a tree's workspace zone holds, by tree. */
const TREE_FOLDER_TYPE: Readonly<Record<string, string>> = {
  "Marketing Activities": "Marketing Folder",
  "Lead Database": "List",
  "Design Studio": "Email",
};

function typeParam(params: URLSearchParams): FolderRef["type"] {
  const type = required(params, "type");
  if (type !== "Folder" && type !== "Program")
    throw new MarketoApiError("1003", `Invalid value '${type}' for type, must be Folder or Program`);
  return type;
}

function folderOr702(ctx: HandlerContext, id: string | undefined): AssetFolder {
  const folderId = toInt(id ?? "", "id");
  const folder = ctx.world.folders.find((f) => f.id === folderId);
  if (!folder) throw new MarketoApiError("702", `Folder ${folderId} not found`);
  return folder;
}

function uniqueName(ctx: HandlerContext, name: string, parentId: number, except?: AssetFolder): void {
  if (ctx.world.folders.some((f) => f !== except && f.parentId === parentId && f.name === name))
    throw new MarketoApiError("709", `A folder named '${name}' already exists in folder ${parentId}`);
}

export function createFolder(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const ref = folderParam(params, "parent");
  if (!ref) throw new MarketoApiError("701", "parent cannot be blank");
  const parent = ref.type === "Folder" ? ctx.world.folders.find((f) => f.id === ref.id) : undefined;
  if (!parent) {
    throw new MarketoApiError(
      "1003",
      `Invalid parent ${JSON.stringify(ref)}: give {"id":<id>,"type":"Folder"} of an existing folder (folders.json)`,
    );
  }
  uniqueName(ctx, name, parent.id);
  const root = parent.path.split("/")[1] ?? "";
  const now = ctx.now();
  const folder: AssetFolder = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? "",
    folderType:
      parent.folderType === "Zone" ? (TREE_FOLDER_TYPE[root] ?? "Marketing Folder") : parent.folderType,
    parentId: parent.id,
    path: `${parent.path}/${name}`,
    isSystem: false,
    createdAt: now,
    updatedAt: now,
  };
  ctx.world.folders.push(folder);
  return { result: [folderJson({ kind: "folder", folder }, ctx)] };
}

/** Renames (paths below follow), describes, archives; system folders are refused. */
export function updateFolder(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const params = formParams(req);
  if (typeParam(params) === "Program") {
    throw new MarketoApiError("709", "Programs are updated with POST /rest/asset/v1/program/{id}.json");
  }
  const folder = folderOr702(ctx, id);
  if (folder.isSystem)
    throw new MarketoApiError("709", `Folder ${folder.id} is a system folder and cannot be changed`);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== folder.name) {
    uniqueName(ctx, name, folder.parentId ?? -1, folder);
    const oldPath = folder.path;
    folder.name = name;
    folder.path = `${oldPath.slice(0, oldPath.lastIndexOf("/"))}/${name}`;
    for (const f of ctx.world.folders)
      if (f.path.startsWith(`${oldPath}/`)) f.path = folder.path + f.path.slice(oldPath.length);
    for (const p of ctx.world.programs) if (p.folder.value === folder.id) p.folder.folderName = name;
  }
  const description = params.get("description");
  if (description !== null) folder.description = description;
  folder.isArchive = booleanParam(params, "isArchive") ?? folder.isArchive;
  folder.updatedAt = ctx.now();
  return { result: [folderJson({ kind: "folder", folder }, ctx)] };
}

/** What a folder or program directly holds, each as {id, type}. */
function contents(ctx: HandlerContext, ref: FolderRef): { id: number; type: string }[] {
  const w = ctx.world;
  const here = (f: FolderRef) => f.id === ref.id && f.type === ref.type;
  const node = findNode(ctx, ref);
  if (!node) throw new MarketoApiError("702", `${ref.type} ${ref.id} not found`);
  const nested = children(ctx, node).map((n) =>
    n.kind === "folder" ? { id: n.folder.id, type: "Folder" } : { id: n.program.id, type: "Program" },
  );
  const emails =
    ref.type === "Program"
      ? w.emails.filter((e) => e.programId === ref.id).map((e) => ({ id: e.id, type: "Email" }))
      : [];
  const campaigns =
    ref.type === "Program"
      ? w.campaigns.filter((c) => c.programId === ref.id).map((c) => ({ id: c.id, type: "SmartCampaign" }))
      : [];
  return [
    ...nested,
    ...emails,
    ...w.lists.filter((l) => here(l.folder)).map((l) => ({ id: l.id, type: "StaticList" })),
    ...w.smartLists
      .filter((s) => here(s.folder) && s.campaignId === undefined)
      .map((s) => ({ id: s.id, type: "SmartList" })),
    ...campaigns,
    ...w.assets.snippets.filter((s) => here(s.folder)).map((s) => ({ id: s.id, type: "Snippet" })),
    ...w.assets.emailTemplates
      .filter((t) => here(t.folder))
      .map((t) => ({ id: t.id, type: "EmailTemplate" })),
    ...w.assets.landingPages.filter((p) => here(p.folder)).map((p) => ({ id: p.id, type: "LandingPage" })),
    ...w.assets.forms.filter((f) => here(f.folder)).map((f) => ({ id: f.id, type: "Form" })),
  ];
}

export function getFolderContent(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const ref = { id: toInt(id ?? "", "id"), type: typeParam(req.params) };
  return offsetPage(req, contents(ctx, ref), (item) => item);
}

/** "Deletion will fail if the folder has content" (Swagger deleteFolderUsingPOST). */
export function deleteFolder(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const params = formParams(req);
  if (typeParam(params) === "Program")
    throw new MarketoApiError(
      "709",
      "Programs are deleted with POST /rest/asset/v1/program/{id}/delete.json",
    );
  const folder = folderOr702(ctx, id);
  if (folder.isSystem)
    throw new MarketoApiError("709", `Folder ${folder.id} is a system folder and cannot be deleted`);
  const held = contents(ctx, { id: folder.id, type: "Folder" });
  if (held.length > 0)
    throw new MarketoApiError(
      "709",
      `Folder ${folder.id} is not empty (${held.length} items); empty it first`,
    );
  ctx.world.folders = ctx.world.folders.filter((f) => f !== folder);
  return { result: [{ id: folder.id }] };
}
