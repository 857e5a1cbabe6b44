/**
 * Key-event-specific metrics: for each key event of a property, `keyEvents:<eventName>` (its count),
 * `sessionKeyEventRate:<eventName>` and `userKeyEventRate:<eventName>` (the share of sessions, of users,
 * with that key event). Google's API schema page lists them in its "Key event specific metrics" table
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema#key_event_specific_metrics),
 * and the property's getMetadata lists one of each per key event, as it lists custom definitions
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/getMetadata:
 * "metadata for dimensions and metrics available in reporting methods", per property). Neither the stored
 * discovery document nor api-schema.json (the page's standard tables) names them. The 2024 renames of
 * conversions to key events (schema-catalog.ts RENAMED) keep the old names, `conversions:<eventName>` and
 * the rates, as deprecatedApiNames.
 */
import { type Base, type MetricDef, type MetricType, type NamedKeyEvents, ratio } from "./fields.js";

interface Family {
  prefix: string;
  deprecated: string;
  uiName: string;
  type: MetricType;
  description: string;
  /** The metric from the key event's three counts (events, sessions with it, users with it). */
  compute(counts: readonly [number, number, number], b: Base): number;
}

const rate = (a: number, b: number): number => Math.min(1, ratio(a, b));

const FAMILIES: readonly Family[] = [
  {
    prefix: "keyEvents",
    deprecated: "conversions",
    uiName: "Key events",
    type: "TYPE_INTEGER",
    description: "The count of this key event.",
    compute: ([events]) => events,
  },
  {
    prefix: "sessionKeyEventRate",
    deprecated: "sessionConversionRate",
    uiName: "Session key event rate",
    type: "TYPE_FLOAT",
    description: "The percentage of sessions in which this key event was triggered.",
    compute: ([, sessions], b) => rate(sessions, b.sessions),
  },
  {
    prefix: "userKeyEventRate",
    deprecated: "userConversionRate",
    uiName: "User key event rate",
    type: "TYPE_FLOAT",
    description: "The percentage of users who triggered this key event.",
    compute: ([, , users], b) => rate(users, b.totalUsers),
  },
];

/** A name of this form, whether or not the property has the key event it names. */
export const KEY_EVENT_METRIC = /^(keyEvents|sessionKeyEventRate|userKeyEventRate):(.+)$/;

export interface KeyEventMetric extends MetricDef {
  deprecatedApiNames: string[];
}

/** The property's key events in the order it lists them: each one's index into Base.perKeyEvent. */
export function keyEventIndex(names: readonly string[]): NamedKeyEvents {
  return new Map([...new Set(names)].map((name, i) => [name, i]));
}

/** The metrics of each key event, by API name (current names only). */
export function keyEventMetrics(index: NamedKeyEvents): Map<string, KeyEventMetric> {
  const metrics = new Map<string, KeyEventMetric>();
  for (const [name, i] of index) {
    for (const family of FAMILIES) {
      const apiName = `${family.prefix}:${name}`;
      metrics.set(apiName, {
        apiName,
        uiName: `${family.uiName} (${name})`,
        description: family.description,
        category: "Event",
        type: family.type,
        scope: "standard",
        deprecatedApiNames: [`${family.deprecated}:${name}`],
        compute: (b) => {
          const counts = b.perKeyEvent;
          return family.compute([counts[3 * i] ?? 0, counts[3 * i + 1] ?? 0, counts[3 * i + 2] ?? 0], b);
        },
      });
    }
  }
  return metrics;
}
