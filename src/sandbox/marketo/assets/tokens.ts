/**
 * My Tokens of a folder or a program (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/tokens):
 * read, create-or-update by name, delete by name and type. Bodies are x-www-form-urlencoded; the
 * folder's kind comes from `folderType` (Swagger: optional on GET, required on create; default Folder).
 */

import {
  type ApiRequest,
  type FolderRef,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
} from "../types.js";
import { required, toInt } from "../wire/params.js";
import { type MyToken, TOKEN_TYPES, type TokenType, tokenKey } from "./model.js";
import { formParams } from "./params.js";

/** "The name field of the token may not exceed 50 characters" (ADE tokens.md "Create and Update"). */
const MAX_NAME = 50;

function folderOf(params: URLSearchParams, rawId: string | undefined, ctx: HandlerContext): FolderRef {
  const raw = params.get("folderType");
  const type = raw === null || raw === "" ? "Folder" : raw;
  if (type !== "Folder" && type !== "Program")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for folderType, must be Folder or Program`);
  const id = toInt(rawId ?? "", "id");
  const exists =
    type === "Program"
      ? ctx.world.programs.some((p) => p.id === id)
      : ctx.world.folders.some((f) => f.id === id);
  // 702 "No data found for given search scope" (ADE error-codes.md) for a folder that is not there.
  if (!exists) throw new MarketoApiError("702", `${type} ${id} not found; check the id and folderType`);
  return { id, type };
}

/** The entry as the docs' examples print it: the folder as {type, value}, each token with its link. */
function answer(ref: FolderRef, tokens: readonly MyToken[], ctx: HandlerContext): HandlerResult {
  const link = ref.type === "Program" ? `#NP${ref.id}C3` : `#MF${ref.id}C3`;
  return {
    result: [
      {
        folder: { type: ref.type, value: ref.id },
        tokens: tokens.map((t) => ({ ...t, computedUrl: `${ctx.origin}/${link}` })),
      },
    ],
  };
}

export function getTokens(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const ref = folderOf(req.params, id, ctx);
  return answer(ref, ctx.world.assets.tokens.get(tokenKey(ref)) ?? [], ctx);
}

function tokenType(params: URLSearchParams): TokenType {
  const type = required(params, "type");
  if (!(TOKEN_TYPES as readonly string[]).includes(type)) {
    throw new MarketoApiError(
      "1003",
      `Invalid value '${type}' for type, must be one of ${TOKEN_TYPES.join(", ")}`,
    );
  }
  return type as TokenType;
}

/** Values the type cannot hold are refused as 1003 (ADE tokens.md "Data Type" table). */
function checkValue(type: TokenType, value: string): void {
  const ok =
    type === "date"
      ? /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
      : type === "number"
        ? value.trim() !== "" && Number.isFinite(Number(value))
        : type === "score"
          ? /^[+-=]?\d+$/.test(value) && Math.abs(Number(value.replace(/^[+=]/, ""))) <= 2 ** 31
          : true;
  if (!ok) throw new MarketoApiError("1003", `Invalid value '${value}' for a token of type ${type}`);
}

/** Creates the token, or updates the one of that name (ADE tokens.md: "or if they exist update them"). */
export function upsertToken(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const params = formParams(req);
  if ((params.get("folderType") ?? "") === "") throw new MarketoApiError("701", "folderType cannot be blank");
  const ref = folderOf(params, id, ctx);
  const name = required(params, "name");
  if (name.length > MAX_NAME)
    throw new MarketoApiError("1003", `Token name is ${name.length} characters; the maximum is ${MAX_NAME}`);
  const type = tokenType(params);
  const value = params.get("value");
  if (value === null) throw new MarketoApiError("701", "value cannot be blank");
  checkValue(type, value);
  const key = tokenKey(ref);
  const tokens = ctx.world.assets.tokens.get(key) ?? [];
  const at = tokens.findIndex((t) => t.name === name);
  const token: MyToken = { name, type, value };
  if (at === -1) tokens.push(token);
  else tokens[at] = token;
  ctx.world.assets.tokens.set(key, tokens);
  return answer(ref, [token], ctx);
}

/** Deletes by parent, name and type, "each of which are required" (ADE tokens.md "Delete"). */
export function deleteToken(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const params = formParams(req);
  const ref = folderOf(params, id, ctx);
  const name = required(params, "name");
  const type = tokenType(params);
  const tokens = ctx.world.assets.tokens.get(tokenKey(ref)) ?? [];
  const at = tokens.findIndex((t) => t.name === name && t.type === type);
  if (at === -1)
    throw new MarketoApiError("702", `No token '${name}' of type ${type} in ${ref.type} ${ref.id}`);
  tokens.splice(at, 1);
  return { result: [{ id: ref.id }] };
}

/** Copies a program's tokens to its clone (a cloned program keeps its My Tokens, as in the UI). */
export function copyTokens(ctx: HandlerContext, from: FolderRef, to: FolderRef): void {
  const tokens = ctx.world.assets.tokens.get(tokenKey(from));
  if (tokens)
    ctx.world.assets.tokens.set(
      tokenKey(to),
      tokens.map((t) => ({ ...t })),
    );
}
