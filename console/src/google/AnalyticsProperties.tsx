/**
 * What a connected Google account's reports will see (trial s5, finding 8): its Analytics accounts and
 * their properties by name, the same list Run Reports' property picker offers (GET
 * /console/api/google/summaries, the Admin API's accountSummaries read as that account).
 */
import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { announceRun } from "../useRefresh.ts";

export interface Summaries {
  accounts: { account: string; displayName: string; properties: { id: string; displayName: string }[] }[];
}

/**
 * The account's Analytics accounts and properties, or why they could not be listed, and when the page
 * learned which (`performance.now()`: the card's chip weighs it against a test's).
 */
export function useSummaries(label: string): { value?: Summaries; failed?: string; at?: number } {
  const [state, setState] = useState<{ value?: Summaries; failed?: string; at?: number }>({});
  useEffect(() => {
    let live = true;
    api<Summaries>("GET", `/console/api/google/summaries?account=${encodeURIComponent(label)}`)
      .then(
        (value) => live && setState({ value, at: performance.now() }),
        (error: Error) => live && setState({ failed: error.message, at: performance.now() }),
      )
      // The listing called Google as the account: its card's calls today count it.
      .finally(announceRun);
    return () => {
      live = false;
    };
  }, [label]);
  return state;
}

/**
 * The property Run Reports opens on with this account: the listing's first property (its picker chooses
 * it the same way). Said on the account's card (trial s9, finding 9: the card named none).
 */
export function openingProperty(
  summaries: { accounts: Summaries["accounts"] } | undefined,
): { id: string; displayName: string } | undefined {
  return summaries?.accounts.find((group) => group.properties.length > 0)?.properties[0];
}

/** A property's display name by its id, from the listing. */
export function propertyNames(summaries: Summaries | undefined): Map<string, string> {
  return new Map(
    (summaries?.accounts ?? []).flatMap((group) =>
      group.properties.map((property) => [property.id, property.displayName] as const),
    ),
  );
}

/** The Analytics accounts, each with its properties by name. */
export function PropertyList(props: { summaries: { value?: Summaries; failed?: string } }) {
  const { value, failed } = props.summaries;
  if (failed) return <>Its properties could not be listed: {failed}</>;
  if (!value) return <>Listing its properties…</>;
  if (value.accounts.length === 0) return <>It can see no Analytics account.</>;
  return (
    <ul className="properties" aria-label="Analytics accounts and properties">
      {value.accounts.map((group) => (
        <li key={group.account}>
          {group.displayName}
          {group.properties.length === 0 ? (
            " (no property)"
          ) : (
            <ul>
              {group.properties.map((property) => (
                <li key={property.id}>{property.displayName}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
