/**
 * Parameters shared by the Asset API handlers: folder references given as JSON text
 * (`folder={"id":1056,"type":"Program"}`, ADE assets.md), form bodies of Asset POSTs, and the
 * parent a static list, smart list or campaign reports.
 */

import { type ApiRequest, type FolderRef, type HandlerContext, MarketoApiError } from "../types.js";
import { isRecord, toInt } from "../wire/params.js";

/** A `{"id":n,"type":"Folder"|"Program"}` parameter, or undefined when absent; 1003 when malformed. */
export function folderParam(params: URLSearchParams, name: string): FolderRef | undefined {
  const raw = params.get(name);
  if (raw === null || raw === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new MarketoApiError("1003", `Invalid value '${raw}' for ${name}`);
  }
  if (!isRecord(value) || (typeof value.id !== "number" && typeof value.id !== "string")) {
    throw new MarketoApiError("1003", `Invalid value '${raw}' for ${name}`);
  }
  const type = typeof value.type === "string" ? value.type.toLowerCase() : "folder";
  if (type !== "folder" && type !== "program") {
    throw new MarketoApiError("1003", `Invalid folder type '${String(value.type)}' for ${name}`);
  }
  return { id: toInt(String(value.id), `${name}.id`), type: type === "folder" ? "Folder" : "Program" };
}

/** A required `folder` parameter naming a program or folder that exists: 701 when absent, 1003 when unknown. */
export function existingFolder(ctx: HandlerContext, params: URLSearchParams): FolderRef {
  const ref = folderParam(params, "folder");
  if (!ref) throw new MarketoApiError("701", "folder cannot be blank");
  const exists =
    ref.type === "Program"
      ? ctx.world.programs.some((p) => p.id === ref.id)
      : ctx.world.folders.some((f) => f.id === ref.id);
  if (!exists)
    throw new MarketoApiError("1003", `Invalid folder ${JSON.stringify(ref)}: no such ${ref.type}`);
  return ref;
}

/** Query parameters plus the x-www-form-urlencoded body of an Asset POST (ADE assets.md). */
export function formParams(req: ApiRequest): URLSearchParams {
  const params = new URLSearchParams(req.params);
  for (const [k, v] of new URLSearchParams(req.body)) params.set(k, v);
  return params;
}

export const sameFolder = (a: FolderRef, b: FolderRef): boolean => a.id === b.id && a.type === b.type;

/** `true`/`false` parameters; anything else is 1003. */
export function booleanParam(params: URLSearchParams, name: string): boolean | undefined {
  const raw = params.get(name);
  if (raw === null || raw === "") return undefined;
  if (raw !== "true" && raw !== "false")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for ${name}`);
  return raw === "true";
}
