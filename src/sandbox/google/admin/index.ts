/**
 * The GA4 Admin API v1beta emulator (real host https://analyticsadmin.googleapis.com), mounted under /admin.
 * Routes are the discovery document's flat paths; a real method the sandbox does not serve is a
 * google.rpc NOT_FOUND that says so (real-paths.generated.ts), anything else a plain NOT_FOUND.
 */
import { findRealPath } from "../../../real-paths.js";
import { notFound, RpcError, sendJson, sendRpcError } from "../http.js";
import type { SubHandler } from "../types.js";
import { deleteAccount, getAccount, listAccountSummaries, listAccounts, patchAccount } from "./accounts.js";
import type { AdminContext, AdminRequest } from "./context.js";
import {
  createConversionEvent,
  deleteConversionEvent,
  getConversionEvent,
  listConversionEvents,
  patchConversionEvent,
} from "./conversion-events.js";
import {
  archiveCustomDimension,
  createCustomDimension,
  getCustomDimension,
  listCustomDimensions,
  patchCustomDimension,
} from "./custom-dimensions.js";
import {
  archiveCustomMetric,
  createCustomMetric,
  getCustomMetric,
  listCustomMetrics,
  patchCustomMetric,
} from "./custom-metrics.js";
import { getDataRetention, patchDataRetention } from "./data-retention.js";
import {
  createDataStream,
  deleteDataStream,
  getDataStream,
  listDataStreams,
  patchDataStream,
} from "./data-streams.js";
import { createKeyEvent, deleteKeyEvent, getKeyEvent, listKeyEvents, patchKeyEvent } from "./key-events.js";
import { createProperty, deleteProperty, getProperty, listProperties, patchProperty } from "./properties.js";

export type { AdminContext } from "./context.js";

type Handler = (r: AdminRequest) => Record<string, unknown>;

interface Route {
  method: string;
  pattern: RegExp;
  names: readonly string[];
  handler: Handler;
}

/** Turns "/v1beta/properties/{property}/keyEvents" into a regexp capturing numeric ids. */
function route(method: string, template: string, handler: Handler): Route {
  const names: string[] = [];
  const source = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([0-9]+)";
  });
  return { method, pattern: new RegExp(`^${source}$`), names, handler };
}

const P = "/v1beta/properties/{property}";

const ROUTES: readonly Route[] = [
  route("GET", "/v1beta/accounts", listAccounts),
  route("GET", "/v1beta/accounts/{account}", getAccount),
  route("PATCH", "/v1beta/accounts/{account}", patchAccount),
  route("DELETE", "/v1beta/accounts/{account}", deleteAccount),
  route("GET", "/v1beta/accountSummaries", listAccountSummaries),
  route("GET", "/v1beta/properties", listProperties),
  route("POST", "/v1beta/properties", createProperty),
  route("GET", P, getProperty),
  route("PATCH", P, patchProperty),
  route("DELETE", P, deleteProperty),
  route("GET", `${P}/keyEvents`, listKeyEvents),
  route("POST", `${P}/keyEvents`, createKeyEvent),
  route("GET", `${P}/keyEvents/{keyEvent}`, getKeyEvent),
  route("PATCH", `${P}/keyEvents/{keyEvent}`, patchKeyEvent),
  route("DELETE", `${P}/keyEvents/{keyEvent}`, deleteKeyEvent),
  route("GET", `${P}/conversionEvents`, listConversionEvents),
  route("POST", `${P}/conversionEvents`, createConversionEvent),
  route("GET", `${P}/conversionEvents/{keyEvent}`, getConversionEvent),
  route("PATCH", `${P}/conversionEvents/{keyEvent}`, patchConversionEvent),
  route("DELETE", `${P}/conversionEvents/{keyEvent}`, deleteConversionEvent),
  route("GET", `${P}/customDimensions`, listCustomDimensions),
  route("POST", `${P}/customDimensions`, createCustomDimension),
  route("GET", `${P}/customDimensions/{customDimension}`, getCustomDimension),
  route("PATCH", `${P}/customDimensions/{customDimension}`, patchCustomDimension),
  route("POST", `${P}/customDimensions/{customDimension}:archive`, archiveCustomDimension),
  route("GET", `${P}/customMetrics`, listCustomMetrics),
  route("POST", `${P}/customMetrics`, createCustomMetric),
  route("GET", `${P}/customMetrics/{customMetric}`, getCustomMetric),
  route("PATCH", `${P}/customMetrics/{customMetric}`, patchCustomMetric),
  route("POST", `${P}/customMetrics/{customMetric}:archive`, archiveCustomMetric),
  route("GET", `${P}/dataRetentionSettings`, getDataRetention),
  route("PATCH", `${P}/dataRetentionSettings`, patchDataRetention),
  route("GET", `${P}/dataStreams`, listDataStreams),
  route("POST", `${P}/dataStreams`, createDataStream),
  route("GET", `${P}/dataStreams/{dataStream}`, getDataStream),
  route("PATCH", `${P}/dataStreams/{dataStream}`, patchDataStream),
  route("DELETE", `${P}/dataStreams/{dataStream}`, deleteDataStream),
];

export function createAdminApi(ctx: AdminContext): { handle: SubHandler; stats(): { requests: number } } {
  let requests = 0;
  const handle: SubHandler = async (req, res, path, url, body) => {
    requests++;
    try {
      const method = req.method ?? "GET";
      for (const candidate of ROUTES) {
        if (candidate.method !== method) continue;
        const match = candidate.pattern.exec(path);
        if (!match) continue;
        const params: Record<string, string> = {};
        candidate.names.forEach((name, i) => {
          params[name] = match[i + 1] ?? "";
        });
        sendJson(res, 200, candidate.handler({ ctx, req, url, body, params }));
        return;
      }
      const real = findRealPath("ga4-admin", path);
      if (real?.methods.includes(method)) {
        throw notFound(
          `${method} ${real.template} is a real Admin API method that this sandbox does not emulate.`,
        );
      }
      throw notFound(`The requested URL ${method} ${path} was not found on this server.`);
    } catch (error) {
      if (error instanceof RpcError) sendRpcError(res, error);
      else throw error;
    }
  };
  return { handle, stats: () => ({ requests }) };
}
