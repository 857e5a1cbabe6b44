/**
 * Asset API programs (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs):
 * browse (paged as every Asset browse is, assets/paging.ts), by id, by name.
 */

import { NO_ASSETS, offsetPage, updatedWithin } from "../assets/paging.js";
import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../types.js";
import { assetDate } from "../wire/codec.js";
import { multi, toInt } from "../wire/params.js";

export function formatProgram(p: Program, origin: string, withTags: boolean) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    createdAt: assetDate(p.createdAt),
    updatedAt: assetDate(p.updatedAt),
    url: `${origin}/#NP${p.id}A1`,
    type: p.type,
    channel: p.channel,
    // Programs report their folder with `value` (not `id` as requests and static lists do).
    folder: p.folder,
    status: p.status,
    workspace: p.workspace,
    headStart: false,
    ...(withTags ? { tags: p.tags, costs: p.costs ?? [] } : {}),
  };
}

const FILTERS: Record<string, (p: Program, value: string) => boolean> = {
  id: (p, v) => p.id === toInt(v, "filterValues"),
  programid: (p, v) => p.id === toInt(v, "filterValues"),
  folderid: (p, v) => p.folder.value === toInt(v, "filterValues"),
  workspace: (p, v) => p.workspace.toLowerCase() === v.toLowerCase(),
};

export function getPrograms(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const filterType = req.params.get("filterType");
  let match: (p: Program) => boolean = () => true;
  if (filterType !== null && filterType !== "") {
    const test = FILTERS[filterType.toLowerCase()];
    if (!test) throw new MarketoApiError("1003", `Invalid filterType '${filterType}'`);
    const values = multi(req.params, "filterValues");
    if (values.length === 0) throw new MarketoApiError("701", "filterValues cannot be blank");
    match = (p) => values.some((v) => test(p, v));
  }
  const inRange = updatedWithin(req);
  const programs = ctx.world.programs.filter((p) => match(p) && inRange(p.updatedAt));
  return offsetPage(req, programs, (p) => formatProgram(p, ctx.origin, false));
}

export function getProgramById(_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult {
  const programId = toInt(id ?? "", "programId");
  const program = ctx.world.programs.find((p) => p.id === programId);
  return program ? { result: [formatProgram(program, ctx.origin, true)] } : { warnings: [NO_ASSETS] };
}

export function getProgramByName(req: ApiRequest, ctx: HandlerContext): HandlerResult {
  const name = req.params.get("name");
  if (name === null || name === "") throw new MarketoApiError("701", "name cannot be blank");
  const program = ctx.world.programs.find((p) => p.name === name);
  return program ? { result: [formatProgram(program, ctx.origin, true)] } : { warnings: [NO_ASSETS] };
}
