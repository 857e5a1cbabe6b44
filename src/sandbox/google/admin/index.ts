/**
 * The GA4 Admin API v1beta emulator (real host https://analyticsadmin.googleapis.com), mounted under /admin.
 * Routes are the discovery document's flat paths; a served method with a malformed id in its path is an
 * INVALID_ARGUMENT, a real method the sandbox does not serve is a google.rpc NOT_FOUND that says so
 * (real-paths.generated.ts), anything else a plain NOT_FOUND.
 */
import { GA4_ADMIN_PATHS } from "../../../real-paths.generated.js";
import { realPaths } from "../../../real-paths.js";
import { invalidArgument, notFound, RpcError, sendJson, sendRpcError } from "../http.js";
import type { SubHandler } from "../types.js";
import { runAccountAccessReport, runPropertyAccessReport } from "./access-report.js";
import { deleteAccount, getAccount, listAccountSummaries, listAccounts, patchAccount } from "./accounts.js";
import { recordChange, searchChangeHistoryEvents } from "./change-history.js";
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
import {
  createAdsLink,
  createFirebaseLink,
  createSecret,
  deleteAdsLink,
  deleteFirebaseLink,
  deleteSecret,
  getDataSharingSettings,
  getSecret,
  listAdsLinks,
  listFirebaseLinks,
  listSecrets,
  patchAdsLink,
  patchSecret,
} from "./links.js";
import { createProperty, deleteProperty, getProperty, listProperties, patchProperty } from "./properties.js";

/** The Admin API's real paths (Google's discovery document): a path not emulated is named when it is one. */
const ADMIN_PATHS = realPaths(GA4_ADMIN_PATHS);

export type { AdminContext } from "./context.js";

type Handler = (r: AdminRequest) => Record<string, unknown>;

interface Route {
  method: string;
  template: string;
  /** Captures any segment where the template has an id, so that a malformed id still finds its method. */
  pattern: RegExp;
  names: readonly string[];
  handler: Handler;
}

/** Turns "/v1beta/properties/{property}/keyEvents" into a regexp capturing the ids. */
function route(method: string, template: string, handler: Handler): Route {
  const names: string[] = [];
  const source = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/:]+)";
  });
  return { method, template, pattern: new RegExp(`^${source}$`), names, handler };
}

const P = "/v1beta/properties/{property}";
const SECRETS = `${P}/dataStreams/{dataStream}/measurementProtocolSecrets`;

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
  route("GET", SECRETS, listSecrets),
  route("POST", SECRETS, createSecret),
  route("GET", `${SECRETS}/{secret}`, getSecret),
  route("PATCH", `${SECRETS}/{secret}`, patchSecret),
  route("DELETE", `${SECRETS}/{secret}`, deleteSecret),
  route("GET", `${P}/googleAdsLinks`, listAdsLinks),
  route("POST", `${P}/googleAdsLinks`, createAdsLink),
  route("PATCH", `${P}/googleAdsLinks/{googleAdsLink}`, patchAdsLink),
  route("DELETE", `${P}/googleAdsLinks/{googleAdsLink}`, deleteAdsLink),
  route("GET", `${P}/firebaseLinks`, listFirebaseLinks),
  route("POST", `${P}/firebaseLinks`, createFirebaseLink),
  route("DELETE", `${P}/firebaseLinks/{firebaseLink}`, deleteFirebaseLink),
  route("GET", "/v1beta/accounts/{account}/dataSharingSettings", getDataSharingSettings),
  route("POST", "/v1beta/accounts/{account}:searchChangeHistoryEvents", searchChangeHistoryEvents),
  route("POST", `${P}:runAccessReport`, runPropertyAccessReport),
  route("POST", "/v1beta/accounts/{account}:runAccessReport", runAccountAccessReport),
];

/**
 * Every id of the emulated resources is a number. A path with another id reaches the method it names and
 * is refused as INVALID_ARGUMENT, the way the Admin API refuses a malformed resource name: "The value for
 * the 'parent' field was invalid but must be in format 'accounts/123'." (a real answer quoted in
 * googleapis/nodejs-analytics-admin#246). That the same wording covers `name` and path ids is inferred;
 * the bad id is named here so that the caller sees which segment is wrong.
 */
function malformedId(r: Route, params: Record<string, string>): RpcError | undefined {
  const bad = r.names.find((name) => !/^[0-9]+$/.test(params[name] ?? ""));
  if (bad === undefined) return undefined;
  // A collection (list, create) names its parent; a resource, a singleton or a custom method its name.
  const collection = ROUTES.some((other) => other.template.startsWith(`${r.template}/{`));
  const resource = r.template.replace(/^\/v1beta\//, "").replace(/:\w+$/, "");
  const format = (collection ? resource.replace(/\/[^/]+$/, "") : resource).replace(/\{\w+\}/g, "123");
  return invalidArgument(
    `The value for the '${collection ? "parent" : "name"}' field was invalid but must be in format '${format}': "${params[bad] ?? ""}" is not a numeric id.`,
  );
}

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
        const malformed = malformedId(candidate, params);
        const result = candidate.handler({
          ctx,
          req,
          url,
          body,
          params,
          ...(malformed ? { malformed } : {}),
        });
        recordChange(ctx, { req, params }, method, candidate.template, result);
        sendJson(res, 200, result);
        return;
      }
      const real = ADMIN_PATHS.find(path);
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
