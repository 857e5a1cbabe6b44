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

/** "Custom definitions: dimensions customEvent:tier (Tier), …; metrics …", or nothing when the answer has none. */
export function customDefinitionWords(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
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
