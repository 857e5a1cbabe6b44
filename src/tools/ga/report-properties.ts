/**
 * Run Reports over several properties in one call (trial s10: an agent ran the same report once per property,
 * 5–8 calls for "which property has a demo_request event"). `property` names them: a comma-separated list of
 * names or IDs, or `all`, every property the Google account sees. The report runs on each property as it
 * would alone (its own time zone, catalog and checks), and report-properties-answer.ts joins the answers into
 * one table; one property's failure is that property's, not the call's.
 */
import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import { CancelledError, isMartechError, ValidationError } from "../../errors.js";
import type { RunReportsFields, RunReportsOutput } from "../../schemas/google-analytics.js";
import type { ToolResult } from "../types.js";
import { listProperties, type PropertyRef, resolveProperty } from "./property-name.js";

/** The most properties one call reports on: each costs a report (and its checks) of quota. */
export const MAX_PROPERTIES = 25;
/** Reports run at once: the connector already allows 10 requests in flight per property. */
const AT_ONCE = 4;

/**
 * The properties `property` names: one property (an ID, a URL, a name, a name with commas in it: the whole
 * text is tried first), or several, comma-separated, or every property the account sees (`all`).
 */
export async function resolveProperties(
  ga: GoogleAnalyticsConnector,
  raw: string,
  signal: AbortSignal | undefined,
): Promise<PropertyRef[]> {
  const value = raw.trim();
  if (value.toLowerCase() === "all") return everyProperty(ga, signal);
  if (!value.includes(",")) return [await resolveProperty(ga, value, signal)];
  try {
    return [await resolveProperty(ga, value, signal)];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
  }
  const parts = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const resolved = await Promise.all(
    parts.map((part, i) => resolveProperty(ga, part, signal, `property (item ${i + 1}, "${part}")`)),
  );
  // The same property named twice (by name and by ID) is reported once.
  const unique = resolved.filter((p, i) => resolved.findIndex((other) => other.id === p.id) === i);
  return checkCount(unique, "Name fewer properties");
}

async function everyProperty(ga: GoogleAnalyticsConnector, signal: AbortSignal | undefined) {
  const listed = await listProperties(ga, signal);
  if (listed.length === 0) {
    throw new ValidationError("property", `the Google account '${ga.account}' sees no GA4 property.`, {
      hint: "Check the connected Google account (account), or give a property's numeric ID.",
    });
  }
  const all = listed.map((p) => ({ id: p.id, displayName: p.displayName }));
  return checkCount(all, `The account sees ${all.length}: name up to ${MAX_PROPERTIES} of them`);
}

function checkCount(properties: PropertyRef[], what: string): PropertyRef[] {
  if (properties.length <= MAX_PROPERTIES) return properties;
  throw new ValidationError("property", `one call reports on ${MAX_PROPERTIES} properties at most.`, {
    hint: `${what}, comma-separated, and run the rest in another call.`,
  });
}

/** What several properties cannot do in one call, refused before any report is sent. */
export function checkSeveral(fields: RunReportsFields): void {
  if (fields.funnel) {
    throw new ValidationError("property", "a funnel runs on one property at a time.", {
      hint: "Run the funnel once per property, with property set to one name or ID each call.",
    });
  }
}

/** One property's answer, or why it has none. */
export type Outcome<T> = { property: PropertyRef } & ({ answer: T } | { error: Error });

/**
 * Runs `one` on each property, a few at a time, in the list's order. A property that fails is kept with its
 * error; a cancel or the call's deadline stops them all.
 */
export async function onEachProperty<T>(
  properties: readonly PropertyRef[],
  one: (property: PropertyRef) => Promise<T>,
): Promise<Outcome<T>[]> {
  const outcomes: Outcome<T>[] = new Array(properties.length);
  let next = 0;
  const worker = async () => {
    while (next < properties.length) {
      const at = next++;
      const property = properties[at] as PropertyRef;
      try {
        outcomes[at] = { property, answer: await one(property) };
      } catch (error) {
        if (error instanceof CancelledError || isStop(error)) throw error;
        outcomes[at] = { property, error: error instanceof Error ? error : new Error(String(error)) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, properties.length) }, worker));
  return outcomes;
}

/** The call's own end (its deadline), which no other property would survive either. */
const isStop = (error: unknown) => isMartechError(error) && error.code === "deadline_exceeded";

/** One property's report: its answer, what its summary says after the first sentence, and its paging hints. */
export interface OneReport {
  result: ToolResult<RunReportsOutput>;
  /** summaryTail(): the notes and largest changes, with a leading space, or "". */
  tail: string;
  /** The hints of the answer that are about its own page (replaced by the joined answer's). */
  pageHints: readonly string[];
  /** The notes its tail holds, each as written there (a note every property has is said once). */
  notes?: readonly string[];
}

const PROPERTY_KEY = /^-?\s*property(\s+(asc|desc))?$/i;

/**
 * The fields each property's report is run with: order_by without its "property" key, which sorts only the
 * joined table (report-properties-answer.ts): each property's own rows are all of one property. An agent
 * ranking channels site by site wrote "property,-sessions" and was refused (trial s47, N646).
 */
export function withoutPropertySort<F extends Pick<RunReportsFields, "order_by">>(fields: F): F {
  const order = fields.order_by;
  if (order === undefined) return fields;
  const keep =
    typeof order === "string"
      ? order
          .split(",")
          .filter((part) => !PROPERTY_KEY.test(part.trim()))
          .join(",")
      : order.filter((item) => !PROPERTY_KEY.test(typeof item === "string" ? item.trim() : item.field));
  if (keep.length === order.length) return fields;
  const { order_by: _all, ...rest } = fields;
  return (keep.length === 0 ? rest : { ...rest, order_by: keep }) as F;
}
