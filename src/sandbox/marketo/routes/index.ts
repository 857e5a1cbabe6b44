/**
 * The route table, one file per API under routes/ (lead-db, bulk, asset): real paths from the official
 * Swagger (paths.txt beside the spec). A real path the sandbox does not serve is 610 with a message that says so (real-paths.generated.ts); any other path
 * is 610 "Requested resource not found"; a listed path with another method is 605.
 * Deliberately absent because they do not exist on the real service (REAL-API.md A8):
 * /rest/v1/activities/emailbounced.json, /emailopened.json, /rest/v1/programs.json,
 * /rest/asset/v1/program/{id}/stats.json, /rest/asset/v1/landingPage/{id}/stats.json.
 * `DELETE /rest/v1/leads.json` is not in the Swagger but real clients send it (marketorestpython
 * `delete_lead`, and GRP's recorded `POST leads.json?_method=DELETE`).
 */
import { MARKETO_PATHS } from "../../../real-paths.generated.js";
import { realPaths } from "../../../real-paths.js";
import type { Route } from "../types.js";
import { ASSET_ROUTES } from "./asset.js";
import { BULK_ROUTES } from "./bulk.js";
import { LEAD_DB_ROUTES } from "./lead-db.js";

/** Marketo's real paths (Adobe's Swagger files): a path not emulated is named when it is one. */
const REAL_PATHS = realPaths(MARKETO_PATHS);

const shape = (template: string) => template.replace(/\{[^}]+\}/g, "{}");

export const ROUTES: readonly Route[] = [...LEAD_DB_ROUTES, ...BULK_ROUTES, ...ASSET_ROUTES];

export type RouteMatch =
  | { kind: "found"; route: Route; params: string[] }
  | { kind: "wrong-method" }
  | { kind: "bad-parameter"; template: string }
  | { kind: "not-emulated"; operation: string }
  | { kind: "not-found" };

/**
 * Routes by method and path. Without a route, Adobe's Swagger decides the answer: a real operation the
 * sandbox does not serve is "not emulated"; a served template whose id is not a number is a parameter
 * error; a real path asked with a method it does not serve is 605, as it is on the real service;
 * anything else is an unknown path.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method) return { kind: "found", route, params: m.slice(1) };
    pathKnown = true;
  }
  const real = REAL_PATHS.find(path);
  if (real?.methods.includes(method)) {
    const served = ROUTES.some(
      (route) => route.method === method && shape(route.template) === shape(real.template),
    );
    if (served) return { kind: "bad-parameter", template: real.template };
    return { kind: "not-emulated", operation: `${method} ${real.template}` };
  }
  return pathKnown || real ? { kind: "wrong-method" } : { kind: "not-found" };
}

export const isAssetPath = (path: string): boolean => path.startsWith("/rest/asset/");
