/**
 * The custom definitions in a Data API metadata answer (GET v1beta/properties/{id}/metadata), said in the
 * summary: the answer lists every dimension and metric, about 370 standard ones first, and the property's own
 * (`customDefinition: true`,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/getMetadata) were on
 * its later pages, which cost an agent two reads of 30,000 characters (trial s25, N317).
 */

interface Definition {
  apiName?: string;
  uiName?: string;
  customDefinition?: boolean;
}

export const isMetadata = (body: unknown): body is Record<string, unknown> =>
  body !== null &&
  typeof body === "object" &&
  String((body as { name?: unknown }).name ?? "").endsWith("/metadata") &&
  ["dimensions", "metrics"].some((key) => Array.isArray((body as Record<string, unknown>)[key]));

/**
 * A metadata answer of several properties keeps each one's custom definitions: the standard ones are alike for
 * every property, and five properties' whole lists came to 114,000 characters in one answer (review s30, 6).
 */
export function customOnly(body: unknown): unknown {
  if (!isMetadata(body)) return body;
  const custom = (key: string) =>
    ((body[key] as Definition[] | undefined) ?? []).filter((item) => item?.customDefinition === true);
  return { ...body, dimensions: custom("dimensions"), metrics: custom("metrics") };
}

/** The words on several properties' metadata (customOnly): each property's custom definitions. */
function resultsWords(body: Record<string, unknown>): string | undefined {
  const results = body.results;
  if (!Array.isArray(results) || results.length === 0 || !results.every(isMetadata)) return undefined;
  // One property's is whole (api-call-properties.ts): said as its own path's is.
  if (results.length === 1) return customDefinitionWords(results[0]);
  const each = results.map((result) => {
    const words = customDefinitionWords(result)?.replace(/^The property's custom definitions: /, "");
    const property = String(result.property ?? result.name).replace(/\/metadata$/, "");
    return `${property}: ${words === undefined || words.startsWith("The property has no") ? "none" : words}`;
  });
  return (
    `Each property's custom definitions (its standard dimensions and metrics, alike for every property, are left ` +
    `out: read one property's metadata for them): ${each.join("; ")}`
  );
}

/** "Custom definitions: dimensions customEvent:tier (Tier), …; metrics …", or nothing when the answer has none. */
export function customDefinitionWords(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
  if ("results" in body) return resultsWords(body as Record<string, unknown>);
  const lists = ["dimensions", "metrics"].flatMap((key) => {
    const list = (body as Record<string, unknown>)[key];
    if (!Array.isArray(list)) return [];
    const custom = (list as Definition[]).filter((item) => item?.customDefinition === true);
    const named = custom.map((item) => `${item.apiName}${item.uiName ? ` (${item.uiName})` : ""}`);
    return named.length > 0 ? [`${key} ${named.join(", ")}`] : [];
  });
  const known = ["dimensions", "metrics"].some((key) =>
    Array.isArray((body as Record<string, unknown>)[key]),
  );
  if (!known || !("name" in body) || !String((body as { name?: unknown }).name).endsWith("/metadata"))
    return undefined;
  return lists.length > 0
    ? `The property's custom definitions: ${lists.join("; ")}`
    : "The property has no custom definitions";
}
