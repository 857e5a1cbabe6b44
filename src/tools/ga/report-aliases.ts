import { z } from "zod";
import { FilterText, ORDER_TYPES } from "../../schemas/google-analytics.js";
import { describeIssues } from "../input/errors.js";
import {
  type InputAliases,
  integerString,
  type NormaliseContext,
  normaliseValue,
  numberAsString,
  type ValueConverter,
} from "../input/normalise.js";
import { isPlainObject, ownValue, type Path } from "../input/schema-walk.js";
import { checkFilterExpression, type FilterExpression } from "./filter-expression.js";
import { parseFilter } from "./filter-parser.js";

/**
 * Run Reports also takes a RunReportRequest as Google writes it (REAL-API B2, discovery RunReportRequest) and
 * as the seed specification shows it: dateRanges with startDate/endDate, dimensions and metrics as [{name}],
 * orderBys, dimensionFilter/metricFilter, limit/offset as int64 strings, propertyId.
 */

const RAW_REQUEST =
  "use google_analytics_api_call (POST v1beta/properties/<id>:runReport) to send a raw RunReportRequest";

/** GA fields with no Run Reports equivalent: refused with what to do, never dropped. */
const NAME_OBJECT_EXTRAS: Record<string, string> = {
  expression: `custom metric expressions are not supported here; ${RAW_REQUEST}`,
  invisible: `invisible metrics are not supported here; ${RAW_REQUEST}`,
  dimensionExpression: `dimension expressions are not supported here; ${RAW_REQUEST}`,
};

/** [{name:"sessions"}] → ["sessions"] (Dimension and Metric objects of the Data API). */
const nameObjects: ValueConverter = (value, path, ctx) => {
  if (!Array.isArray(value)) return value;
  return value.map((item, index) => {
    if (!isPlainObject(item) || typeof ownValue(item, "name") !== "string") return item;
    const extras = Object.keys(item).filter((key) => key !== "name");
    for (const key of extras) {
      ctx.issue(
        [...path, index, key],
        ownValue(NAME_OBJECT_EXTRAS, key) ?? "unknown field; an item is a name, or {name} as in GA's API",
      );
    }
    return item.name;
  });
};

const GaOrderBy = z.union(
  [
    z.strictObject({ metric: z.strictObject({ metricName: z.string() }), desc: z.boolean().optional() }),
    z.strictObject({
      dimension: z.strictObject({
        dimensionName: z.string(),
        orderType: z.enum([...ORDER_TYPES, "ORDER_TYPE_UNSPECIFIED"]).optional(),
      }),
      desc: z.boolean().optional(),
    }),
  ],
  { error: "expected GA's {metric: {metricName}, desc?} or {dimension: {dimensionName, orderType?}, desc?}" },
);

function fromGaOrderBy(item: Record<string, unknown>, path: Path, ctx: NormaliseContext): unknown {
  if (Object.hasOwn(item, "pivot")) {
    ctx.issue(
      [...path, "pivot"],
      "pivot ordering belongs to pivot reports: run one with google_analytics_api_call " +
        "(POST v1beta/properties/<id>:runPivotReport)",
    );
    return item;
  }
  // orderType in any case, as order_type is folded: "numeric" → NUMERIC.
  const parsed = GaOrderBy.safeParse(normaliseValue(GaOrderBy, item, path, ctx), { reportInput: true });
  if (!parsed.success) {
    const { problems, more } = describeIssues(parsed.error, GaOrderBy, path);
    for (const problem of problems) ctx.issue(problem.field, problem.message);
    ctx.omitted(more);
    return item;
  }
  const order = parsed.data;
  const desc = order.desc === undefined ? {} : { desc: order.desc };
  if ("metric" in order) return { field: order.metric.metricName, ...desc };
  const type = order.dimension.orderType;
  return {
    field: order.dimension.dimensionName,
    ...desc,
    // ORDER_TYPE_UNSPECIFIED is GA's name for its default, which leaving it out asks for too.
    ...(type && type !== "ORDER_TYPE_UNSPECIFIED" ? { order_type: type } : {}),
  };
}

/** orderBys as GA writes them ({metric:{metricName}, desc}, {dimension:{dimensionName, orderType}}) → [{field, desc, order_type}]. */
const gaOrderBys: ValueConverter = (value, path, ctx) => {
  if (!Array.isArray(value)) return value;
  return value.map((item, index) =>
    isPlainObject(item) && ["metric", "dimension", "pivot"].some((key) => Object.hasOwn(item, key))
      ? fromGaOrderBy(item, [...path, index], ctx)
      : item,
  );
};

const FILTER_ALIASES = ["dimensionFilter", "metricFilter"] as const;

/** One of dimensionFilter / metricFilter as a FilterExpression, parsed on its own; undefined if it is refused. */
function filterPart(key: string, value: unknown, ctx: NormaliseContext): FilterExpression | undefined {
  if (isPlainObject(value)) return checkFilterExpression(value, key);
  const text = FilterText.safeParse(value, { reportInput: true });
  if (text.success) return parseFilter(text.data, key);
  if (typeof value === "string") {
    for (const problem of describeIssues(text.error, FilterText, [key]).problems) {
      ctx.issue(problem.field, problem.message);
    }
  } else ctx.issue([key], 'expected a GA FilterExpression object, or a filter such as country == "France"');
  return undefined;
}

/**
 * dimensionFilter and metricFilter (GA's two FilterExpressions) become the one `filter`, which already takes a
 * raw FilterExpression and splits dimension and metric conditions again before sending. Given both, each is
 * parsed on its own and the two expressions are joined in an and-group: GA keeps the rows that pass both,
 * which is what an and-group split back into the two means. (Joining the strings instead let one break out of
 * its parentheses: 'a") or ("b' and 'c' read as a or (b and c).)
 */
function filterAliases(
  input: Readonly<Record<string, unknown>>,
  ctx: NormaliseContext,
): Record<string, unknown> {
  const given = FILTER_ALIASES.filter((key) => ownValue(input, key) !== undefined);
  if (given.length === 0) return {};
  if (ownValue(input, "filter") !== undefined) {
    ctx.issue(
      [given[0] as string],
      `both filter and ${given.join(" and ")} are given; put all conditions in filter (dimension and metric ` +
        "conditions are split for you)",
    );
    return {};
  }
  const removed = { dimensionFilter: undefined, metricFilter: undefined };
  const parts = given.map((key) => filterPart(key, input[key], ctx));
  const expressions = parts.filter((part): part is FilterExpression => part !== undefined);
  if (expressions.length < parts.length) return removed;
  return { ...removed, filter: expressions.length === 1 ? expressions[0] : { andGroup: { expressions } } };
}

export const RUN_REPORTS_ALIASES: InputAliases = {
  rename: { orderBys: "order_by", propertyId: "property" },
  values: {
    property: numberAsString,
    metrics: nameObjects,
    dimensions: nameObjects,
    order_by: gaOrderBys,
    limit: integerString,
    offset: integerString,
  },
  unsupported: {
    metricAggregations: `totals come back in totals; for MINIMUM, MAXIMUM or COUNT ${RAW_REQUEST}`,
    keepEmptyRows: `not supported here; ${RAW_REQUEST}`,
    currencyCode: `revenue is reported in the property's currency here; ${RAW_REQUEST}`,
    comparisons: `not supported here; ${RAW_REQUEST}`,
    cohortSpec: `cohort reports are not supported here; ${RAW_REQUEST}`,
  },
  prepare(input, ctx) {
    // Run Reports always asks for the quota: true only repeats what it does; false it cannot honour.
    const quota = ownValue(input, "returnPropertyQuota");
    if (quota !== undefined && quota !== true) {
      ctx.issue(
        ["returnPropertyQuota"],
        "google_analytics_run_reports always returns the property quota; remove returnPropertyQuota",
      );
    }
    return { ...filterAliases(input, ctx), returnPropertyQuota: undefined };
  },
};
