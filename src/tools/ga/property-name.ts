import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import { CancelledError, ValidationError } from "../../errors.js";
import { parsePropertyId } from "./property-id.js";

/** A property as an answer names it. */
export interface PropertyRef {
  id: string;
  /** Its display name, when the account summaries list it. */
  displayName?: string;
}

interface Summary {
  account?: string;
  displayName?: string;
  propertySummaries?: { property?: string; displayName?: string }[];
}

export interface Listed {
  id: string;
  displayName: string;
  account: string;
}

// The summaries of one connector (one Google account) are read once a minute at most: a report names its
// property without a second request, and a property created a minute ago is found soon after.
const SUMMARIES_MS = 60_000;
const summaries = new WeakMap<GoogleAnalyticsConnector, { at: number; listed: Promise<Listed[]> }>();

/** Every property the Google account can see (Admin API accountSummaries), with its account's name. */
export function listProperties(
  ga: GoogleAnalyticsConnector,
  signal: AbortSignal | undefined,
): Promise<Listed[]> {
  const kept = summaries.get(ga);
  if (kept && Date.now() - kept.at < SUMMARIES_MS) return kept.listed;
  const listed = ga
    .listAll<Summary>(
      "v1beta/accountSummaries",
      "accountSummaries",
      { pageSize: 200 },
      { maxPages: 5, ...(signal ? { signal } : {}) },
    )
    .then(({ items }) =>
      items.flatMap((account) =>
        (account.propertySummaries ?? []).flatMap((property) =>
          property.property && property.displayName
            ? [
                {
                  id: property.property.replace(/^properties\//, ""),
                  displayName: property.displayName,
                  account: account.displayName ?? account.account ?? "?",
                },
              ]
            : [],
        ),
      ),
    );
  summaries.set(ga, { at: Date.now(), listed });
  // A failed listing is not kept: the next call asks again.
  listed.catch(() => summaries.delete(ga));
  return listed;
}

/** Forgets the listing of a connector, after a property was created with it: its name must resolve at once. */
export function forgetProperties(ga: GoogleAnalyticsConnector): void {
  summaries.delete(ga);
}

const described = (p: Listed) => `"${p.displayName}" (properties/${p.id}, account ${p.account})`;

/** Forms that are ids gone wrong, never names: a measurement ID, a UA ID, a URL. */
const NOT_A_NAME = /^(?:G-|UA-|https?:\/\/|properties\/|\d+$)/i;

/**
 * The property from what the caller wrote: an ID form (property-id.ts), or a display name matched without
 * regard to case among the properties the Google account sees (accountSummaries). An ambiguous or unknown
 * name is an error listing the candidates with their IDs. The display name is looked up for an ID too, so
 * answers can name the property; when the listing fails, an ID still works.
 */
export async function resolveProperty(
  ga: GoogleAnalyticsConnector,
  raw: string,
  signal: AbortSignal | undefined,
  field = "property",
): Promise<PropertyRef> {
  const value = raw.trim();
  let id: string | undefined;
  try {
    id = parsePropertyId(value, field);
  } catch (error) {
    if (NOT_A_NAME.test(value)) throw error;
  }
  if (id !== undefined) {
    const listed = await listProperties(ga, signal).catch((error: unknown) => {
      if (error instanceof CancelledError) throw error;
      return [];
    });
    const displayName = listed.find((p) => p.id === id)?.displayName;
    if (displayName) return { id, displayName };
    // A display name may itself be a number ("2024"): when no listed property has that ID, the one
    // property of that name is meant. An ID missing from the listing is still tried as an ID.
    const named = listed.filter((p) => fold(p.displayName) === fold(value));
    if (named.length === 1 && named[0]) return { id: named[0].id, displayName: named[0].displayName };
    return { id };
  }
  return byName(await listProperties(ga, signal), value, ga.account, field);
}

/** A name as compared: without regard to case, nor to accents ("cafe" finds "Café"). */
const fold = (name: string) =>
  name
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

function byName(listed: Listed[], name: string, account: string, field: string): PropertyRef {
  const wanted = name.toLowerCase();
  // The exact name without regard to case first; then without accents, so "Cafe" and "Café" can coexist.
  const exact = listed.filter((p) => p.displayName.toLowerCase() === wanted);
  const matches = exact.length > 0 ? exact : listed.filter((p) => fold(p.displayName) === fold(name));
  const [only] = matches;
  if (only && matches.length === 1) return { id: only.id, displayName: only.displayName };
  if (matches.length > 1) {
    throw new ValidationError(
      field,
      `${matches.length} properties are named "${name}": ${matches.map(described).join(", ")}.`,
      { hint: "Set property to the ID of the one you mean." },
    );
  }
  // Names containing the text come first: "store" finds "Retail Web Store".
  const near = [
    ...listed.filter((p) => p.displayName.toLowerCase().includes(wanted)),
    ...listed.filter((p) => !p.displayName.toLowerCase().includes(wanted)),
  ];
  const shown = near.slice(0, 20).map(described).join(", ");
  throw new ValidationError(
    field,
    `no property named "${name}" is visible to the Google account '${account}'` +
      (listed.length > 0 ? `; its properties: ${shown}${listed.length > 20 ? ", …" : ""}.` : "."),
    {
      hint:
        listed.length > 0
          ? "Set property to one of these names or IDs."
          : "Check the connected Google account (account) or give the numeric property ID.",
    },
  );
}

/** "Retail Web Store (properties/412345671)", or "properties/412345671" without a known name. */
export function propertyText(property: PropertyRef): string {
  return property.displayName
    ? `${property.displayName} (properties/${property.id})`
    : `properties/${property.id}`;
}
