/**
 * Marketo's real paths (Adobe's Swagger files, src/real-paths.generated.ts): which exist, and which
 * browse calls page by offset.
 */

import { MARKETO_OFFSET_PAGED, MARKETO_PATHS } from "../../real-paths.generated.js";
import { realPaths } from "../../real-paths.js";
import { MARKETO_GET_QUERIES } from "../../real-queries.generated.js";

export const MARKETO_REAL_PATHS = realPaths(MARKETO_PATHS);

const OFFSET_PAGED = new Set(MARKETO_OFFSET_PAGED);

/**
 * Whether a Marketo GET path is a browse call that pages by offset/maxReturn: its operation takes both
 * in Adobe's Swagger. Other Asset API GETs (one email's content, one program) return all they have in
 * one answer, however many items that is.
 */
export function pagesByOffset(path: string): boolean {
  const real = MARKETO_REAL_PATHS.find(path);
  return real !== undefined && OFFSET_PAGED.has(real.template);
}

/**
 * The query parameters of a GET that its operation does not take in Adobe's Swagger, with the ones it does.
 * Marketo ignores such a parameter without a word, so a filter it does not have reads every record (trial
 * s19, N211: filterType leadId on GET /rest/v1/leads/programs/{programId}.json gave all 188 members).
 */
export function ignoredQueries(
  path: string,
  query: Readonly<Record<string, unknown>> | undefined,
): { template: string; ignored: string[]; takes: readonly string[] } | undefined {
  const real = MARKETO_REAL_PATHS.find(path);
  const listed = real ? MARKETO_GET_QUERIES[real.template] : undefined;
  if (!real || !listed) return undefined;
  const takes = [...listed, ...(DOCUMENTED[real.template] ?? [])];
  // Case aside: the Swagger writes channel/byName.json's name as "Name" (review s21, finding 3).
  const known = new Set(takes.map((name) => name.toLowerCase()));
  const ignored = Object.keys(query ?? {}).filter((name) => !known.has(name.toLowerCase()));
  return ignored.length > 0 ? { template: real.template, ignored, takes } : undefined;
}

/**
 * Query parameters Adobe's prose documents and its Swagger leaves out. Browse Programs' status: "The optional
 * status parameter allows you to filter on program status" (on, off, unlocked;
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs#browse).
 */
const DOCUMENTED: Readonly<Record<string, readonly string[]>> = {
  "/rest/asset/v1/programs.json": ["status"],
};

const IGNORED = "so Marketo ignores";
/** Whether a warning is ignoredQueryWarning's (said in the summary too: under 117 records it went unseen). */
export const isIgnoredQueryWarning = (warning: string): boolean => warning.includes(IGNORED);

/**
 * The parameter an ignored name was likely meant as: the same but for a plural "s" (leadId, leadIds), any case.
 * A name the same but for case is not ignored (ignoredQueries), so that is not looked for here.
 */
function nearName(name: string, takes: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  return takes.find((t) => {
    const taken = t.toLowerCase();
    return taken === `${lower}s` || `${taken}s` === lower;
  });
}

/**
 * The warning for ignoredQueries, or undefined: what Marketo ignores, what it takes, and what narrows instead:
 * the parameter meant, when one is alike, else where on the records' own id (review s20, finding 9: an email
 * example on activities, which have no email).
 */
export function ignoredQueryWarning(
  path: string,
  query: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const found = ignoredQueries(path, query);
  if (!found) return undefined;
  const { template, ignored, takes } = found;
  const names = ignored.join(", ");
  const one = ignored.length === 1;
  const meant = ignored.map((name) => [name, nearName(name, takes)] as const).filter(([, near]) => near);
  const id = template.includes("/activities") ? "leadId" : "id";
  const instead =
    meant.length > 0
      ? `Send ${meant.map(([name, near]) => `${near} for ${name}`).join(", ")}.`
      : `To keep some records, give where on their fields, e.g. "${id} in (120, 121)", applied to every record read.`;
  return (
    `${names} ${one ? "is not a query parameter" : "are not query parameters"} of GET ${template} ` +
    `(Adobe's reference: it takes ${takes.length > 0 ? takes.join(", ") : "none"}), ${IGNORED} ` +
    `${one ? "it" : "them"} and did not narrow this read by ${one ? "it" : "them"}. ${instead}`
  );
}
