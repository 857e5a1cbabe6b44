/**
 * A GET of an Admin or Data API path with `{property}` in it, read once per property of
 * query_parameters.property (ids, display names, or "all": the properties v1beta/accountSummaries lists), and
 * joined: a list answer's items (dataStreams, customDimensions, keyEvents...) into one list, each tagged with
 * its property; another answer (a property's dataRetentionSettings) as one entry per property. An agent read
 * five properties' data streams and their secrets in ten calls (trial s17, N175), where Marketo's step reads
 * a path once per id in one. A property Google refuses is named with its error; the others are kept.
 */

import type { ConnectorOf } from "../../connections/registry.js";
import { isMartechError, ValidationError } from "../../errors.js";
import type { GoogleApiCallFields } from "../../schemas/google-analytics-admin.js";
import { n } from "../numbers-in-words.js";
import { customOnly, isMetadata } from "./metadata-words.js";
import type { PropertyRef } from "./property-name.js";
import { resolveProperties } from "./report-properties.js";

export const PROPERTY_PLACEHOLDER = "{property}";

type Google = ConnectorOf<"google">;

/** The properties asked for, when the endpoint holds {property}; undefined otherwise. */
export function propertiesAsked(fields: GoogleApiCallFields): string | undefined {
  if (!fields.endpoint.includes(PROPERTY_PLACEHOLDER)) return undefined;
  if (fields.method !== "GET") {
    throw new ValidationError("endpoint", `${PROPERTY_PLACEHOLDER} is read once per property, by GET only.`, {
      hint: "Call each property's path itself for POST, PATCH or DELETE (e.g. v1beta/properties/123/dataStreams).",
    });
  }
  const asked = fields.query_parameters?.property;
  const list = Array.isArray(asked) ? asked : asked === undefined ? [] : [asked];
  if (list.length === 0) {
    throw new ValidationError(
      "query_parameters.property",
      `the properties to read ${PROPERTY_PLACEHOLDER} for.`,
      {
        hint: 'Give a list of property IDs or names, e.g. {"property":[123456789,"Retail Web Store"]}, or "all".',
      },
    );
  }
  return list.map((item) => String(item).replace(/^properties\//, "")).join(",");
}

interface Read {
  property: PropertyRef;
  body?: unknown;
  error?: string;
}

/** Every property's answer, read one after another (each a call of its own, on the connector's limits). */
export async function readEach(
  ga: Google,
  fields: GoogleApiCallFields,
  asked: string,
  signal: AbortSignal | undefined,
): Promise<{ api: "data" | "admin"; body: Record<string, unknown>; summary: string }> {
  const properties = await resolveProperties(ga, asked, signal);
  const { property: _list, ...query } = fields.query_parameters ?? {};
  const reads: Read[] = [];
  const refusals: unknown[] = [];
  let api: "data" | "admin" = "admin";
  for (const property of properties) {
    const path = fields.endpoint.replaceAll(PROPERTY_PLACEHOLDER, property.id);
    try {
      const answer = await ga.call({
        method: "GET",
        path,
        ...(fields.api ? { api: fields.api } : {}),
        ...(Object.keys(query).length > 0 ? { query } : {}),
        ...(signal ? { signal } : {}),
      });
      api = answer.api;
      reads.push({ property, body: answer.body ?? {} });
    } catch (error) {
      if (!isMartechError(error) || error.code === "cancelled") throw error;
      reads.push({ property, error: error.message });
      refusals.push(error);
    }
  }
  // Every property refused alike (a path refused before sending: accessBindings): said once (review s28, 15).
  // Alike but for the property's id (a mistyped collection: review s29, finding 13).
  const said = new Set(reads.map((read) => read.error?.replaceAll(read.property.id, "{property}")));
  // One property refused is refused, as its own path is (review s52, 12: it answered "0 metadata" as a success).
  if (refusals.length === reads.length && said.size === 1) throw refusals[0];
  // One property's metadata through {property} is its own path's answer, shown as names as that is (review s49:
  // 114,000 characters through {property}, 22,000 through its own path).
  const [only] = reads;
  if (reads.length === 1 && only?.error === undefined && isMetadata(only?.body))
    return { api, body: only.body, summary: readSummary(properties.length, 0) };
  const body = joinedBody(
    // Several properties' metadata keep their own definitions; one property's is read whole (review s31, 6).
    reads.length > 1 ? reads.map((read) => ({ ...read, body: customOnly(read.body) })) : reads,
    collectionOf(fields.endpoint),
  );
  const failed = reads.filter((read) => read.error !== undefined).length;
  return { api, body, summary: readSummary(properties.length, failed) };
}

const readSummary = (count: number, failed: number) =>
  `read for ${n(count)} ${count === 1 ? "property" : "properties"} (${n(count)} call${count === 1 ? "" : "s"})` +
  (failed > 0 ? `; ${n(failed)} refused, named in errors` : "");

const nameOf = (property: PropertyRef) => `properties/${property.id}`;

/** One list of every property's items when each answer is one list of the same name (or none), else one entry each. */
/** The collection a list path names (`…/firebaseLinks`), the key Google's answer lists it under. */
const collectionOf = (endpoint: string): string | undefined =>
  /\/([a-z][A-Za-z]+)$/.exec(endpoint.split("?")[0] ?? "")?.[1];

function joinedBody(reads: readonly Read[], collection: string | undefined): Record<string, unknown> {
  const answered = reads.filter((read) => read.error === undefined);
  const listKeys = new Set(
    answered.flatMap((read) =>
      Object.entries((read.body ?? {}) as Record<string, unknown>)
        .filter(([, value]) => Array.isArray(value))
        .map(([key]) => key),
    ),
  );
  const onlyLists = answered.every((read) =>
    Object.values((read.body ?? {}) as Record<string, unknown>).every((value) => Array.isArray(value)),
  );
  const errors = reads.flatMap((read) =>
    read.error ? [{ property: nameOf(read.property), error: read.error }] : [],
  );
  // No property has any: every answer is {} (an empty list left out), so the list is the path's collection, empty
  // (review s28, finding 9: firebaseLinks of five properties read "5 results").
  const [key] = listKeys.size === 0 && collection ? [collection] : [...listKeys];
  const tail = errors.length > 0 ? { errors } : {};
  if (listKeys.size <= 1 && key && onlyLists) {
    // A property with nothing to list answers {} (proto3 JSON leaves an empty list out): it adds no item
    // (trial s24, N309: customDimensions of every property failed with an internal error).
    const items = answered.flatMap((read) =>
      ((((read.body ?? {}) as Record<string, unknown>)[key] as unknown[] | undefined) ?? []).map((item) =>
        item !== null && typeof item === "object" && !("property" in item)
          ? { property: nameOf(read.property), ...item }
          : item,
      ),
    );
    return { [key]: items, ...tail };
  }
  const results = answered.map((read) => ({
    property: nameOf(read.property),
    ...((read.body ?? {}) as object),
  }));
  return { results, ...tail };
}
