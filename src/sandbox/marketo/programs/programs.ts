/**
 * Asset API programs (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs).
 * Asset browse endpoints page with offset/maxReturn (no tokens) and end with the "No assets found"
 * warning and NO `result` key.
 */

import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type Program,
} from "../types.js";
import { assetDate, parseMarketoDate } from "../wire/codec.js";
import { boundedInt, multi, toInt } from "../wire/params.js";

export const NO_ASSETS = "No assets found for the given search criteria.";
/** Asset browse: maxReturn default 20, max 200 (ADE rest-api.md "Limits"). */
const MAX_RETURN = 200;
const DEFAULT_RETURN = 20;

/** Applies offset/maxReturn; the no-match shape when the page is empty. */
export function offsetPage<T>(
  req: ApiRequest,
  items: readonly T[],
  format: (item: T) => unknown,
): HandlerResult {
  const maxReturn = boundedInt(req.params, "maxReturn", DEFAULT_RETURN, 1, MAX_RETURN);
  const offset = boundedInt(req.params, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const page = items.slice(offset, offset + maxReturn);
  return page.length === 0 ? { warnings: [NO_ASSETS] } : { result: page.map(format) };
}

/** earliestUpdatedAt / latestUpdatedAt filters shared by asset browse endpoints. */
export function updatedWithin(req: ApiRequest): (updatedAt: number) => boolean {
  const bound = (name: string): number | undefined => {
    const raw = req.params.get(name);
    if (raw === null || raw === "") return undefined;
    const ms = parseMarketoDate(raw);
    if (ms === undefined) throw new MarketoApiError("1003", `Invalid value '${raw}' for ${name}`);
    return ms;
  };
  const earliest = bound("earliestUpdatedAt");
  const latest = bound("latestUpdatedAt");
  return (at) => (earliest === undefined || at >= earliest) && (latest === undefined || at <= latest);
}

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
    ...(withTags ? { tags: p.tags, costs: [] } : {}),
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
