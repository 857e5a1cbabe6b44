import { ValidationError } from "../../errors.js";
import type { RunReportsFields } from "../../schemas/google-analytics.js";
import type { DateRange } from "./date-presets.js";
import type { SplitFilters } from "./filter-split.js";

type OrderBy = { desc?: boolean } & (
  | { metric: { metricName: string } }
  | { dimension: { dimensionName: string; orderType?: string } }
);

/**
 * "-sessions,date" or [{field, desc}] → Data API orderBys. GA orders only by fields of the report, and
 * needs to be told whether each is a metric or a dimension, which the report's own lists answer.
 */
/**
 * A sort key as text: "-sessions", or "sessions desc" / "sessions asc" as SQL writes it, which names with spaces
 * allowed would otherwise take for one name (review s57, F7: "activeUsers desc" was no field of the report).
 */
export function sortWords(item: string): { name: string; desc: boolean; orderType: undefined } {
  const worded = /^(.+?)\s+(asc|desc)$/i.exec(item);
  const name = (worded?.[1] ?? item).replace(/^-/, "").trim();
  const asc = worded?.[2]?.toLowerCase() === "asc";
  // Two directions ("-sessions asc") are refused, not one taken unsaid (review s58, F2).
  if (asc && item.startsWith("-"))
    throw new ValidationError("order_by", `"${item}" says descending ("-") and ascending ("asc") at once.`, {
      hint: `Write "-${name}" (or "${name} desc") for descending, "${name}" (or "${name} asc") for ascending.`,
    });
  const desc = !asc && (item.startsWith("-") || worded?.[2]?.toLowerCase() === "desc");
  return { name, desc, orderType: undefined };
}

export function parseOrderBy(
  orderBy: RunReportsFields["order_by"],
  metrics: readonly string[],
  dimensions: readonly string[],
): OrderBy[] {
  if (orderBy === undefined) return [];
  const items = typeof orderBy === "string" ? orderBy.split(",").map((part) => part.trim()) : orderBy;
  return items.map((item, index) => {
    const field = `order_by[${index}]`;
    const { name, desc, orderType } =
      typeof item === "string"
        ? sortWords(item)
        : { name: item.field, desc: item.desc, orderType: item.order_type };
    // A share of the first dimension's total is worked out after GA sorts (review s25, finding 9).
    const inGroup = /^(.+)%in_(.+)$/.exec(name);
    if (inGroup) {
      const [, metric, first] = inGroup;
      throw new ValidationError(field, `"${name}" is worked out after GA sorts, so it cannot be sorted by.`, {
        hint: `Sort by "${first},-${metric}": within each ${first} that is the order of ${name}.`,
      });
    }
    // Spaces as in a metric named as GA's screens show it: matched to metrics below, whose check offers the API name.
    if (!/^[A-Za-z][A-Za-z0-9_:. ]*$/.test(name)) {
      throw new ValidationError(field, `"${name.slice(0, 60)}" is not a field name.`, {
        hint: 'Write e.g. "-sessions,date": field names, "-" in front for descending, separated by commas.',
      });
    }
    const flag = desc ? { desc: true } : {};
    if (metrics.includes(name)) {
      if (orderType) {
        throw new ValidationError(
          `${field}.order_type`,
          `"${name}" is a metric; order_type applies to dimensions.`,
          {
            hint: "Remove order_type: metrics always sort as numbers.",
          },
        );
      }
      return { ...flag, metric: { metricName: name } };
    }
    if (dimensions.includes(name)) {
      return { ...flag, dimension: { dimensionName: name, ...(orderType ? { orderType } : {}) } };
    }
    throw new ValidationError(field, `"${name}" is not one of this report's metrics or dimensions.`, {
      hint: `GA sorts only by fields in the report: ${[...metrics, ...dimensions].join(", ")}.`,
    });
  });
}

/** Names listed twice: GA refuses a report that requests the same field twice. */
export function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
}

export interface ReportParts {
  input: RunReportsFields;
  dateRanges: DateRange[] | undefined;
  filters: SplitFilters;
  orderBys: OrderBy[];
}

/** The RunReportRequest / RunRealtimeReportRequest body (REAL-API B2); int64 fields go as strings. */
export function buildReportRequest({
  input,
  dateRanges,
  filters,
  orderBys,
}: ReportParts): Record<string, unknown> {
  const request: Record<string, unknown> = {
    ...(input.realtime ? {} : { dateRanges }),
    ...(input.realtime && input.minute_ranges
      ? {
          minuteRanges: input.minute_ranges.map((range) => ({
            startMinutesAgo: range.start_minutes_ago,
            endMinutesAgo: range.end_minutes_ago,
            ...(range.name ? { name: range.name } : {}),
          })),
        }
      : {}),
    dimensions: input.dimensions.map((name) => ({ name })),
    metrics: input.metrics.map((name) => ({ name })),
    ...filters,
    ...(orderBys.length > 0 ? { orderBys } : {}),
    limit: String(input.limit),
    ...(!input.realtime && input.offset > 0 ? { offset: String(input.offset) } : {}),
    // Without dimensions the single row already is the total; with them, ask GA for the totals row.
    ...(input.dimensions.length > 0 ? { metricAggregations: ["TOTAL"] } : {}),
    returnPropertyQuota: true,
  };
  return request;
}

/** Refuses fields that belong to the other kind of report before anything is sent. */
export function checkReportMode(input: RunReportsFields): void {
  if (input.funnel) {
    // A funnel has its own columns, and this mode sends no filter, sort or chart: refused, not dropped.
    const other = (["metrics", "dimensions", "order_by", "filter"] as const).find(
      (k) => input[k] !== undefined && input[k].length !== 0,
    );
    const field = input.realtime ? "realtime" : input.chart ? "chart" : other;
    if (field) {
      throw new ValidationError(field, "a funnel report does not take it.", {
        hint: "Remove it: a funnel answers users, completion and abandonment per step.",
      });
    }
    // With several date ranges GA adds a date range index to each funnel row
    // (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport#body.request_body.FIELDS.date_ranges):
    // one funnel summary over rows of several periods would add them up, so two periods are two funnels
    // compared (funnel-compare.ts), and a funnel's next actions are of one period.
    const ranges = input.date_ranges?.length ?? 0;
    if (ranges > 2 || (ranges === 2 && input.funnel.next_action !== undefined)) {
      throw new ValidationError(
        "date_ranges",
        ranges > 2 ? "a funnel compares at most two periods." : "a funnel's next actions are of one period.",
        { hint: "Give one date range, or two to compare the funnel's steps (without next_action)." },
      );
    }
    return;
  }
  if (input.metrics.length === 0) {
    throw new ValidationError("metrics", "at least one metric is required.", {
      hint: 'Give metrics, e.g. ["sessions"], or a funnel.',
    });
  }
  if (input.realtime) {
    if (input.date_ranges) {
      throw new ValidationError("date_ranges", "a realtime report covers minutes, not dates.", {
        hint: "Remove date_ranges (use minute_ranges), or set realtime to false.",
      });
    }
    if (input.offset > 0) {
      throw new ValidationError("offset", "realtime reports cannot be paged with offset.", {
        hint: "Remove offset, or raise limit.",
      });
    }
  } else if (input.minute_ranges) {
    throw new ValidationError("minute_ranges", "minute ranges only apply to realtime reports.", {
      hint: "Set realtime to true, or use date_ranges.",
    });
  }
}
