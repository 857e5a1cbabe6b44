/**
 * Folders (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/folders):
 * the Lead Database, Marketing Activities and Design Studio trees, programs included as folders of type
 * "Program". Browsing walks down from `root` (default: every root) to `maxDepth` levels (default 2),
 * parents before children, and pages with offset/maxReturn.
 */

import {
  type ApiRequest,
  type AssetFolder,
  type FolderRef,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { boundedInt, toInt } from "../wire/params.js";
import { NO_ASSETS, offsetPage } from "./paging.js";
import { folderParam } from "./params.js";

export type Node = { kind: "folder"; folder: AssetFolder } | { kind: "program"; program: Program };

const WORKSPACE = "Default";

/** The real shape keeps `description`, `url` and `parent` as null when unset (ADE folders.md examples). */
export function folderJson(node: Node, ctx: HandlerContext): Record<string, unknown> {
  if (node.kind === "program") {
    const p = node.program;
    const parent = ctx.world.folders.find((f) => f.id === p.folder.value);
    return {
      name: p.name,
      description: p.description,
      createdAt: assetDate(p.createdAt),
      updatedAt: assetDate(p.updatedAt),
      url: `${ctx.origin}/#NP${p.id}A1`,
      folderId: { id: p.id, type: "Program" },
      folderType: "Program",
      parent: { id: p.folder.value, type: "Folder" },
      path: `${parent?.path ?? ""}/${p.name}`,
      isArchive: false,
      isSystem: false,
      accessZoneId: 1,
      workspace: p.workspace,
      id: p.id,
    };
  }
  const f = node.folder;
  return {
    name: f.name,
    description: f.description,
    createdAt: assetDate(f.createdAt),
    updatedAt: assetDate(f.updatedAt),
    url: f.folderType === "Marketing Folder" ? `${ctx.origin}/#MF${f.id}A1` : null,
    folderId: { id: f.id, type: "Folder" },
    folderType: f.folderType,
    parent: f.parentId === null ? null : { id: f.parentId, type: "Folder" },
    path: f.path,
    isArchive: f.isArchive ?? false,
    isSystem: f.isSystem,
    accessZoneId: 1,
    workspace: WORKSPACE,
    id: f.id,
  };
}

export function findNode(ctx: HandlerContext, ref: FolderRef): Node | undefined {
  if (ref.type === "Program") {
    const program = ctx.world.programs.find((p) => p.id === ref.id);
    return program ? { kind: "program", program } : undefined;
  }
  const folder = ctx.world.folders.find((f) => f.id === ref.id);
  return folder ? { kind: "folder", folder } : undefined;
}

export function children(ctx: HandlerContext, node: Node): Node[] {
  if (node.kind === "program") return [];
  const id = node.folder.id;
  return [
    ...ctx.world.folders.filter((f) => f.parentId === id).map((folder): Node => ({ kind: "folder", folder })),
    ...ctx.world.programs
      .filter((p) => p.folder.value === id)
      .map((program): Node => ({ kind: "program", program })),
  ];
}

/** Pre-order walk: each node, then its children, down to `maxDepth` levels below the start. */
function walk(ctx: HandlerContext, start: Node, maxDepth: number, out: Node[], depth = 0): void {
  out.push(start);
  if (depth >= maxDepth) return;
  for (const child of children(ctx, start)) walk(ctx, child, maxDepth, out, depth + 1);
}

function workspaceMatches(params: URLSearchParams): boolean {
  const workspace = params.get("workSpace") ?? params.get("workspace");
  return workspace === null || workspace === "" || workspace.toLowerCase() === WORKSPACE.toLowerCase();
}

export function getFolders(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const root = folderParam(req.params, "root");
  const maxDepth = boundedInt(req.params, "maxDepth", 2, 0, Number.MAX_SAFE_INTEGER);
  const starts: Node[] = root
    ? [findNode(ctx, root)].filter((n): n is Node => n !== undefined)
    : ctx.world.folders.filter((f) => f.parentId === null).map((folder) => ({ kind: "folder", folder }));
  const nodes: Node[] = [];
  if (workspaceMatches(req.params)) for (const start of starts) walk(ctx, start, maxDepth, nodes);
  return offsetPage(req, nodes, (node) => folderJson(node, ctx));
}

export function getFolderByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const type = req.params.get("type");
  if (type !== null && type !== "" && type !== "Folder" && type !== "Program") {
    throw new MarketoApiError("1003", `Invalid value '${type}' for type`);
  }
  const root = folderParam(req.params, "root");
  let scope: Node[] = ctx.world.folders.map((folder) => ({ kind: "folder", folder }));
  if (root) {
    const start = findNode(ctx, root);
    scope = [];
    if (start) walk(ctx, start, Number.MAX_SAFE_INTEGER, scope);
  }
  // The name applies to folders, not programs (Swagger getFolderByNameUsingGET).
  const found = workspaceMatches(req.params)
    ? scope.filter((n) => n.kind === "folder" && n.folder.name === name && type !== "Program")
    : [];
  return found.length > 0 ? { result: found.map((n) => folderJson(n, ctx)) } : { warnings: [NO_ASSETS] };
}

export function getFolderById(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const type = req.params.get("type");
  if (type === null || type === "") throw new MarketoApiError("701", "type cannot be blank");
  if (type !== "Folder" && type !== "Program")
    throw new MarketoApiError("1003", `Invalid value '${type}' for type`);
  const node = findNode(ctx, { id: toInt(id ?? "", "id"), type });
  return node ? { result: [folderJson(node, ctx)] } : { warnings: [NO_ASSETS] };
}
