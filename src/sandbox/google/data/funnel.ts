/**
 * runFunnelReport (Data API v1alpha): POST /v1alpha/properties/{id}:runFunnelReport.
 * Request and response shapes from Google's reference,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport,
 * and the funnels guide, https://developers.google.com/analytics/devguides/reporting/data/v1/funnels:
 * the response holds two FunnelSubReports, funnelTable (funnelStepName [+ breakdown] × activeUsers,
 * completionRate, abandonments, abandonmentRate) and funnelVisualization (funnelStepName [+ date for a
 * TRENDED_FUNNEL] [+ next action] × activeUsers), with kind "analyticsData#runFunnelReport".
 *
 * The numbers come from the sandbox's event data through the core engine: a step's users are the active
 * users of its event in the date ranges. A closed funnel counts at step n at most the users of step n-1
 * (users must pass every earlier step); an open funnel lets users enter at any step, so each step counts
 * its own event's users. Step names are numbered "1. name" as the guide's sample response shows them.
 */
import { type ReportResult, type ReportScope, runReport } from "./core-report.js";
import { invalidArgument, isObject, rejectUnknownKeys } from "./rpc.js";

const KEYS = [
  "property",
  "dateRanges",
  "funnel",
  "funnelBreakdown",
  "funnelNextAction",
  "funnelVisualizationType",
  "segments",
  "limit",
  "dimensionFilter",
  "returnPropertyQuota",
];
const STEP_KEYS = ["name", "isDirectlyFollowedBy", "withinDurationFromPriorStep", "filterExpression"];
const VISUALIZATIONS = ["FUNNEL_VISUALIZATION_TYPE_UNSPECIFIED", "STANDARD_FUNNEL", "TRENDED_FUNNEL"];
/** FunnelNextAction: "nextActionDimension ... can be eventName, pagePath or ..." — only these two. */
const NEXT_ACTION_DIMENSIONS = ["eventName", "pagePath"];
/**
 * FunnelBreakdown.limit and FunnelNextAction.limit: "A limit of 5 is used if limit is not specified"; a
 * breakdown's "cannot exceed 15" (the v1alpha reference, as Google's client libraries carry it:
 * https://cloud.google.com/php/docs/reference/analytics-data/latest/V1alpha.FunnelBreakdown).
 */
const DEFAULT_LIMIT = 5;
const MAX_BREAKDOWN_LIMIT = 15;
const TOTAL = "RESERVED_TOTAL";

interface Step {
  name: string;
  filter: Record<string, unknown>;
}

/** A FunnelFilterExpression as the core report's FilterExpression (same filter shapes, other key names). */
function coreFilter(raw: unknown, where: string): Record<string, unknown> {
  if (!isObject(raw)) throw invalidArgument(`${where} must be a FunnelFilterExpression object.`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) {
    throw invalidArgument(
      `${where} must set exactly one of andGroup, orGroup, notExpression, funnelFieldFilter, funnelEventFilter.`,
    );
  }
  const [key] = keys;
  const value = raw[key as string];
  if (key === "andGroup" || key === "orGroup") {
    const list = isObject(value) ? value.expressions : undefined;
    if (!Array.isArray(list) || list.length === 0)
      throw invalidArgument(`${where}.${key}.expressions must hold at least one expression.`);
    return { [key]: { expressions: list.map((e, i) => coreFilter(e, `${where}.${key}.expressions[${i}]`)) } };
  }
  if (key === "notExpression") return { notExpression: coreFilter(value, `${where}.notExpression`) };
  if (key === "funnelEventFilter") {
    const name = isObject(value) ? value.eventName : undefined;
    if (typeof name !== "string" || name === "")
      throw invalidArgument(`${where}.funnelEventFilter.eventName is required.`);
    if (isObject(value) && value.funnelParameterFilterExpression !== undefined)
      throw invalidArgument("funnelParameterFilterExpression is not supported by this sandbox emulator.");
    return { filter: { fieldName: "eventName", stringFilter: { matchType: "EXACT", value: name } } };
  }
  if (key === "funnelFieldFilter") {
    if (!isObject(value) || typeof value.fieldName !== "string")
      throw invalidArgument(`${where}.funnelFieldFilter.fieldName is required.`);
    return { filter: value };
  }
  throw invalidArgument(`Invalid JSON payload received. Unknown name "${key}" at '${where}'.`);
}

function parseSteps(funnel: unknown): { steps: Step[]; open: boolean } {
  if (!isObject(funnel)) throw invalidArgument("funnel is required: a Funnel with at least one step.");
  rejectUnknownKeys(funnel, ["isOpenFunnel", "steps"]);
  const raw = funnel.steps;
  if (!Array.isArray(raw) || raw.length === 0)
    throw invalidArgument("funnel.steps must hold at least one step.");
  const steps = raw.map((step, i) => {
    const where = `funnel.steps[${i}]`;
    if (!isObject(step)) throw invalidArgument(`${where} must be a FunnelStep object.`);
    rejectUnknownKeys(step, STEP_KEYS);
    if (typeof step.name !== "string" || step.name === "")
      throw invalidArgument(`${where}.name is required.`);
    if (step.filterExpression === undefined) throw invalidArgument(`${where}.filterExpression is required.`);
    return { name: step.name, filter: coreFilter(step.filterExpression, `${where}.filterExpression`) };
  });
  return { steps, open: funnel.isOpenFunnel === true };
}

function dimensionOf(raw: unknown, key: string, field: string): { name: string; limit: number } | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) throw invalidArgument(`${key} must be an object.`);
  rejectUnknownKeys(raw, [field, "limit"]);
  const dim = raw[field];
  const name = isObject(dim) ? dim.name : undefined;
  if (typeof name !== "string" || name === "") throw invalidArgument(`${key}.${field}.name is required.`);
  const limit = raw.limit === undefined ? DEFAULT_LIMIT : Number(raw.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw invalidArgument(`${key}.limit must be a positive integer.`);
  if (key === "funnelBreakdown" && limit > MAX_BREAKDOWN_LIMIT)
    throw invalidArgument(`${key}.limit cannot exceed ${MAX_BREAKDOWN_LIMIT}; it is ${limit}.`);
  return { name, limit };
}

/** Active users per dimension value ("" without dimensions) for one filter, through the core engine. */
function usersBy(
  body: Record<string, unknown>,
  scope: ReportScope,
  filter: Record<string, unknown>,
  dimensions: string[],
  cost: ReportResult["cost"],
): Map<string, number> {
  const request: Record<string, unknown> = {
    dateRanges: body.dateRanges,
    metrics: [{ name: "activeUsers" }],
    dimensions: dimensions.map((name) => ({ name })),
    dimensionFilter: isObject(body.dimensionFilter)
      ? { andGroup: { expressions: [filter, body.dimensionFilter] } }
      : filter,
    limit: 100_000,
  };
  const result = runReport(request, scope);
  cost.days = Math.max(cost.days, result.cost.days);
  cost.rows += result.cost.rows;
  const users = new Map<string, number>();
  for (const row of (result.body.rows ?? []) as {
    dimensionValues?: { value: string }[];
    metricValues: { value: string }[];
  }[]) {
    // Several date ranges add a dateRange dimension: the funnel counts them together.
    const key = (row.dimensionValues ?? [])
      .slice(0, dimensions.length)
      .map((d) => d.value)
      .join("\u0000");
    users.set(key, (users.get(key) ?? 0) + Number(row.metricValues[0]?.value ?? 0));
  }
  return users;
}

/** Users reaching each step per key: closed funnels never grow from one step to the next. */
function stepUsers(perStep: Map<string, number>[], open: boolean): Map<string, number>[] {
  const keys = new Set(perStep.flatMap((m) => [...m.keys()]));
  const out = perStep.map(() => new Map<string, number>());
  for (const key of keys) {
    let previous = Number.POSITIVE_INFINITY;
    perStep.forEach((m, i) => {
      const own = m.get(key) ?? 0;
      const users = open ? own : Math.min(previous, own);
      out[i]?.set(key, users);
      previous = users;
    });
  }
  return out;
}

const intHeader = (name: string) => ({ name, type: "TYPE_INTEGER" });
const row = (dims: string[], values: (number | string)[]) => ({
  dimensionValues: dims.map((value) => ({ value })),
  metricValues: values.map((v) => ({ value: String(v) })),
});

/** funnelTable: per step (and breakdown value, RESERVED_TOTAL first), users, completion and abandonment. */
function funnelTable(
  names: string[],
  users: Map<string, number>[],
  breakdown: { name: string; limit: number } | undefined,
) {
  const totals = users.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
  const top = breakdown
    ? [...(users[0] ?? new Map<string, number>()).entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, breakdown.limit)
        .map(([k]) => k)
    : [];
  const rows = names.flatMap((name, i) => {
    const values = (n: number, next: number | undefined) => {
      // The last step has no next step: nobody abandons it, and its completion rate is 0 as in GA's sample.
      const abandonments = next === undefined ? 0 : Math.max(0, n - next);
      const completion = next === undefined || n === 0 ? 0 : Math.min(1, next / n);
      return [n, completion, abandonments, n === 0 ? 0 : abandonments / n];
    };
    const own = [row(breakdown ? [name, TOTAL] : [name], values(totals[i] ?? 0, totals[i + 1]))];
    for (const key of top) {
      own.push(row([name, key], values(users[i]?.get(key) ?? 0, users[i + 1]?.get(key))));
    }
    return own;
  });
  return {
    dimensionHeaders: [{ name: "funnelStepName" }, ...(breakdown ? [{ name: breakdown.name }] : [])],
    metricHeaders: [
      intHeader("activeUsers"),
      { name: "completionRate", type: "TYPE_FLOAT" },
      intHeader("abandonments"),
      { name: "abandonmentRate", type: "TYPE_FLOAT" },
    ],
    rows,
    metadata: {},
  };
}

export function runFunnelReport(raw: unknown, scope: ReportScope): ReportResult {
  if (!isObject(raw)) throw invalidArgument("The request body must be a RunFunnelReportRequest JSON object.");
  rejectUnknownKeys(raw, KEYS);
  if (Array.isArray(raw.segments) && raw.segments.length > 0)
    throw invalidArgument(
      "segments are not supported by this sandbox emulator; remove them from the request.",
    );
  const { steps, open } = parseSteps(raw.funnel);
  const breakdown = dimensionOf(raw.funnelBreakdown, "funnelBreakdown", "breakdownDimension");
  const next = dimensionOf(raw.funnelNextAction, "funnelNextAction", "nextActionDimension");
  if (next && !NEXT_ACTION_DIMENSIONS.includes(next.name)) {
    throw invalidArgument(
      `funnelNextAction.nextActionDimension must be one of ${NEXT_ACTION_DIMENSIONS.join(", ")}.`,
    );
  }
  const visualization = raw.funnelVisualizationType ?? "STANDARD_FUNNEL";
  if (typeof visualization !== "string" || !VISUALIZATIONS.includes(visualization))
    throw invalidArgument(`funnelVisualizationType must be one of ${VISUALIZATIONS.join(", ")}.`);
  const trended = visualization === "TRENDED_FUNNEL";
  if (trended && next)
    throw invalidArgument(
      "funnelNextAction with a TRENDED_FUNNEL is not supported by this sandbox emulator.",
    );
  const cost = { days: 0, dimensions: 1 + (breakdown ? 1 : 0), rows: 0 };
  const names = steps.map((s, i) => `${i + 1}. ${s.name}`);
  const table = stepUsers(
    steps.map((s) => usersBy(raw, scope, s.filter, breakdown ? [breakdown.name] : [], cost)),
    open,
  );
  const body: Record<string, unknown> = {
    funnelTable: funnelTable(names, table, breakdown),
    funnelVisualization: visualizationReport(raw, scope, steps, names, open, trended, next, cost),
    kind: "analyticsData#runFunnelReport",
  };
  return { body, cost };
}

/** funnelVisualization: users per step (per date when trended), and each step's most common next actions. */
function visualizationReport(
  raw: Record<string, unknown>,
  scope: ReportScope,
  steps: Step[],
  names: string[],
  open: boolean,
  trended: boolean,
  next: { name: string; limit: number } | undefined,
  cost: ReportResult["cost"],
) {
  const users = stepUsers(
    steps.map((s) => usersBy(raw, scope, s.filter, trended ? ["date"] : [], cost)),
    open,
  );
  const rows = names.flatMap((name, i) =>
    [...(users[i]?.entries() ?? [])]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([date, n]) => row(trended ? [date, name] : [name], [n])),
  );
  if (next) rows.push(...nextActions(raw, scope, steps, names, users, next, cost));
  return {
    dimensionHeaders: [
      ...(trended ? [{ name: "date" }] : []),
      { name: "funnelStepName" },
      ...(next ? [{ name: next.name }] : []),
    ],
    metricHeaders: [intHeader("activeUsers")],
    rows: next && !trended ? rows.filter((r) => r.dimensionValues.length > 1) : rows,
    metadata: {},
  };
}

/** The next actions after each step: the step's users shared out over the other most common values. */
function nextActions(
  raw: Record<string, unknown>,
  scope: ReportScope,
  steps: Step[],
  names: string[],
  users: Map<string, number>[],
  next: { name: string; limit: number },
  cost: ReportResult["cost"],
) {
  const all = usersBy(
    raw,
    scope,
    { filter: { fieldName: next.name, stringFilter: { matchType: "FULL_REGEXP", value: ".*" } } },
    [next.name],
    cost,
  );
  return names.flatMap((name, i) => {
    const ownEvent = (steps[i]?.filter.filter as { stringFilter?: { value?: string } } | undefined)
      ?.stringFilter?.value;
    const candidates = [...all.entries()].filter(([value]) => value !== ownEvent).sort((a, b) => b[1] - a[1]);
    const sum = candidates.reduce((a, [, n]) => a + n, 0);
    const stepTotal = [...(users[i]?.values() ?? [])].reduce((a, b) => a + b, 0);
    return candidates
      .slice(0, next.limit)
      .map(([value, n]) => row([name, value], [sum === 0 ? 0 : Math.floor((stepTotal * n) / sum)]));
  });
}
