import { SCOPE_ANALYTICS_EDIT, SCOPE_ANALYTICS_READONLY } from "../auth/google/config.js";
import type { ConnectorOf } from "../connections/registry.js";
import { createdResource, documented } from "../connectors/google/shapes.js";
import { ValidationError } from "../errors.js";
import { CreateKeyEventsFields, CreateKeyEventsOutput } from "../schemas/google-analytics-admin.js";
import { withAccount } from "./ga/account-field.js";
import {
  checkedDays,
  closestCollected,
  collectedLast30Days,
  findKeyEvent,
  isAlreadyExists,
  type KeyEvent,
  keyEventOutput,
} from "./ga/key-events.js";
import { type PropertyRef, propertyText, resolveProperty } from "./ga/property-name.js";
import { GA_SERVICE_WORDS } from "./ga/service-words.js";
import { PROPERTY_ALIASES } from "./input/api-call.js";
import type { SchemaContext, ToolStep } from "./types.js";

const DOC_URL =
  "https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties.keyEvents";
// Edit to create; read for the Data API report that checks the event was collected (analytics.edit does not cover the Data API).
const SCOPES = [SCOPE_ANALYTICS_READONLY, SCOPE_ANALYTICS_EDIT] as const;

const input = (context: SchemaContext) => withAccount(context, CreateKeyEventsFields);

export const googleAnalyticsCreateKeyEvents: ToolStep<
  ReturnType<typeof input>,
  typeof CreateKeyEventsOutput
> = {
  id: "google_analytics_create_key_events",
  title: "Create Key Events",
  service: "google_analytics",
  serviceWords: GA_SERVICE_WORDS,
  category: "Analytics",
  keywords: [
    "analytics",
    "google analytics",
    "ga4",
    "key events",
    "key event",
    "conversions",
    "conversion",
    "goals",
    "mark as key event",
    "admin api",
  ],
  description:
    "Marks an event of a Google Analytics 4 property as a key event (formerly a conversion). It first checks " +
    "that the event was collected in the last 30 days (skip_collection_check for one not sent yet); an existing key event is " +
    "returned, not duplicated. Needs the Editor role.",
  docUrl: DOC_URL,
  connection: "google",
  scopes: SCOPES,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input,
  aliases: PROPERTY_ALIASES,
  output: CreateKeyEventsOutput,
  examples: () => [
    {
      title: "Create a key event",
      note: "Name an event the property already collects (Reports > Engagement > Events lists them).",
      input: { event_name: "sign_up", counting_method: "ONCE_PER_EVENT" },
    },
  ],

  async handler(fields, ctx) {
    const eventName = fields.event_name;
    const ga = await ctx.connection("google", fields.account);
    const property = await resolveProperty(ga, fields.property, ctx.signal);
    const propertyId = property.id;
    const existing = await findKeyEvent(ga, propertyId, eventName, ctx.signal);
    if (existing) return alreadyExisting(existing, fields.counting_method, eventName, null, property);

    let collected: number | null = null;
    if (!fields.skip_collection_check) {
      collected = await collectedLast30Days(ga, propertyId, eventName, ctx.signal);
      if (collected === 0) throw await notCollected(ga, property, eventName, ctx.signal);
    }

    let created: KeyEvent;
    try {
      created = await ga.request<KeyEvent>("admin", {
        method: "POST",
        path: `v1beta/properties/${propertyId}/keyEvents`,
        // countingMethod is marked Required by the Admin API (REAL-API B3), so it is always sent.
        body: { eventName, countingMethod: fields.counting_method },
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (error) {
      // A concurrent caller created it between our list and our create: return theirs, as a list would have.
      const winner = isAlreadyExists(error)
        ? await findKeyEvent(ga, propertyId, eventName, ctx.signal)
        : undefined;
      if (!winner) throw error;
      return alreadyExisting(winner, fields.counting_method, eventName, collected, property);
    }
    // Never a success without the new key event's name: an answer of another shape is Google's fault.
    created = documented<KeyEvent>(
      created,
      "the creation of a key event",
      createdResource(/^properties\/\d+\/keyEvents\/[^/]+$/),
      `The key event may have been created: list the key events of properties/${propertyId} before creating it again.`,
    );
    const data: CreateKeyEventsOutput = {
      key_event: keyEventOutput(created, eventName),
      already_existed: false,
      collected_events_last_30_days: collected,
      warnings: fields.skip_collection_check
        ? ["The collection check was skipped: the key event counts nothing until the event is actually sent."]
        : [],
    };
    return {
      data,
      summary: `"${eventName}" is now a key event of ${propertyText(property)} (${data.key_event.counting_method}).`,
    };
  },
};

/**
 * The refusal of an event not collected in the checked days: the check is this step's (GA itself would
 * create the key event), the days it covers, and the collected events with alike names, each saying
 * whether it already is a key event.
 */
async function notCollected(
  ga: ConnectorOf<"google">,
  property: PropertyRef,
  eventName: string,
  signal: AbortSignal | undefined,
): Promise<ValidationError> {
  const { events, timeZone } = await closestCollected(ga, property.id, eventName, signal);
  const days = checkedDays(new Date(), timeZone);
  const listed = events
    .map((event) => `${event.name} (${event.count}${event.key ? ", already a key event" : ""})`)
    .join(", ");
  const fresh = events.find((event) => !event.key);
  const offer =
    events.length > 0
      ? ` Collected events with the closest names (events ${days}): ${listed}.`
      : ` No collected event has a name close to "${eventName}".`;
  return new ValidationError(
    "event_name",
    `property ${propertyText(property)} has not collected any "${eventName}" event ${days} (event names are ` +
      "case-sensitive). This step checks that first, so that a misspelt name does not become a key event " +
      `that counts nothing.${offer}`,
    {
      hint:
        `${fresh ? `Use ${fresh.name}, or send` : "Send"} the event from the site or app first and retry once it ` +
        "shows up in reports (allow 24–48 h), or set skip_collection_check to true to create the key event " +
        "ahead of a release.",
      details: { property: `properties/${property.id}`, collected_events_last_30_days: 0 },
    },
  );
}

function alreadyExisting(
  existing: KeyEvent,
  requested: string,
  eventName: string,
  collected: number | null,
  property: PropertyRef,
) {
  const data: CreateKeyEventsOutput = {
    key_event: keyEventOutput(existing, eventName),
    already_existed: true,
    collected_events_last_30_days: collected,
    warnings: [],
  };
  if (existing.countingMethod && existing.countingMethod !== requested) {
    data.warnings.push(
      `The existing key event counts ${existing.countingMethod}, not ${requested}. To change it, PATCH ` +
        `v1beta/${data.key_event.name} (query updateMask=counting_method) with google_analytics_api_call.`,
    );
  }
  return {
    data,
    summary: `"${eventName}" already was a key event of ${propertyText(property)} (${data.key_event.name}); nothing was created.`,
  };
}
