/**
 * A checkCompatibility answer through the Data/Admin API Call, cut to what it tells: Google lists every dimension
 * and metric of the property with its whole metadata (names, descriptions, categories) beside whether it can be
 * added to the request (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/checkCompatibility).
 * An agent that only wanted a yes or no read 40,534 characters of it, then the 94,000 of its kept pages (trial s30,
 * N418). Each entry keeps its apiName and compatibility; the summary gives the counts and names the incompatible
 * ones; the names and descriptions are the metadata's (GET v1beta/properties/{id}/metadata).
 */
import { n } from "../numbers-in-words.js";

interface Entry {
  compatibility?: unknown;
  dimensionMetadata?: { apiName?: unknown };
  metricMetadata?: { apiName?: unknown };
}

const LISTS = [
  { key: "dimensionCompatibilities", meta: "dimensionMetadata", noun: "dimension" },
  { key: "metricCompatibilities", meta: "metricMetadata", noun: "metric" },
] as const;

/** The incompatible names said in the summary, at most. */
const NAMED = 40;

const isCompatibility = (body: unknown): body is Record<string, unknown> =>
  body !== null &&
  typeof body === "object" &&
  LISTS.some(({ key }) => Array.isArray((body as Record<string, unknown>)[key]));

/** The answer cut to names and compatibility, and its words; other answers as they are. */
export function compatibilityAnswer(
  endpoint: string,
  body: unknown,
  request: unknown,
): { body: unknown; words?: string | undefined } {
  if (!/:checkCompatibility$/.test(endpoint) || !isCompatibility(body)) return { body };
  const asked = (request ?? {}) as { compatibilityFilter?: unknown; dimensions?: unknown; metrics?: unknown };
  const filter = asked.compatibilityFilter;
  const out: Record<string, unknown> = { ...body };
  const said: string[] = [];
  // With compatibilityFilter Google lists one side only: the other is not said, never "0" (review s35, 3).
  const only = filter === "COMPATIBLE" || filter === "INCOMPATIBLE" ? filter : undefined;
  for (const { key, meta, noun } of LISTS) {
    const entries = (Array.isArray(body[key]) ? body[key] : []) as Entry[];
    const cut = entries.map((entry) => ({
      apiName: String(entry[meta]?.apiName ?? ""),
      compatibility: String(entry.compatibility ?? ""),
    }));
    out[key] = cut;
    const incompatible = cut.filter((entry) => entry.compatibility === "INCOMPATIBLE").map((e) => e.apiName);
    const compatible = cut.filter((entry) => entry.compatibility === "COMPATIBLE").length;
    const named =
      incompatible.length === 0
        ? ""
        : `: ${incompatible.slice(0, NAMED).join(", ")}${incompatible.length > NAMED ? `, and ${n(incompatible.length - NAMED)} more` : ""}`;
    // The request's own are listed too, when it names some of this kind (review s36, 9).
    const own = Array.isArray(asked[`${noun}s`]) && (asked[`${noun}s`] as unknown[]).length > 0;
    const can = `${n(compatible)} ${noun}s are compatible (COMPATIBLE${own ? ", the request's own among them" : ""})`;
    const cannot = `${n(incompatible.length)} cannot be added (INCOMPATIBLE)${named}`;
    said.push(
      only === "COMPATIBLE" ? can : only === "INCOMPATIBLE" ? `${noun}s: ${cannot}` : `${can}, ${cannot}`,
    );
  }
  const listed = only
    ? ` (compatibilityFilter ${only}: the ${only === "COMPATIBLE" ? "incompatible" : "compatible"} ones are left out)`
    : ' (compatibilityFilter "INCOMPATIBLE" or "COMPATIBLE" lists only those)';
  return {
    body: out,
    words:
      `The request's own dimensions and metrics go together (Google refuses the check otherwise); with them, ${said.join("; ")}${listed}. ` +
      "Each entry is cut to apiName and compatibility (names and descriptions: GET v1beta/properties/{id}/metadata)",
  };
}
