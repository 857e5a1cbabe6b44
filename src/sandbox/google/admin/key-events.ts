/**
 * Key events (properties/{p}/keyEvents). The deprecated conversionEvents collection is another view of
 * the same records (conversion-events.ts).
 */
import { invalidArgument, parseJsonObject, RpcError } from "../http.js";
import type { CountingMethod, WorldKeyEvent } from "../model.js";
import type { GoogleWorld } from "../world.js";
import { type AdminRequest, authorize, iso, requireProperty } from "./context.js";
import { PropertyResources } from "./resources.js";
import {
  checkCurrency,
  optionalEnum,
  optionalObject,
  optionalString,
  parseUpdateMask,
  rejectUnknownFields,
} from "./validate.js";

const COUNTING_METHODS = ["COUNTING_METHOD_UNSPECIFIED", "ONCE_PER_EVENT", "ONCE_PER_SESSION"] as const;
const KEY_EVENT_FIELDS = [
  "name",
  "eventName",
  "createTime",
  "deletable",
  "custom",
  "countingMethod",
  "defaultValue",
];
const MUTABLE = ["counting_method", "default_value"];
const IMMUTABLE = ["name", "event_name", "create_time", "deletable", "custom"];

/**
 * GA4 event names: start with a letter, then letters, digits or underscores, at most 40 characters, and no
 * reserved prefix (https://support.google.com/analytics/answer/13316687).
 */
const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const RESERVED_PREFIXES = ["firebase_", "ga_", "google_", "gtag."];

function keyEventJson(k: WorldKeyEvent): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: `properties/${k.propertyId}/keyEvents/${k.id}`,
    eventName: k.eventName,
    createTime: k.createTime,
  };
  if (k.deletable) json.deletable = true;
  if (k.custom) json.custom = true;
  json.countingMethod = k.countingMethod;
  if (k.defaultValue) json.defaultValue = { ...k.defaultValue };
  return json;
}

export const keyEvents = new PropertyResources<WorldKeyEvent>({
  collection: "keyEvents",
  rpc: ["KeyEvent", "KeyEvents"],
  param: "keyEvent",
  items: (world, propertyId) => world.keyEvents(propertyId),
  json: keyEventJson,
});

function bindDefaultValue(json: Record<string, unknown>): WorldKeyEvent["defaultValue"] {
  const value = optionalObject(json, "defaultValue", "key_event");
  if (!value) return undefined;
  rejectUnknownFields(value, ["numericValue", "currencyCode"], "key_event.default_value");
  const numeric = value.numericValue;
  if (typeof numeric !== "number" || !Number.isFinite(numeric)) {
    throw invalidArgument("defaultValue.numericValue is required and must be a number.");
  }
  const currency = optionalString(value, "currencyCode", "key_event.default_value");
  if (currency === undefined || currency === "")
    throw invalidArgument("defaultValue.currencyCode is required.");
  checkCurrency(currency, "defaultValue.currencyCode");
  return { numericValue: numeric, currencyCode: currency };
}

function bindCountingMethod(json: Record<string, unknown>): CountingMethod {
  const method = optionalEnum(
    json,
    "countingMethod",
    "key_event",
    COUNTING_METHODS,
    "KeyEvent.CountingMethod",
  );
  if (method === undefined || method === "COUNTING_METHOD_UNSPECIFIED") {
    throw invalidArgument("countingMethod is required: use ONCE_PER_EVENT or ONCE_PER_SESSION.");
  }
  return method;
}

/** A valid event name that is not a key event of the property yet (409 ALREADY_EXISTS otherwise). */
export function checkNewEventName(r: AdminRequest, propertyId: string, eventName: string): string {
  if (eventName === "") throw invalidArgument("eventName is required: the name of an event, e.g. purchase.");
  if (!EVENT_NAME.test(eventName) || RESERVED_PREFIXES.some((p) => eventName.startsWith(p))) {
    throw invalidArgument(
      `eventName "${eventName}" is invalid: start with a letter, use only letters, digits and underscores (at most 40 characters), and avoid the reserved prefixes ${RESERVED_PREFIXES.join(", ")}.`,
    );
  }
  if (r.ctx.world.keyEvents(propertyId).some((k) => k.eventName === eventName)) {
    throw new RpcError(
      409,
      "ALREADY_EXISTS",
      `A key event with event name "${eventName}" already exists in properties/${propertyId}.`,
    );
  }
  return eventName;
}

export const listKeyEvents = keyEvents.list;
export const getKeyEvent = keyEvents.get;

export function createKeyEvent(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateKeyEvent", true);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, KEY_EVENT_FIELDS, "key_event");
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const eventName = checkNewEventName(r, property.id, optionalString(json, "eventName", "key_event") ?? "");
  const countingMethod = bindCountingMethod(json);
  const defaultValue = bindDefaultValue(json);
  const created = r.ctx.world.addKeyEvent({
    propertyId: property.id,
    eventName,
    countingMethod,
    ...(defaultValue ? { defaultValue } : {}),
    createTime: iso(r.ctx.now()),
  });
  return keyEventJson(created);
}

export function patchKeyEvent(r: AdminRequest): Record<string, unknown> {
  const property = keyEvents.property(r, "UpdateKeyEvent", true);
  const keyEvent = keyEvents.find(r, property.id);
  const mask = parseUpdateMask(r.url, MUTABLE, IMMUTABLE);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, KEY_EVENT_FIELDS, "key_event");
  if (mask.has("counting_method")) keyEvent.countingMethod = bindCountingMethod(json);
  if (mask.has("default_value")) {
    const value = bindDefaultValue(json);
    if (value) keyEvent.defaultValue = value;
    else delete keyEvent.defaultValue;
  }
  return keyEventJson(keyEvent);
}

/** A key event (or the conversion event that is its other name) goes unless it is not deletable: 400. */
export const keyEventRemoval = {
  remove: (world: GoogleWorld, propertyId: string, keyEvent: WorldKeyEvent) =>
    world.removeKeyEvent(propertyId, keyEvent.id),
  check: (keyEvent: WorldKeyEvent) => {
    if (!keyEvent.deletable)
      throw new RpcError(400, "FAILED_PRECONDITION", `Key event "${keyEvent.eventName}" cannot be deleted.`);
  },
};

export const deleteKeyEvent = keyEvents.removal(keyEventRemoval.remove, { check: keyEventRemoval.check });
