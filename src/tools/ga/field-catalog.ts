import { distance } from "fastest-levenshtein";
import type { Metadata } from "../../connectors/google/types.js";
import { ValidationError } from "../../errors.js";
import { REALTIME_SCHEMA_URL, realtimeName } from "./realtime-names.js";
import { EQUIVALENCE_URL, otherName } from "./ua-names.js";

export type FieldKind = "dimension" | "metric";

interface FieldEntry {
  kind: FieldKind;
  apiName: string;
  /** Set when the name used is one of GA's deprecatedApiNames (still accepted for a while). */
  deprecated: boolean;
  blockedReasons: string[];
  /** The name Google Analytics shows for it (metadata's uiName). */
  uiName?: string;
}

export interface NameProblem {
  field: string;
  message: string;
  /** The name is a Universal Analytics name or another spelling of a GA4 field (ua-names.ts). */
  renamed?: boolean;
  /** A per-key-event metric of an event that is not a key event: the message says what to run instead. */
  keyEvent?: boolean;
  /** The message offers the property's own names for it ("did you mean …?"). */
  offered?: boolean;
}

/**
 * The dimensions and metrics a property knows (from getMetadata: standard and its custom definitions),
 * so names are checked before a report spends quota. GA's names are case-sensitive.
 */
export class FieldCatalog {
  readonly #fields = new Map<string, FieldEntry>();
  /** A realtime report's: only its schema's names are offered (realtime-names.ts). */
  readonly realtime: boolean;

  constructor(
    metadata: Metadata,
    trusted: { dimensions?: readonly string[]; metrics?: readonly string[] } = {},
  ) {
    const add = (kind: FieldKind, items: Metadata["dimensions"] & Metadata["metrics"]) => {
      for (const item of items ?? []) {
        if (!item.apiName) continue;
        const blockedReasons = item.blockedReasons ?? [];
        this.#fields.set(item.apiName, {
          ...{ kind, apiName: item.apiName, deprecated: false, blockedReasons },
          ...(item.uiName ? { uiName: item.uiName } : {}),
        });
        for (const old of item.deprecatedApiNames ?? []) {
          if (!this.#fields.has(old)) {
            this.#fields.set(old, { kind, apiName: item.apiName, deprecated: true, blockedReasons });
          }
        }
      }
    };
    add("dimension", metadata.dimensions);
    add("metric", metadata.metrics);
    this.realtime = trusted.dimensions !== undefined;
    // Realtime reports have their own schema (e.g. minutesAgo), absent from metadata: the names the caller
    // put in dimensions/metrics are taken at their word there.
    for (const name of trusted.dimensions ?? []) this.#trust(name, "dimension");
    for (const name of trusted.metrics ?? []) this.#trust(name, "metric");
    // The Realtime API schema's own dimension, offered by its screen name too (review s57, F6: "Minutes ago" got no
    // offer): https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema
    if (trusted.dimensions && !this.#fields.has("minutesAgo"))
      this.#fields.set("minutesAgo", {
        ...{ kind: "dimension", apiName: "minutesAgo", uiName: "Minutes ago" },
        ...{ deprecated: false, blockedReasons: [] },
      });
  }

  /** The names Google Analytics shows, by API name (the chart's and the console's words). */
  uiNames(): Record<string, string> {
    return Object.fromEntries(
      [...this.#fields.values()].flatMap((f) => (!f.deprecated && f.uiName ? [[f.apiName, f.uiName]] : [])),
    );
  }

  #otherName(name: string, kind: FieldKind | undefined, field: string): NameProblem | undefined {
    return renamed(this, name, kind, field);
  }

  #trust(name: string, kind: FieldKind) {
    // An API name only: GA's begin with a small letter and have no spaces, "/" or "-"; a name as the screens show
    // it ("Active users", "Country") is checked, offered its API name, not sent to be refused (review s56, F8; s57, F5).
    if (!/^[a-z][A-Za-z0-9_:.]*$/.test(name)) return;
    if (!this.#fields.has(name))
      this.#fields.set(name, { kind, apiName: name, deprecated: false, blockedReasons: [] });
  }

  get(name: string): FieldEntry | undefined {
    return this.#fields.get(name);
  }

  /** The key events the property's metadata has metrics for (keyEvents:<event>), in its order. */
  keyEventNames(): string[] {
    return [...this.#fields.values()].flatMap((f) => {
      const match = !f.deprecated && f.kind === "metric" ? /^keyEvents:(.+)$/.exec(f.apiName) : null;
      return match?.[1] ? [match[1]] : [];
    });
  }

  /** Up to three API names of `kind` closest to `name`. */
  suggest(name: string, kind?: FieldKind): string[] {
    const limit = Math.max(2, Math.floor(name.length / 3));
    // Case-insensitive ranking ("Sessions" is 0 edits from "sessions"); the catalog itself is not.
    const wanted = name.toLowerCase();
    // A custom definition by its own name ("customer_tier" for customUser:customer_tier) or the name GA shows
    // (trial s45, N626 read 22,000 characters of metadata for one custom dimension's API name).
    const spelt = (entry: FieldEntry) => [
      entry.apiName,
      ...(entry.apiName.includes(":") ? [entry.apiName.slice(entry.apiName.indexOf(":") + 1)] : []),
      ...(entry.uiName ? [entry.uiName] : []),
    ];
    return [...this.#fields.values()]
      .filter((entry) => !entry.deprecated && (kind === undefined || entry.kind === kind))
      .filter((entry) => !this.realtime || realtimeName(entry.apiName))
      .map((entry) => ({
        name: entry.apiName,
        distance: Math.min(...spelt(entry).map((one) => distance(wanted, one.toLowerCase()))),
      }))
      .filter((candidate) => candidate.distance <= limit)
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
      .slice(0, 3)
      .map((candidate) => candidate.name);
  }

  /** Why `name` cannot be used as `kind` (unknown, or the other kind), or undefined when it can. */
  problem(name: string, kind: FieldKind | undefined, field: string): NameProblem | undefined {
    const entry = this.#fields.get(name);
    if (entry && (kind === undefined || entry.kind === kind)) return undefined;
    if (entry) {
      const other = entry.kind === "metric" ? "metrics" : "dimensions";
      return { field, message: `"${name}" is a ${entry.kind}, not a ${kind}: put it in ${other}` };
    }
    const known = this.#otherName(name, kind, field);
    if (known) return known;
    const perKeyEvent = keyEventProblem(this, name, field);
    if (perKeyEvent) return perKeyEvent;
    const search = searchQueryProblem(this, name, field);
    if (search) return search;
    const suggestions = this.suggest(name, kind);
    const mean =
      suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(" or ")}?` : "";
    const message = `"${name}" is not a ${kind ?? "dimension or metric"} of this property${mean}`;
    return { field, message, ...(mean ? { offered: true } : {}) };
  }
}

const KEY_EVENT_METRICS_URL =
  "https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema#key_event_specific_metrics";

/**
 * keyEvents:<event>, sessionKeyEventRate:<event> and userKeyEventRate:<event> (and the conversions names
 * they replaced) exist only for the property's key events: GA's API schema, "Key event specific metrics"
 * (KEY_EVENT_METRICS_URL).
 */
const PER_KEY_EVENT =
  /^(keyEvents|sessionKeyEventRate|userKeyEventRate|conversions|sessionConversionRate|userConversionRate):(.+)$/;

/** Why a per-key-event metric is missing, and how to count the event without it. */
function keyEventProblem(catalog: FieldCatalog, name: string, field: string): NameProblem | undefined {
  const match = PER_KEY_EVENT.exec(name);
  const event = match?.[2];
  if (!match || !event) return undefined;
  const keyEvents = catalog.keyEventNames();
  const listed = keyEvents.length > 0 ? `its key events: ${keyEvents.join(", ")}` : "its metadata lists none";
  const rate = /Rate$/.test(match[1] ?? "");
  const instead = rate
    ? `For the share, run sessions (or totalUsers) with the filter eventName == "${event}" and divide by the same rows' sessions without it`
    : `Count it as it is: metric eventCount with the filter eventName == "${event}"`;
  return {
    field,
    message:
      `"${name}" is not a metric of this property: GA has per-key-event metrics only for the property's ` +
      `key events, and "${event}" is not one of them (${listed}). ${instead}; or mark it as a key event ` +
      "with google_analytics_create_key_events (it then counts from that moment on)",
    keyEvent: true,
  };
}

/**
 * A Google search query (or another Search Console name) asked of GA: GA4's Data API has Search Console's four
 * metrics, organicGoogleSearchClicks, …Impressions, …ClickThroughRate and …AveragePosition, filled only on a
 * property linked to Search Console, and no dimension of the queries people searched; those are in Search
 * Console itself (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema). "Not a
 * dimension of this property" read as a misspelling to an agent (trial s16, N142).
 */
const SEARCH_QUERY = /organicGoogleSearch|search_?(query|term|phrase|keyword)|(query|keyword)$/i;

function searchQueryProblem(catalog: FieldCatalog, name: string, field: string): NameProblem | undefined {
  if (!SEARCH_QUERY.test(name)) return undefined;
  // Another spelling of a name the property has ("googleadsquery") is told its name, as any other.
  if (catalog.suggest(name, undefined).some((s) => s.toLowerCase() === name.toLowerCase())) return undefined;
  const metrics = ["organicGoogleSearchClicks", "organicGoogleSearchImpressions"].filter((m) =>
    catalog.get(m),
  );
  const ads = ["googleAdsKeyword", "googleAdsQuery"].filter((d) => catalog.get(d));
  const have =
    metrics.length > 0
      ? `; this property has Search Console's metrics (${metrics.join(", ")}, …), filled only when it is linked to ` +
        "Search Console, by landingPage"
      : "";
  return {
    field,
    message:
      `"${name}" is not in GA: GA4's Data API has no dimension of the Google search queries people typed (they ` +
      `are in Search Console itself, not in GA reports)${have}` +
      (ads.length > 0 ? `. The keywords and search terms of Google Ads clicks: ${ads.join(", ")}` : ""),
  };
}

/** The GA4 name of a Universal Analytics name or another common spelling, as this property has it. */
function renamed(
  catalog: FieldCatalog,
  name: string,
  kind: FieldKind | undefined,
  field: string,
): NameProblem | undefined {
  const other = otherName(name);
  if (!other) return undefined;
  const what = `"${name}" is not a GA4 ${kind ?? "dimension or metric"}: GA4's name is "${other.ga4}"`;
  const note = other.note ? ` (${other.note})` : "";
  const entry = catalog.get(other.ga4);
  if (!entry) {
    return { field, message: `${what}${note}, which this property's metadata does not list`, renamed: true };
  }
  const place =
    kind !== undefined && entry.kind !== kind
      ? `, a ${entry.kind}: put it in ${entry.kind === "metric" ? "metrics" : "dimensions"}`
      : "";
  return { field, message: `${what}${note}${place}`, renamed: true };
}

/** One ValidationError for every unknown or misplaced name, so a caller fixes them all at once. */
export function throwNameProblems(problems: readonly NameProblem[], realtime = false): void {
  const first = problems[0];
  if (!first) return;
  const equivalence = problems.some((p) => p.renamed)
    ? ` Universal Analytics names and their GA4 equivalents: ${EQUIVALENCE_URL}.`
    : "";
  const hint = problems.every((p) => p.keyEvent)
    ? `Per-key-event metrics: ${KEY_EVENT_METRICS_URL}.`
    : realtime
      ? `Use the names a realtime report takes, listed at ${REALTIME_SCHEMA_URL}.`
      : // With every name offered, the offer first: an agent read 22,486 characters of metadata for the API name
        // of "Customer tier" that the refusal had offered (trial s48, N656).
        (problems.every((p) => p.offered || p.renamed)
          ? "Use the names offered above; for any other, the API names in the property's metadata "
          : "Use API names from the property's metadata ") +
        "(google_analytics_api_call with GET " +
        "v1beta/properties/<id>/metadata), listed at " +
        `https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema.${equivalence}`;
  throw ValidationError.fromIssues(problems, {
    hint,
    // `issues`, as every invalid input lists its problems (src/tools/input/words.ts): the console puts
    // each under its own field.
    details: { issues: problems.map(({ field, message }) => ({ field, message })) },
  });
}
