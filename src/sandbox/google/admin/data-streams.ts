/**
 * Data streams (properties/{p}/dataStreams): a property collects nothing until a stream exists. The type is
 * required and immutable, and exactly the matching *StreamData member must be given.
 */
import { invalidArgument, parseJsonObject } from "../http.js";
import type { DataStreamType, WorldDataStream } from "../model.js";
import { type AdminRequest, authorize, iso, requireProperty } from "./context.js";
import { PropertyResources } from "./resources.js";
import {
  checkMaxLength,
  optionalEnum,
  optionalObject,
  optionalString,
  parseUpdateMask,
  rejectUnknownFields,
} from "./validate.js";

const STREAM_TYPES = [
  "DATA_STREAM_TYPE_UNSPECIFIED",
  "WEB_DATA_STREAM",
  "ANDROID_APP_DATA_STREAM",
  "IOS_APP_DATA_STREAM",
] as const;
const STREAM_FIELDS = [
  "name",
  "type",
  "displayName",
  "createTime",
  "updateTime",
  "webStreamData",
  "androidAppStreamData",
  "iosAppStreamData",
];
const DATA_MEMBER: Record<DataStreamType, "webStreamData" | "androidAppStreamData" | "iosAppStreamData"> = {
  WEB_DATA_STREAM: "webStreamData",
  ANDROID_APP_DATA_STREAM: "androidAppStreamData",
  IOS_APP_DATA_STREAM: "iosAppStreamData",
};
const MUTABLE = ["display_name", "web_stream_data.default_uri"];
const IMMUTABLE = [
  "name",
  "type",
  "create_time",
  "update_time",
  "web_stream_data.measurement_id",
  "web_stream_data.firebase_app_id",
  "android_app_stream_data",
  "ios_app_stream_data",
];

function streamJson(s: WorldDataStream): Record<string, unknown> {
  const json: Record<string, unknown> = { name: `properties/${s.propertyId}/dataStreams/${s.id}` };
  if (s.webStreamData) json.webStreamData = { ...s.webStreamData };
  if (s.androidAppStreamData) json.androidAppStreamData = { ...s.androidAppStreamData };
  if (s.iosAppStreamData) json.iosAppStreamData = { ...s.iosAppStreamData };
  json.type = s.type;
  if (s.displayName) json.displayName = s.displayName;
  json.createTime = s.createTime;
  json.updateTime = s.updateTime;
  return json;
}

const streams = new PropertyResources<WorldDataStream>({
  collection: "dataStreams",
  rpc: ["DataStream", "DataStreams"],
  param: "dataStream",
  items: (world, propertyId) => world.dataStreams(propertyId),
  json: streamJson,
});

/** A web stream's defaultUri is the site being measured: empty, or an http(s) URL / bare domain. */
function checkDefaultUri(uri: string): void {
  if (uri === "") return;
  const candidate = /^https?:\/\//i.test(uri) ? uri : `https://${uri}`;
  let ok = false;
  try {
    const parsed = new URL(candidate);
    ok = parsed.hostname.includes(".") && parsed.username === "" && parsed.password === "";
  } catch {
    ok = false;
  }
  if (!ok)
    throw invalidArgument(
      `webStreamData.defaultUri "${uri}" is not a valid URI, e.g. https://www.example.com.`,
    );
}

function checkDisplayName(name: string | undefined, type: DataStreamType): void {
  if (name !== undefined) checkMaxLength(name, 255, "displayName");
  if (type === "WEB_DATA_STREAM" && (name === undefined || name.trim() === "")) {
    throw invalidArgument("displayName is required for web data streams.");
  }
}

export const listDataStreams = streams.list;
export const getDataStream = streams.get;

export function createDataStream(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateDataStream", true);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, STREAM_FIELDS, "data_stream");
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const type = optionalEnum(json, "type", "data_stream", STREAM_TYPES, "DataStream.DataStreamType");
  if (type === undefined || type === "DATA_STREAM_TYPE_UNSPECIFIED") {
    throw invalidArgument(
      "type is required: use WEB_DATA_STREAM, ANDROID_APP_DATA_STREAM or IOS_APP_DATA_STREAM.",
    );
  }
  for (const [other, member] of Object.entries(DATA_MEMBER)) {
    if (other !== type && json[member] !== undefined) {
      throw invalidArgument(`${member} cannot be set on a ${type}: set ${DATA_MEMBER[type]} instead.`);
    }
  }
  const data = optionalObject(json, DATA_MEMBER[type], "data_stream");
  if (!data) throw invalidArgument(`${DATA_MEMBER[type]} is required for a ${type}.`);
  const displayName = optionalString(json, "displayName", "data_stream");
  checkDisplayName(displayName, type);
  const at = `data_stream.${DATA_MEMBER[type]}`;
  const input: Parameters<typeof r.ctx.world.addDataStream>[0] = {
    propertyId: property.id,
    type,
    createTime: iso(r.ctx.now()),
    ...(displayName ? { displayName } : {}),
  };
  if (type === "WEB_DATA_STREAM") {
    rejectUnknownFields(data, ["defaultUri", "measurementId", "firebaseAppId"], at);
    const uri = optionalString(data, "defaultUri", at) ?? "";
    checkDefaultUri(uri);
    if (uri) input.defaultUri = uri;
  } else if (type === "ANDROID_APP_DATA_STREAM") {
    rejectUnknownFields(data, ["packageName", "firebaseAppId"], at);
    const packageName = optionalString(data, "packageName", at) ?? "";
    if (!/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(packageName)) {
      throw invalidArgument('androidAppStreamData.packageName is required, e.g. "com.example.app".');
    }
    input.packageName = packageName;
  } else {
    rejectUnknownFields(data, ["bundleId", "firebaseAppId"], at);
    const bundleId = optionalString(data, "bundleId", at) ?? "";
    if (bundleId.trim() === "")
      throw invalidArgument('iosAppStreamData.bundleId is required, e.g. "com.example.app".');
    input.bundleId = bundleId;
  }
  return streamJson(r.ctx.world.addDataStream(input));
}

export function patchDataStream(r: AdminRequest): Record<string, unknown> {
  const property = streams.property(r, "UpdateDataStream", true);
  const stream = streams.find(r, property.id);
  const mask = parseUpdateMask(r.url, MUTABLE, IMMUTABLE);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, STREAM_FIELDS, "data_stream");
  if (mask.has("display_name")) {
    const name = optionalString(json, "displayName", "data_stream");
    checkDisplayName(name, stream.type);
    if (name) stream.displayName = name;
    else delete stream.displayName;
  }
  if (mask.has("web_stream_data.default_uri") && stream.webStreamData) {
    const web = optionalObject(json, "webStreamData", "data_stream") ?? {};
    const uri = optionalString(web, "defaultUri", "data_stream.web_stream_data") ?? "";
    checkDefaultUri(uri);
    if (uri) stream.webStreamData.defaultUri = uri;
    else delete stream.webStreamData.defaultUri;
  }
  stream.updateTime = iso(r.ctx.now());
  return streamJson(stream);
}

export const deleteDataStream = streams.removal((world, propertyId, stream) =>
  world.removeDataStream(propertyId, stream.id),
);
