/**
 * The property's links and secrets and the account's data sharing settings, with the field rules of
 * analyticsadmin v1beta (discovery document, schemas MeasurementProtocolSecret, GoogleAdsLink,
 * FirebaseLink, DataSharingSettings):
 * - measurementProtocolSecrets under a data stream: displayName required, secretValue output only;
 * - googleAdsLinks: customerId required and immutable, only adsPersonalizationEnabled can change;
 * - firebaseLinks: "Properties can have at most one FirebaseLink"; project is 'projects/{number or id}'
 *   and always comes back with a number;
 * - dataSharingSettings: read-only in v1beta (GET accounts/{a}/dataSharingSettings).
 */
import { randomBytes } from "node:crypto";
import { invalidArgument, notFound, parseJsonObject, RpcError } from "../http.js";
import type { WorldFirebaseLink, WorldGoogleAdsLink, WorldMeasurementProtocolSecret } from "../model.js";
import { type AdminRequest, authorize, iso, requireAccountRole, requireProperty } from "./context.js";
import { listBody, paginate } from "./paging.js";
import { PropertyResources } from "./resources.js";
import {
  checkMaxLength,
  optionalString,
  parseUpdateMask,
  rejectUnknownFields,
  requireNonEmpty,
} from "./validate.js";

function streamOf(r: AdminRequest, write: boolean) {
  const caller = authorize(
    r,
    write ? "UpdateMeasurementProtocolSecret" : "ListMeasurementProtocolSecrets",
    write,
  );
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", write ? "editor" : "viewer");
  const stream = r.ctx.world.dataStreams(property.id).find((s) => s.id === r.params.dataStream);
  if (!stream) throw notFound();
  return { property, stream };
}

function secretJson(s: WorldMeasurementProtocolSecret): Record<string, unknown> {
  return {
    name: `properties/${s.propertyId}/dataStreams/${s.streamId}/measurementProtocolSecrets/${s.id}`,
    displayName: s.displayName,
    secretValue: s.secretValue,
  };
}

function findSecret(r: AdminRequest, propertyId: string, streamId: string): WorldMeasurementProtocolSecret {
  const found = r.ctx.world.measurementProtocolSecrets
    .list(propertyId)
    .find((s) => s.streamId === streamId && s.id === r.params.secret);
  if (!found) throw notFound();
  return found;
}

function secretDisplayName(json: Record<string, unknown>): string {
  const name = requireNonEmpty(
    optionalString(json, "displayName", "measurement_protocol_secret"),
    "displayName",
    "a human-readable name for the secret.",
  );
  checkMaxLength(name, 100, "displayName");
  return name;
}

export function listSecrets(r: AdminRequest): Record<string, unknown> {
  const { property, stream } = streamOf(r, false);
  const all = r.ctx.world.measurementProtocolSecrets
    .list(property.id)
    .filter((s) => s.streamId === stream.id);
  const page = paginate(all, r.url, `measurementProtocolSecrets|${stream.id}`);
  return listBody("measurementProtocolSecrets", { ...page, items: page.items.map(secretJson) });
}

export function getSecret(r: AdminRequest): Record<string, unknown> {
  const { property, stream } = streamOf(r, false);
  return secretJson(findSecret(r, property.id, stream.id));
}

export function createSecret(r: AdminRequest): Record<string, unknown> {
  const { property, stream } = streamOf(r, true);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, ["name", "displayName", "secretValue"], "measurement_protocol_secret");
  const created = r.ctx.world.measurementProtocolSecrets.add({
    propertyId: property.id,
    streamId: stream.id,
    displayName: secretDisplayName(json),
    secretValue: randomBytes(16).toString("base64url"),
  });
  return secretJson(created);
}

export function patchSecret(r: AdminRequest): Record<string, unknown> {
  const { property, stream } = streamOf(r, true);
  const secret = findSecret(r, property.id, stream.id);
  const mask = parseUpdateMask(r.url, ["display_name"], ["name", "secret_value"]);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, ["name", "displayName", "secretValue"], "measurement_protocol_secret");
  if (mask.has("display_name")) secret.displayName = secretDisplayName(json);
  return secretJson(secret);
}

export function deleteSecret(r: AdminRequest): Record<string, unknown> {
  const { property, stream } = streamOf(r, true);
  r.ctx.world.measurementProtocolSecrets.remove(property.id, findSecret(r, property.id, stream.id).id);
  return {};
}

function adsLinkJson(l: WorldGoogleAdsLink): Record<string, unknown> {
  return {
    name: `properties/${l.propertyId}/googleAdsLinks/${l.id}`,
    customerId: l.customerId,
    canManageClients: false,
    adsPersonalizationEnabled: l.adsPersonalizationEnabled,
    createTime: l.createTime,
    updateTime: l.updateTime,
    creatorEmailAddress: l.creatorEmailAddress,
  };
}

const ADS_FIELDS = [
  "name",
  "customerId",
  "canManageClients",
  "adsPersonalizationEnabled",
  "createTime",
  "updateTime",
  "creatorEmailAddress",
];

function optionalBool(json: Record<string, unknown>, key: string, field: string): boolean | undefined {
  const value = json[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean")
    throw invalidArgument(`Invalid value at '${field}' (TYPE_BOOL), ${JSON.stringify(value)}`);
  return value;
}

const adsLinks = new PropertyResources<WorldGoogleAdsLink>({
  collection: "googleAdsLinks",
  rpc: ["GoogleAdsLink", "GoogleAdsLinks"],
  param: "googleAdsLink",
  items: (world, propertyId) => world.googleAdsLinks.list(propertyId),
  json: adsLinkJson,
});

export const listAdsLinks = adsLinks.list;

export function createAdsLink(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateGoogleAdsLink", true);
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, ADS_FIELDS, "google_ads_link");
  const customerId = (optionalString(json, "customerId", "google_ads_link") ?? "").replace(/-/g, "");
  if (!/^\d{10}$/.test(customerId)) {
    throw invalidArgument("customerId is required: the 10-digit Google Ads customer ID, e.g. 1234567890.");
  }
  if (r.ctx.world.googleAdsLinks.list(property.id).some((l) => l.customerId === customerId)) {
    throw new RpcError(
      409,
      "ALREADY_EXISTS",
      `Google Ads customer ${customerId} is already linked to this property.`,
    );
  }
  const now = iso(r.ctx.now());
  const created = r.ctx.world.googleAdsLinks.add({
    propertyId: property.id,
    customerId,
    adsPersonalizationEnabled:
      optionalBool(json, "adsPersonalizationEnabled", "google_ads_link.ads_personalization_enabled") ?? true,
    creatorEmailAddress: caller.email,
    createTime: now,
    updateTime: now,
  });
  return adsLinkJson(created);
}

export function patchAdsLink(r: AdminRequest): Record<string, unknown> {
  const property = adsLinks.property(r, "UpdateGoogleAdsLink", true);
  const link = adsLinks.find(r, property.id);
  const mask = parseUpdateMask(
    r.url,
    ["ads_personalization_enabled"],
    ["name", "customer_id", "can_manage_clients", "create_time", "update_time", "creator_email_address"],
  );
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, ADS_FIELDS, "google_ads_link");
  if (mask.has("ads_personalization_enabled")) {
    link.adsPersonalizationEnabled =
      optionalBool(json, "adsPersonalizationEnabled", "google_ads_link.ads_personalization_enabled") ?? false;
  }
  link.updateTime = iso(r.ctx.now());
  return adsLinkJson(link);
}

export const deleteAdsLink = adsLinks.removal((world, propertyId, link) =>
  world.googleAdsLinks.remove(propertyId, link.id),
);

function firebaseJson(l: WorldFirebaseLink): Record<string, unknown> {
  return {
    name: `properties/${l.propertyId}/firebaseLinks/${l.id}`,
    project: l.project,
    createTime: l.createTime,
  };
}

/** A project id is mapped to a stable number, as Google answers with the project number. */
function projectNumber(ref: string): string {
  const id = ref.slice("projects/".length);
  if (/^\d+$/.test(id)) return id;
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) % 900_000_000_000;
  return String(100_000_000_000 + hash);
}

const firebaseLinks = new PropertyResources<WorldFirebaseLink>({
  collection: "firebaseLinks",
  rpc: ["FirebaseLink", "FirebaseLinks"],
  param: "firebaseLink",
  items: (world, propertyId) => world.firebaseLinks.list(propertyId),
  json: firebaseJson,
});

export const listFirebaseLinks = firebaseLinks.list;

export function createFirebaseLink(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateFirebaseLink", true);
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, ["name", "project", "createTime"], "firebase_link");
  const project = optionalString(json, "project", "firebase_link") ?? "";
  if (!/^projects\/([a-z][a-z0-9-]{4,28}[a-z0-9]|\d+)$/.test(project)) {
    throw invalidArgument(
      "project is required: 'projects/{project number}' or 'projects/{project id}', e.g. projects/1234.",
    );
  }
  if (r.ctx.world.firebaseLinks.list(property.id).length > 0) {
    throw new RpcError(
      409,
      "ALREADY_EXISTS",
      "Properties can have at most one FirebaseLink: delete the existing one first.",
    );
  }
  const created = r.ctx.world.firebaseLinks.add({
    propertyId: property.id,
    project: `projects/${projectNumber(project)}`,
    createTime: iso(r.ctx.now()),
  });
  return firebaseJson(created);
}

export const deleteFirebaseLink = firebaseLinks.removal((world, propertyId, link) =>
  world.firebaseLinks.remove(propertyId, link.id),
);

export function getDataSharingSettings(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "GetDataSharingSettings", false);
  const account = requireAccountRole(r.ctx, caller, r.params.account ?? "", "viewer");
  return { name: `accounts/${account.id}/dataSharingSettings`, ...r.ctx.world.dataSharing(account.id) };
}
