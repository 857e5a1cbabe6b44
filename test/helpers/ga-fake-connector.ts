import type { GoogleAnalyticsConnector } from "../../src/connectors/google/connector.js";
import type {
  CheckCompatibilityResponse,
  GoogleApi,
  GoogleRequest,
  Metadata,
  RunReportResponse,
} from "../../src/connectors/google/types.js";
import { connectionFrom } from "../../src/tools/connection-from.js";
import type { ToolContext } from "../../src/tools/types.js";

export interface RecordedCall {
  method: string;
  args: unknown[];
}

type Handler<A extends unknown[], R> = (...args: A) => R | Promise<R>;

/** A stand-in for GoogleAnalyticsConnector: no network, every call recorded, answers scripted per test. */
export class FakeGa {
  readonly account = "main";
  readonly calls: RecordedCall[] = [];
  metadata: Metadata = STANDARD_METADATA;
  onRunReport: Handler<[string, Record<string, unknown>], RunReportResponse> = () => ({});
  onRealtime: Handler<[string, Record<string, unknown>], RunReportResponse> = () => ({});
  onCompatibility: Handler<[string, Record<string, unknown>], CheckCompatibilityResponse> = () => ({});
  /** By default a create answers the created resource, named as Google names it; anything else `{}`. */
  onRequest: Handler<[GoogleApi, GoogleRequest], unknown> = (_api, req) => {
    const path = String(req.path);
    if (req.method !== "POST") return {};
    if (path === "v1beta/properties") return { name: "properties/1", ...(req.body as object) };
    if (/\/keyEvents$/.test(path))
      return { name: `${path.replace(/^v1beta\//, "")}/1`, ...(req.body as object) };
    return {};
  };
  onCall: Handler<[GoogleRequest & { api?: GoogleApi }], { api: GoogleApi; body: unknown }> = () => ({
    api: "admin",
    body: {},
  });
  lists: Record<string, unknown[]> = {};

  #record(method: string, ...args: unknown[]) {
    this.calls.push({ method, args });
  }

  callsOf(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  async getMetadata(propertyId: string): Promise<Metadata> {
    this.#record("getMetadata", propertyId);
    return this.metadata;
  }

  /** The field list read again: `refreshed` when a test sets it (a field made since), else nothing newer. */
  refreshed: Metadata | undefined;
  async refreshMetadata(propertyId: string): Promise<Metadata | undefined> {
    this.#record("refreshMetadata", propertyId);
    if (this.refreshed) this.metadata = this.refreshed;
    return this.refreshed;
  }

  async runReport(propertyId: string, body: Record<string, unknown>): Promise<RunReportResponse> {
    this.#record("runReport", propertyId, body);
    return this.onRunReport(propertyId, body);
  }

  async runRealtimeReport(propertyId: string, body: Record<string, unknown>): Promise<RunReportResponse> {
    this.#record("runRealtimeReport", propertyId, body);
    return this.onRealtime(propertyId, body);
  }

  async checkCompatibility(
    propertyId: string,
    body: Record<string, unknown>,
  ): Promise<CheckCompatibilityResponse> {
    this.#record("checkCompatibility", propertyId, body);
    return this.onCompatibility(propertyId, body);
  }

  async timeZone(propertyId: string): Promise<string | undefined> {
    this.#record("timeZone", propertyId);
    const property = (await this.onRequest("admin", {
      method: "GET",
      path: `v1beta/properties/${propertyId}`,
    })) as { timeZone?: string };
    return property.timeZone || undefined;
  }

  async propertyFacts(propertyId: string): Promise<{ timeZone?: string; createTime?: string }> {
    this.#record("propertyFacts", propertyId);
    const property = (await this.onRequest("admin", {
      method: "GET",
      path: `v1beta/properties/${propertyId}`,
    })) as { timeZone?: string; createTime?: string };
    return {
      ...(property.timeZone ? { timeZone: property.timeZone } : {}),
      ...(property.createTime ? { createTime: property.createTime } : {}),
    };
  }

  quota(): undefined {
    return undefined;
  }

  async request<T>(api: GoogleApi, req: GoogleRequest): Promise<T> {
    this.#record("request", api, req);
    return (await this.onRequest(api, req)) as T;
  }

  async call(req: GoogleRequest & { api?: GoogleApi }): Promise<{ api: GoogleApi; body: unknown }> {
    this.#record("call", req);
    return this.onCall(req);
  }

  async listAll<T>(path: string, key: string, query?: unknown): Promise<{ items: T[] }> {
    this.#record("listAll", path, key, query);
    return { items: (this.lists[path] ?? []) as T[] };
  }
}

export function contextFor(
  ga: FakeGa,
  accounts: string[] = ["main"],
): ToolContext & { schemaContext: { accounts: string[] } } {
  return {
    connection: connectionFrom({ google: async () => ga as unknown as GoogleAnalyticsConnector }),
    progress: () => {},
    schemaContext: { accounts },
  };
}

export const STANDARD_METADATA: Metadata = {
  name: "properties/123/metadata",
  dimensions: [
    { apiName: "date" },
    { apiName: "country" },
    { apiName: "city" },
    { apiName: "pagePath" },
    { apiName: "eventName" },
    { apiName: "sessionSource" },
    { apiName: "itemName" },
    { apiName: "customEvent:plan", customDefinition: true },
  ],
  metrics: [
    { apiName: "sessions", type: "TYPE_INTEGER" },
    { apiName: "activeUsers", type: "TYPE_INTEGER" },
    { apiName: "screenPageViews", type: "TYPE_INTEGER" },
    { apiName: "eventCount", type: "TYPE_INTEGER" },
    { apiName: "keyEvents", type: "TYPE_FLOAT", deprecatedApiNames: ["conversions"] },
    { apiName: "bounceRate", type: "TYPE_FLOAT" },
    { apiName: "totalRevenue", type: "TYPE_CURRENCY" },
    { apiName: "userEngagementDuration", type: "TYPE_SECONDS" },
  ],
};
