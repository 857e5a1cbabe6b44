/**
 * The fields a report request uses: its dimensions, its metrics and every field its filters name. GA's
 * checkCompatibility answers about this set only, not about filter values, ordering or dates
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/checkCompatibility),
 * so the set is what a kept answer is found by.
 */
export function fieldSetKey(body: object): string {
  const record = body as Record<string, unknown>;
  const names = (list: unknown) =>
    Array.isArray(list)
      ? list.map((item) => String((item as { name?: unknown } | null)?.name ?? "")).sort()
      : [];
  const filterFields = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "fieldName" && typeof value === "string") filterFields.add(value);
        else walk(value);
      }
    }
  };
  walk(record.dimensionFilter);
  walk(record.metricFilter);
  return JSON.stringify([
    names(record.dimensions),
    names(record.metrics),
    [...filterFields].sort(),
    record.compatibilityFilter ?? null,
  ]);
}
