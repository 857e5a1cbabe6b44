/**
 * Audience exports (properties/{p}/audienceExports, Data API v1beta): create answers a long-running
 * Operation at once and the export stays CREATING for `delayMs` of the sandbox clock, then becomes
 * ACTIVE and can be queried in pages with offset/limit
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/audience-list-basics). Every
 * property has the audiences GA4 creates by itself, "All Users" and "Purchasers", plus "Engaged Users";
 * their users are drawn from a seed per property and audience, so an export is the same on every run.
 * Inferred (not documented): the Operation's name, querying a CREATING export refused with
 * FAILED_PRECONDITION, the audience ids, and the quota tokens charged.
 */
import { mulberry32 } from "../../prng.js";
import { invalidArgument, isObject, RpcError, rejectUnknownKeys } from "./rpc.js";

/** The dimensions of the audience export schema (developers.google.com/…/audience-list-api-schema). */
const DIMENSIONS = ["deviceId", "isAdsPersonalizationAllowed", "isLimitedAdTracking", "userId"] as const;
type Dimension = (typeof DIMENSIONS)[number];
const AUDIENCES: readonly (readonly [id: string, displayName: string, baseSize: number])[] = [
  ["1001", "All Users", 1500],
  ["1002", "Purchasers", 120],
  ["1003", "Engaged Users", 640],
];
const DEFAULT_LIMIT = 10_000;
const MAX_LIMIT = 250_000;
const DEFAULT_PAGE = 200;
const MAX_PAGE = 1000;

interface AudienceExport {
  id: string;
  propertyId: string;
  audienceId: string;
  displayName: string;
  dimensions: Dimension[];
  beginCreatingMs: number;
  rowCount: number;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A property ending in 0 has collected nothing (data/catalog-values.ts), so its audiences are empty. */
function audienceSize(propertyId: string, baseSize: number): number {
  const digit = Number(propertyId.at(-1) ?? "0");
  return digit === 0 ? 0 : baseSize + digit * 37;
}

function userRows(
  e: AudienceExport,
  offset: number,
  limit: number,
): { dimensionValues: { value: string }[] }[] {
  const prng = mulberry32(hash(`${e.propertyId}/${e.audienceId}`));
  const rows: { dimensionValues: { value: string }[] }[] = [];
  for (let i = 0; i < Math.min(e.rowCount, offset + limit); i++) {
    const user: Record<Dimension, string> = {
      deviceId: `${prng.int(100_000_000, 2_147_483_647)}.${prng.int(1_600_000_000, 1_730_000_000)}`,
      isAdsPersonalizationAllowed: prng.pick(["true", "true", "false", "(not set)"]),
      isLimitedAdTracking: prng.pick(["false", "false", "true", "(not set)"]),
      userId: prng.chance(0.25) ? `U${prng.int(10_000, 99_999)}` : "(not set)",
    };
    if (i >= offset) rows.push({ dimensionValues: e.dimensions.map((d) => ({ value: user[d] })) });
  }
  return rows;
}

function int64(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const text = typeof raw === "number" || typeof raw === "string" ? String(raw) : "";
  if (!/^-?\d+$/.test(text))
    throw invalidArgument(`Invalid value at '${name}' (TYPE_INT64), ${JSON.stringify(raw)}`);
  return Number(text);
}

export class AudienceExports {
  private readonly exports: AudienceExport[] = [];
  private nextId = 3_602_000_001;

  constructor(
    private readonly now: () => number,
    private readonly delayMs: number,
  ) {}

  private json(e: AudienceExport): Record<string, unknown> {
    const elapsed = this.now() - e.beginCreatingMs;
    const active = elapsed >= this.delayMs;
    const json: Record<string, unknown> = {
      name: `properties/${e.propertyId}/audienceExports/${e.id}`,
      audience: `properties/${e.propertyId}/audiences/${e.audienceId}`,
      audienceDisplayName: e.displayName,
      dimensions: e.dimensions.map((dimensionName) => ({ dimensionName })),
      state: active ? "ACTIVE" : "CREATING",
      beginCreatingTime: new Date(e.beginCreatingMs).toISOString(),
      creationQuotaTokensCharged: active ? 10 + Math.floor(e.rowCount / 100) : 0,
      percentageCompleted: active ? 100 : Math.floor((elapsed / this.delayMs) * 100),
    };
    if (active) json.rowCount = e.rowCount;
    return json;
  }

  private find(propertyId: string, id: string): AudienceExport {
    const found = this.exports.find((e) => e.propertyId === propertyId && e.id === id);
    if (!found)
      throw new RpcError(
        "NOT_FOUND",
        `Audience export properties/${propertyId}/audienceExports/${id} was not found.`,
      );
    return found;
  }

  create(propertyId: string, body: unknown): Record<string, unknown> {
    if (!isObject(body)) throw invalidArgument("The request body must be an AudienceExport JSON object.");
    rejectUnknownKeys(body, [
      "audience",
      "dimensions",
      "name",
      "audienceDisplayName",
      "state",
      "beginCreatingTime",
      "creationQuotaTokensCharged",
      "rowCount",
      "errorMessage",
      "percentageCompleted",
    ]);
    const audience = typeof body.audience === "string" ? body.audience : "";
    const match = /^properties\/(\d+)\/audiences\/(\d+)$/.exec(audience);
    if (!match)
      throw invalidArgument('audience is required, as "properties/{property}/audiences/{audience}".');
    if (match[1] !== propertyId)
      throw invalidArgument(`audience ${audience} does not belong to properties/${propertyId}.`);
    const spec = AUDIENCES.find(([id]) => id === match[2]);
    if (!spec) throw new RpcError("NOT_FOUND", `Audience ${audience} was not found.`);
    const raw = body.dimensions;
    if (!Array.isArray(raw) || raw.length === 0)
      throw invalidArgument("dimensions is required: request at least one, e.g. deviceId.");
    const dimensions = raw.map((d): Dimension => {
      const name = isObject(d) ? d.dimensionName : undefined;
      if (typeof name !== "string" || !(DIMENSIONS as readonly string[]).includes(name)) {
        throw invalidArgument(
          `Field ${String(name)} is not a valid dimension for audience exports: use ${DIMENSIONS.join(", ")}.`,
        );
      }
      return name as Dimension;
    });
    const created: AudienceExport = {
      id: String(this.nextId++),
      propertyId,
      audienceId: spec[0],
      displayName: spec[1],
      dimensions,
      beginCreatingMs: this.now(),
      rowCount: audienceSize(propertyId, spec[2]),
    };
    this.exports.push(created);
    return {
      name: `properties/${propertyId}/operations/audienceExport-${created.id}`,
      metadata: { "@type": "type.googleapis.com/google.analytics.data.v1beta.AudienceExportMetadata" },
      done: false,
    };
  }

  get(propertyId: string, id: string): Record<string, unknown> {
    return this.json(this.find(propertyId, id));
  }

  list(propertyId: string, url: URL): Record<string, unknown> {
    const rawSize = url.searchParams.get("pageSize");
    const size =
      rawSize === null || rawSize === "" || rawSize === "0"
        ? DEFAULT_PAGE
        : int64(rawSize, "page_size", DEFAULT_PAGE);
    if (size < 0) throw invalidArgument("page_size must not be negative.");
    const token = url.searchParams.get("pageToken") ?? "";
    const decoded = /^(\d+):(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
    if (token !== "" && decoded?.[1] !== propertyId) {
      throw invalidArgument("Invalid page token: pass the nextPageToken of the previous response unchanged.");
    }
    const offset = token === "" ? 0 : Number(decoded?.[2]);
    const all = this.exports.filter((e) => e.propertyId === propertyId);
    const page = all.slice(offset, offset + Math.min(size, MAX_PAGE));
    const body: Record<string, unknown> = {};
    if (page.length > 0) body.audienceExports = page.map((e) => this.json(e));
    const next = offset + page.length;
    if (next < all.length) body.nextPageToken = Buffer.from(`${propertyId}:${next}`).toString("base64url");
    return body;
  }

  query(propertyId: string, id: string, body: unknown): Record<string, unknown> {
    const found = this.find(propertyId, id);
    const request = body === undefined ? {} : body;
    if (!isObject(request)) throw invalidArgument("The request body must be a JSON object.");
    rejectUnknownKeys(request, ["offset", "limit"]);
    const offset = int64(request.offset, "offset", 0);
    const limit = int64(request.limit, "limit", DEFAULT_LIMIT);
    if (offset < 0) throw invalidArgument("offset must not be negative.");
    if (limit <= 0) throw invalidArgument("limit must be positive.");
    const exportJson = this.json(found);
    if (exportJson.state !== "ACTIVE") {
      throw new RpcError(
        "FAILED_PRECONDITION",
        `Audience export properties/${propertyId}/audienceExports/${id} is still CREATING: poll it until its state is ACTIVE.`,
      );
    }
    const rows = userRows(found, offset, Math.min(limit, MAX_LIMIT));
    return {
      ...(rows.length > 0 ? { audienceRows: rows } : {}),
      audienceExport: exportJson,
      rowCount: found.rowCount,
    };
  }
}

const AUDIENCE_EXPORTS = /^\/v1beta\/properties\/([^/:]+)\/audienceExports(?:\/([^/:]+))?(?::([A-Za-z]+))?$/;
export type AudienceCall = {
  propertyId: string;
  method: "create" | "list" | "get" | "query";
  exportId: string;
};

const AUDIENCE_METHODS: Record<string, AudienceCall["method"]> = {
  "POST collection": "create",
  "GET collection": "list",
  "GET item": "get",
  "POST item:query": "query",
};
export const AUDIENCE_RPC = {
  create: "CreateAudienceExport",
  list: "ListAudienceExports",
  get: "GetAudienceExport",
  query: "QueryAudienceExport",
} as const;

/** properties/{p}/audienceExports: POST create, GET list, GET …/{id}, POST …/{id}:query. */
export function audienceRoute(httpMethod: string | undefined, path: string): AudienceCall | undefined {
  const match = AUDIENCE_EXPORTS.exec(path);
  if (!match) return undefined;
  const [, propertyId = "", exportId = "", verb] = match;
  const key = `${httpMethod ?? ""} ${exportId === "" ? "collection" : "item"}${verb ? `:${verb}` : ""}`;
  const method = AUDIENCE_METHODS[key];
  return method ? { propertyId, method, exportId } : undefined;
}
