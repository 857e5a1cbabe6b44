/**
 * Conversion events (properties/{p}/conversionEvents), the deprecated name of key events ("Deprecated:
 * Use CreateKeyEvent instead", analyticsadmin v1beta): conversions were renamed key events in 2024
 * (https://support.google.com/analytics/answer/13965727), and both collections show the same records,
 * so an event marked through one is listed by the other. The shape differs: `defaultConversionValue
 * {value, currencyCode}` instead of `defaultValue {numericValue, currencyCode}`, and a missing counting
 * method means ONCE_PER_EVENT.
 */
import { invalidArgument, parseJsonObject } from "../http.js";
import type { CountingMethod, WorldKeyEvent } from "../model.js";
import { type AdminRequest, authorize, iso, requireProperty } from "./context.js";
import { checkNewEventName, keyEventRemoval } from "./key-events.js";
import { PropertyResources } from "./resources.js";
import {
  checkCurrency,
  optionalEnum,
  optionalObject,
  optionalString,
  parseUpdateMask,
  rejectUnknownFields,
} from "./validate.js";

const COUNTING = ["CONVERSION_COUNTING_METHOD_UNSPECIFIED", "ONCE_PER_EVENT", "ONCE_PER_SESSION"] as const;
const FIELDS = [
  "name",
  "eventName",
  "createTime",
  "deletable",
  "custom",
  "countingMethod",
  "defaultConversionValue",
];

function conversionJson(k: WorldKeyEvent): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: `properties/${k.propertyId}/conversionEvents/${k.id}`,
    eventName: k.eventName,
    createTime: k.createTime,
  };
  if (k.deletable) json.deletable = true;
  if (k.custom) json.custom = true;
  json.countingMethod = k.countingMethod;
  if (k.defaultValue) {
    json.defaultConversionValue = {
      value: k.defaultValue.numericValue,
      currencyCode: k.defaultValue.currencyCode,
    };
  }
  return json;
}

function bindCounting(json: Record<string, unknown>): CountingMethod {
  const method = optionalEnum(
    json,
    "countingMethod",
    "conversion_event",
    COUNTING,
    "ConversionEvent.ConversionCountingMethod",
  );
  return method === undefined || method === "CONVERSION_COUNTING_METHOD_UNSPECIFIED"
    ? "ONCE_PER_EVENT"
    : method;
}

/** Both members are needed for a value to mean anything (inferred: the same rule as key events). */
function bindValue(json: Record<string, unknown>): WorldKeyEvent["defaultValue"] {
  const at = "conversion_event.default_conversion_value";
  const value = optionalObject(json, "defaultConversionValue", "conversion_event");
  if (!value) return undefined;
  rejectUnknownFields(value, ["value", "currencyCode"], at);
  if (typeof value.value !== "number" || !Number.isFinite(value.value)) {
    throw invalidArgument("defaultConversionValue.value is required and must be a number.");
  }
  const currency = optionalString(value, "currencyCode", at);
  if (currency === undefined || currency === "")
    throw invalidArgument("defaultConversionValue.currencyCode is required.");
  checkCurrency(currency, "defaultConversionValue.currencyCode");
  return { numericValue: value.value, currencyCode: currency };
}

/** The key events, seen as conversion events. */
const conversions = new PropertyResources<WorldKeyEvent>({
  collection: "conversionEvents",
  rpc: ["ConversionEvent", "ConversionEvents"],
  param: "keyEvent",
  items: (world, propertyId) => world.keyEvents(propertyId),
  json: conversionJson,
});

export const listConversionEvents = conversions.list;
export const getConversionEvent = conversions.get;

export function createConversionEvent(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "CreateConversionEvent", true);
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, FIELDS, "conversion_event");
  const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
  const eventName = checkNewEventName(
    r,
    property.id,
    optionalString(json, "eventName", "conversion_event") ?? "",
  );
  const countingMethod = bindCounting(json);
  const defaultValue = bindValue(json);
  const created = r.ctx.world.addKeyEvent({
    propertyId: property.id,
    eventName,
    countingMethod,
    ...(defaultValue ? { defaultValue } : {}),
    createTime: iso(r.ctx.now()),
  });
  return conversionJson(created);
}

export function patchConversionEvent(r: AdminRequest): Record<string, unknown> {
  const property = conversions.property(r, "UpdateConversionEvent", true);
  const event = conversions.find(r, property.id);
  const mask = parseUpdateMask(
    r.url,
    ["counting_method", "default_conversion_value"],
    ["name", "event_name", "create_time", "deletable", "custom"],
  );
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, FIELDS, "conversion_event");
  if (mask.has("counting_method")) event.countingMethod = bindCounting(json);
  if (mask.has("default_conversion_value")) {
    const value = bindValue(json);
    if (value) event.defaultValue = value;
    else delete event.defaultValue;
  }
  return conversionJson(event);
}

export const deleteConversionEvent = conversions.removal(keyEventRemoval.remove, {
  check: keyEventRemoval.check,
});
