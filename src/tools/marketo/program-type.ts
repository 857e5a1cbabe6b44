import { ValidationError } from "../../errors.js";
import { printable } from "../../schemas/json-schema.js";
import type { MarketoApiCallInput } from "../../schemas/marketo.js";
import { ownValue } from "../input/schema-walk.js";

/**
 * The seed specification lists email programs with `GET /rest/asset/v1/programs.json?type=email`, but Marketo's
 * Browse Programs has no `type` parameter (Adobe's Swagger: maxReturn, offset, filterType, filterValues,
 * earliestUpdatedAt, latestUpdatedAt; REAL-API A7) and ignores it, returning every program. So `type` is not
 * sent: the programs that come back are filtered here by their own `type` field, and a warning says so.
 * It is done in the step rather than the connector, which returns what Marketo returns and pages on Marketo's
 * offsets; the step already shapes the output (caps, resume positions), which the filter must agree with.
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/programs
 */

export const PROGRAMS_PATH = "/rest/asset/v1/programs.json";

// Program types as Marketo returns them ("Default", "Event", "Event with Webinar", "Email", "Engagement"; the
// sandbox writes "Webinar"), and as its Swagger enumerates them for creation (program, event, webinar, nurture).
const SYNONYMS: Record<string, string> = {
  program: "default",
  nurture: "engagement",
  eventwithwebinar: "webinar",
};
const KNOWN = ["email", "default", "event", "webinar", "engagement"];
const ACCEPTED = "email, default (or program), event, webinar (Event with Webinar), engagement (or nurture)";

const canonical = (type: string) => {
  const squashed = type.toLowerCase().replace(/[\s_-]/g, "");
  return ownValue(SYNONYMS, squashed) ?? squashed;
};

type Query = NonNullable<MarketoApiCallInput["query_parameters"]>;

export interface ProgramTypeFilter {
  /** The query without `type`, as it is sent. */
  query: Query;
  /** Whether a returned program is of a requested type (case-insensitive). */
  keeps(program: unknown): boolean;
  /** The warning that says what was done, given how many programs came and how many were kept. */
  warning(received: number, kept: number): string;
}

/** The filter for a programs browse that names a `type`, or undefined for every other call. */
export function programTypeFilter(
  method: string,
  path: string,
  query: Query | undefined,
): ProgramTypeFilter | undefined {
  if (method !== "GET" || path !== PROGRAMS_PATH || query?.type === undefined) return undefined;
  const { type, ...rest } = query;
  const asked = (Array.isArray(type) ? type : String(type).split(","))
    .map((value) => String(value).trim())
    .filter(Boolean);
  const unknown = asked.filter((value) => !KNOWN.includes(canonical(value)));
  if (asked.length === 0 || unknown.length > 0) {
    throw new ValidationError(
      "query_parameters.type",
      `${unknown.length > 0 ? `"${printable(unknown.join(",").slice(0, 60))}" is not a Marketo program type` : "it is empty"}; ` +
        `accepted: ${ACCEPTED}.`,
      { hint: "Marketo has no type parameter: this step filters the programs it returns by their type." },
    );
  }
  const wanted = new Set(asked.map(canonical));
  return {
    query: rest,
    keeps: (program) => {
      const value = (program as { type?: unknown } | null)?.type;
      return typeof value === "string" && wanted.has(canonical(value));
    },
    warning: (received, kept) =>
      `Marketo's programs.json has no type parameter, so type was not sent: the ${received} program(s) Marketo ` +
      `returned were filtered here to type ${asked.join(", ")} (${kept} kept). maxReturn, offset, next_offset and ` +
      "max_items count programs before this filter: page on (or paginate) until complete is true to see them all.",
  };
}
