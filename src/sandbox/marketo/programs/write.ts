/**
 * Program writes (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs):
 * create, update, clone, delete, approve/unapprove an email program, and browse by tag. Bodies are
 * x-www-form-urlencoded with `folder`, `tags` and `costs` as JSON text (ADE programs.md examples).
 */

import { emails } from "../assets/emails/read.js";
import { tokenKey } from "../assets/model.js";
import { NO_ASSETS, offsetPage } from "../assets/paging.js";
import { folderParam, formParams } from "../assets/params.js";
import { channelAllowed, channelNames } from "../assets/reference.js";
import { copyTokens } from "../assets/tokens.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../types.js";
import { isRecord, required, toInt } from "../wire/params.js";
import { formatProgram } from "./programs.js";

/** Program types as a create request names them (ADE programs.md "Create and Update": type). */
const TYPES: Readonly<Record<string, Program["type"]>> = {
  program: "Default",
  default: "Default",
  event: "Event",
  "event with webinar": "Webinar",
  webinar: "Webinar",
  engagement: "Engagement",
  email: "Email",
};
/** A new program's status: email programs start unapproved ("unlocked"), nurture programs "off". */
const NEW_STATUS: Record<Program["type"], string> = {
  Email: "unlocked",
  Engagement: "off",
  Default: "",
  Event: "",
  Webinar: "",
};

export function programOr702(ctx: HandlerContext, id: string | undefined): Program {
  const programId = toInt(id ?? "", "id");
  const program = ctx.world.programs.find((p) => p.id === programId);
  if (!program) throw new MarketoApiError("702", `Program ${programId} not found`);
  return program;
}

/** Programs sit in marketing folders of the Marketing Activities tree. */
function marketingFolder(params: URLSearchParams, ctx: HandlerContext): Program["folder"] {
  const ref = folderParam(params, "folder");
  if (!ref) throw new MarketoApiError("701", "folder cannot be blank");
  const folder = ctx.world.folders.find((f) => f.id === ref.id && f.folderType === "Marketing Folder");
  if (ref.type !== "Folder" || !folder) {
    throw new MarketoApiError(
      "1003",
      `Invalid folder ${JSON.stringify(ref)}: give {"id":<id>,"type":"Folder"} of a Marketing Activities folder (folders.json)`,
    );
  }
  return { type: "Folder", value: folder.id, folderName: folder.name };
}

function tagsParam(params: URLSearchParams): Program["tags"] | undefined {
  const raw = params.get("tags");
  if (raw === null || raw === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new MarketoApiError("1003", `Invalid value '${raw}' for tags`);
  }
  const ok = (t: unknown) => isRecord(t) && typeof t.tagType === "string" && typeof t.tagValue === "string";
  if (!Array.isArray(parsed) || !parsed.every(ok))
    throw new MarketoApiError("1003", `tags must be a JSON array of {"tagType":…,"tagValue":…}`);
  return parsed.map((t: { tagType: string; tagValue: string }) => ({
    tagType: t.tagType,
    tagValue: t.tagValue,
  }));
}

/** Period costs are not kept by the sandbox: refused rather than dropped silently. */
function refuseCosts(params: URLSearchParams): void {
  if ((params.get("costs") ?? "") !== "")
    throw new MarketoApiError("1003", "costs are not emulated by the sandbox; leave costs out");
}

function uniqueName(ctx: HandlerContext, name: string): void {
  // Program names are unique in the instance (the UI and the API refuse a second one).
  if (ctx.world.programs.some((p) => p.name === name))
    throw new MarketoApiError("709", `Program name '${name}' is already in use`);
}

export function createProgram(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const params = formParams(req);
  const name = required(params, "name");
  const folder = marketingFolder(params, ctx);
  const rawType = required(params, "type");
  const type = TYPES[rawType.toLowerCase()];
  if (!type)
    throw new MarketoApiError(
      "1003",
      `Invalid value '${rawType}' for type, must be one of Default, Event, Event with Webinar, Engagement, Email`,
    );
  const channel = required(params, "channel");
  if (!channelAllowed(type, channel)) {
    throw new MarketoApiError(
      "1003",
      `Invalid channel '${channel}' for a ${rawType} program; channels.json lists them: ${channelNames(type).join(", ")}`,
    );
  }
  refuseCosts(params);
  uniqueName(ctx, name);
  const now = ctx.now();
  const program: Program = {
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? "",
    type,
    channel,
    folder,
    status: NEW_STATUS[type],
    workspace: "Default",
    createdAt: now,
    updatedAt: now,
    tags: tagsParam(params) ?? [],
  };
  ctx.world.programs.push(program);
  return { result: [formatProgram(program, ctx.origin, true)] };
}

export function updateProgram(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = programOr702(ctx, id);
  const params = formParams(req);
  refuseCosts(params);
  const name = params.get("name");
  if (name !== null && name !== "" && name !== program.name) {
    uniqueName(ctx, name);
    program.name = name;
    for (const e of ctx.world.emails) if (e.programId === program.id) e.programName = name;
  }
  const description = params.get("description");
  if (description !== null) program.description = description;
  const tags = tagsParam(params);
  if (tags) {
    // Given tags replace those of the same type; others stay.
    const types = new Set(tags.map((t) => t.tagType));
    program.tags = [...program.tags.filter((t) => !types.has(t.tagType)), ...tags];
  }
  program.updatedAt = ctx.now();
  return { result: [formatProgram(program, ctx.origin, true)] };
}

/** The clone takes the program's My Tokens and emails (each email in the same state). */
export function cloneProgram(req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const source = programOr702(ctx, id);
  const params = formParams(req);
  const name = required(params, "name");
  const folder = marketingFolder(params, ctx);
  uniqueName(ctx, name);
  const now = ctx.now();
  const program: Program = {
    ...source,
    id: ctx.world.assets.nextId++,
    name,
    description: params.get("description") ?? source.description,
    folder,
    status: NEW_STATUS[source.type],
    createdAt: now,
    updatedAt: now,
    tags: source.tags.map((t) => ({ ...t })),
    costs: (source.costs ?? []).map((c) => ({ ...c })),
  };
  ctx.world.programs.push(program);
  copyTokens(ctx, { id: source.id, type: "Program" }, { id: program.id, type: "Program" });
  // Each email is copied with its versions: the copy's edits never reach the source's.
  const copy = emails.kind.copy;
  for (const email of ctx.world.emails.filter((e) => e.programId === source.id)) {
    ctx.world.emails.push({
      ...email,
      id: ctx.world.assets.nextId++,
      programId: program.id,
      programName: program.name,
      createdAt: now,
      approved: email.approved && copy(email.approved),
      draft: email.draft && copy(email.draft),
    });
  }
  return { result: [formatProgram(program, ctx.origin, true)] };
}

/** Deletes the program with what it holds: emails, tokens, lists, smart lists, campaigns, members. */
export function deleteProgram(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = programOr702(ctx, id);
  const w = ctx.world;
  const inProgram = (ref: { id: number; type: string }) => ref.type === "Program" && ref.id === program.id;
  w.programs = w.programs.filter((p) => p !== program);
  w.emails = w.emails.filter((e) => e.programId !== program.id);
  w.lists = w.lists.filter((l) => !inProgram(l.folder));
  w.smartLists = w.smartLists.filter((s) => !inProgram(s.folder));
  w.campaigns = w.campaigns.filter((c) => c.programId !== program.id);
  w.programMembers.delete(program.id);
  w.assets.tokens.delete(tokenKey({ id: program.id, type: "Program" }));
  return { result: [{ id: program.id }] };
}

/** Approval runs an email program; it needs an approved email in it (ADE programs.md "Approve"). */
export function approveProgram(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = programOr702(ctx, id);
  if (program.type !== "Email")
    throw new MarketoApiError(
      "709",
      `Program ${program.id} is a ${program.type} program; only email programs are approved`,
    );
  if (program.status === "locked")
    throw new MarketoApiError("709", `Program ${program.id} is already approved`);
  if (!ctx.world.emails.some((e) => e.programId === program.id && e.approved))
    throw new MarketoApiError("709", `Program ${program.id} has no approved email: approve its email first`);
  program.status = "locked";
  program.updatedAt = ctx.now();
  return { result: [{ id: program.id }] };
}

export function unapproveProgram(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const program = programOr702(ctx, id);
  if (program.type !== "Email" || program.status !== "locked")
    throw new MarketoApiError("709", `Program ${program.id} is not an approved email program`);
  program.status = "unlocked";
  program.updatedAt = ctx.now();
  return { result: [{ id: program.id }] };
}

export function getProgramsByTag(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const tagType = required(req.params, "tagType");
  const tagValue = required(req.params, "tagValue");
  const programs = ctx.world.programs.filter((p) =>
    p.tags.some((t) => t.tagType === tagType && t.tagValue === tagValue),
  );
  return programs.length === 0
    ? { warnings: [NO_ASSETS] }
    : offsetPage(req, programs, (p) => formatProgram(p, ctx.origin, true));
}
