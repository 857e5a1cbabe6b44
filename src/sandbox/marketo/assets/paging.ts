/**
 * Asset API browsing (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/assets
 * "Browse"): pages by offset/maxReturn (no tokens), and a page with nothing in it is the "No assets found"
 * warning with NO `result` key; `earliestUpdatedAt`/`latestUpdatedAt` narrow by update time.
 */
import { type ApiRequest, type HandlerResult, MarketoApiError } from "../types.js";
import { parseMarketoDate } from "../wire/codec.js";
import { boundedInt } from "../wire/params.js";

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
