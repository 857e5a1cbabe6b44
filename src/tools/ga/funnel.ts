/**
 * The funnel mode of google_analytics_run_reports: Data API v1alpha runFunnelReport
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/properties/runFunnelReport,
 * guide: https://developers.google.com/analytics/devguides/reporting/data/v1/funnels). The answer is the
 * funnelTable as one row per step (and breakdown value) and a summary with the overall conversion, the step
 * losing the most users and the steepest drop already computed, so an agent states them without arithmetic.
 * Each step's event is checked first (funnel-steps.ts): GA answers an unknown event with zeros.
 */
import type { ChartModel } from "../../charts/model.js";
import type { ConnectorOf } from "../../connections/registry.js";
import type { PropertyQuota } from "../../connectors/google/types.js";
import type { RunReportsFields, RunReportsOutput } from "../../schemas/google-analytics.js";
import {
  type DateRange,
  type ResolvedDates,
  rangeText,
  type StatedRange,
  statedRanges,
  todayIn,
} from "./date-presets.js";
import { checkedCatalog } from "./field-names.js";
import { comparedFunnelRows, comparedFunnelWords, inTimeOrder } from "./funnel-compare.js";
import { checkFunnelSteps } from "./funnel-steps.js";
import { CHECKED_DAYS } from "./key-events.js";
import { rangeLabels } from "./period-words.js";
import { type PropertyRef, propertyText } from "./property-name.js";
import { funnelChart } from "./report-chart.js";
import { dataStartNote } from "./report-data-start.js";
import { type FlatRow, quotaSummary } from "./report-flatten.js";
import { periodNote } from "./report-periods.js";

type Funnel = NonNullable<RunReportsFields["funnel"]>;
interface SubReport {
  dimensionHeaders?: { name?: string }[];
  metricHeaders?: { name?: string }[];
  rows?: { dimensionValues?: { value?: string }[]; metricValues?: { value?: string }[] }[];
}
interface FunnelResponse {
  funnelTable?: SubReport;
  funnelVisualization?: SubReport;
  propertyQuota?: unknown;
}

/** The RunFunnelReportRequest: each step an event filter (FunnelEventFilter), names defaulting to the event. */
export function funnelRequest(funnel: Funnel, dateRanges: DateRange[] | undefined): Record<string, unknown> {
  return {
    ...(dateRanges ? { dateRanges } : {}),
    funnel: {
      isOpenFunnel: funnel.open === true,
      steps: funnel.steps.map((event) => ({
        name: event,
        filterExpression: { funnelEventFilter: { eventName: event } },
      })),
    },
    ...(funnel.breakdown ? { funnelBreakdown: { breakdownDimension: { name: funnel.breakdown } } } : {}),
    ...(funnel.next_action
      ? { funnelNextAction: { nextActionDimension: { name: funnel.next_action } } }
      : {}),
  };
}

export async function runFunnel(
  ga: ConnectorOf<"google">,
  propertyId: string,
  request: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<FunnelResponse> {
  const path = `v1alpha/properties/${propertyId}:runFunnelReport`;
  return (await ga.request("data", { method: "POST", path, body: request, signal })) as FunnelResponse;
}

const num = (v: string | undefined) => Number(v ?? 0);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
/** "1. add_to_cart" → "add_to_cart": GA numbers the steps; the rows carry the number separately. */
const stepName = (v: string) => v.replace(/^\d+\.\s*/, "");

/** One row per step (and breakdown value): users, completion and abandonment rates in %. */
export function funnelRows(
  response: FunnelResponse,
  funnel: Funnel,
): { rows: FlatRow[]; nextRows: FlatRow[] } {
  const table = response.funnelTable ?? {};
  const breakdown = table.dimensionHeaders?.[1]?.name;
  const rows = (table.rows ?? []).map((r): FlatRow => {
    const [step = "", value] = (r.dimensionValues ?? []).map((d) => d.value ?? "");
    const [users, completion, abandonments, abandonmentRate] = (r.metricValues ?? []).map((m) =>
      num(m.value),
    );
    const number = Number(/^(\d+)\./.exec(step)?.[1] ?? 0);
    // The last step has no next step to complete into: GA's 0 there would read as "nobody converted".
    const last = number === funnel.steps.length;
    // No user at a step: its rates are over none, not 0 (review s31, finding 1: +3.3 points from a period before
    // the data).
    const none = last || !users;
    return {
      step_number: number,
      step: stepName(step),
      ...(breakdown ? { [breakdown]: value === "RESERVED_TOTAL" ? "(all)" : (value ?? "") } : {}),
      users: users ?? 0,
      completion_rate_pct: none ? null : round((completion ?? 0) * 100),
      abandonments: last ? null : (abandonments ?? 0),
      abandonment_rate_pct: none ? null : round((abandonmentRate ?? 0) * 100),
    };
  });
  const next = funnel.next_action;
  const viz = response.funnelVisualization ?? {};
  const nextRows = next
    ? (viz.rows ?? []).map((r): FlatRow => {
        const [step = "", value = ""] = (r.dimensionValues ?? []).map((d) => d.value ?? "");
        return { step: stepName(step), [`next_${next}`]: value, users: num(r.metricValues?.[0]?.value) };
      })
    : [];
  return { rows, nextRows };
}

const fmt = (n: number) => n.toLocaleString("en-US");

interface Drop {
  from: string;
  to: string;
  lost: number;
  pct: number;
}

/** The step change that loses the most users and the one with the steepest rate drop (GA's step order). */
function worstDrops(total: FlatRow[]): { most?: Drop; steepest?: Drop } {
  let most: Drop | undefined;
  let steepest: Drop | undefined;
  for (let i = 0; i + 1 < total.length; i++) {
    const a = Number(total[i]?.users);
    const b = Number(total[i + 1]?.users);
    const drop = {
      from: String(total[i]?.step),
      to: String(total[i + 1]?.step),
      lost: a - b,
      pct: a === 0 ? 0 : round(((b - a) / a) * 100),
    };
    if (drop.lost > 0 && (!most || drop.lost > most.lost)) most = drop;
    if (drop.pct < 0 && (!steepest || drop.pct < steepest.pct)) steepest = drop;
  }
  return { ...(most ? { most } : {}), ...(steepest ? { steepest } : {}) };
}

/**
 * "the most users are lost at a → b (4,739, −66.7 %); the steepest drop is c → d (−80 %)". The two differ when
 * an early step loses many of many users and a later one most of few: both are said, or that they are one step
 * ("the most users are lost at a → b (90 users, −90 %), which is also the steepest drop").
 */
function dropWords(total: FlatRow[]): string {
  const { most, steepest } = worstDrops(total);
  if (!most || !steepest) return "; no step loses users";
  const at = (d: Drop) => `${d.from} → ${d.to}`;
  if (most.from === steepest.from && most.to === steepest.to) {
    return `; the most users are lost at ${at(most)} (${fmt(most.lost)} users, ${most.pct} %), which is also the steepest drop`;
  }
  return (
    `; the most users are lost at ${at(most)} (${fmt(most.lost)}, ${most.pct} %), ` +
    `the steepest drop is ${at(steepest)} (${fmt(steepest.lost)}, ${steepest.pct} %)`
  );
}

/**
 * "Closed funnel: of 1,234 active users who did session_start, 310 (25.1 %) reached purchase; the most users
 * are lost at ...". GA's funnel counts active users (the funnelTable's metric is activeUsers:
 * https://developers.google.com/analytics/devguides/reporting/data/v1/funnels, FunnelSubReport
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1alpha/FunnelSubReport), so the
 * summary says so: they are not the totalUsers or sessions of a report.
 */
export function funnelSummary(rows: FlatRow[], funnel: Funnel, breakdown: boolean): string {
  const total = breakdown ? rows.filter((r) => r[funnel.breakdown ?? ""] === "(all)") : rows;
  const first = total[0];
  const last = total[total.length - 1];
  if (!first || !last) return "The funnel has no rows.";
  const start = Number(first.users);
  const end = Number(last.users);
  if (start === 0) return `No active user did ${first.step}: the funnel has no users, and no rates.`;
  const pct = round((end / start) * 100);
  const drops = dropWords(total);
  if (funnel.open) {
    return (
      `Open funnel (users may enter at any step), active users as GA counts them: ${fmt(start)} at ${first.step}, ` +
      `${fmt(end)} at ${last.step} (${pct} % as many)${drops}.`
    );
  }
  return `Closed funnel: of ${fmt(start)} active users who did ${first.step}, ${fmt(end)} (${pct} %) reached ${last.step}${drops}.`;
}

/**
 * A breakdown holds GA's largest values only, 5 when no limit is sent (FunnelBreakdown.limit: "A limit of 5 is
 * used if limit is not specified", https://cloud.google.com/php/docs/reference/analytics-data/latest/V1alpha.FunnelBreakdown),
 * while each step's "(all)" row counts every user: with that many values shown, there may be others.
 */
const BREAKDOWN_LIMIT = 5;

function breakdownHint(rows: FlatRow[], breakdown: string | undefined): string[] {
  if (!breakdown) return [];
  const values = new Set(rows.map((row) => row[breakdown]).filter((value) => value !== "(all)"));
  if (values.size < BREAKDOWN_LIMIT) return [];
  return [
    `GA returns at most ${BREAKDOWN_LIMIT} values of a breakdown: these are the ${values.size} largest values of ` +
      `${breakdown}; each step's (all) row counts every user, those of other values too, so the values shown ` +
      "may not add up to it.",
  ];
}

/** The step's answer in funnel mode: rows per step, next actions after them, real dates in the summary. */
export async function funnelAnswer(o: {
  ga: ConnectorOf<"google">;
  property: PropertyRef;
  funnel: Funnel;
  dates: ResolvedDates | undefined;
  zone: string | undefined;
  now: Date;
  /** The property's first day: a period before it has no data (review s30, finding 4). */
  firstDay?: string | undefined;
  signal: AbortSignal | undefined;
}): Promise<{ data: RunReportsOutput; summary: string; chart: ChartModel }> {
  const breakdown = o.funnel.breakdown;
  if (breakdown !== undefined) {
    // Checked against the property's metadata, as the report's own dimensions are (did-you-mean, UA names).
    await checkedCatalog(o.ga, o.property.id, o.signal, (catalog) =>
      [catalog.problem(breakdown, "dimension", "funnel.breakdown")].flatMap((p) => p ?? []),
    );
  }
  // Two periods are compared from the earlier to the later, as two-range reports are (review s25, finding 2).
  const asked = o.dates ? statedRanges(o.dates.dateRanges, o.now, o.zone) : undefined;
  const order = asked?.length === 2 ? inTimeOrder(asked) : undefined;
  const stated = order && asked ? order.flatMap((i) => asked[i] ?? []) : asked;
  const ranges = order ? order.flatMap((i) => o.dates?.dateRanges[i] ?? []) : (o.dates?.dateRanges ?? []);
  // The events are looked for in the latest period: an event new since an earlier one is 0 there, not a typo.
  const latest = stated?.[stated.length - 1];
  await checkFunnelSteps({
    ga: o.ga,
    propertyId: o.property.id,
    steps: o.funnel.steps,
    dateRange: ranges[ranges.length - 1] ?? CHECKED_DAYS,
    datesText: latest ? `in ${rangeText(latest)} (${o.zone ?? "UTC"})` : "in the last 30 days",
    signal: o.signal,
  });
  // Two periods: the funnel once per period, compared step by step (funnel-compare.ts).
  const runs = ranges.length === 2 ? ranges.map((range) => [range]) : [o.dates?.dateRanges];
  const answers: FunnelResponse[] = [];
  for (const run of runs)
    answers.push(await runFunnel(o.ga, o.property.id, funnelRequest(o.funnel, run), o.signal));
  const parts = answers.map((response) => funnelRows(response, o.funnel));
  const quota = quotaSummary(
    (answers[answers.length - 1]?.propertyQuota as PropertyQuota | undefined) ??
      o.ga.quota(o.property.id, "core")?.quotas,
  );
  const labels = stated && parts.length === 2 ? (rangeLabels(stated) as [string, string]) : undefined;
  const today = todayIn(o.now, o.zone);
  const shown = funnelShown(parts, labels, o.funnel, { stated: stated ?? [], today, firstDay: o.firstDay });
  const data: RunReportsOutput = {
    property: `properties/${o.property.id}`,
    ...(o.property.displayName ? { property_name: o.property.displayName } : {}),
    rows: shown.rows,
    row_count: shown.rows.length,
    totals: [],
    ...(quota ? { quota } : {}),
    ...(o.zone ? { metadata: { time_zone: o.zone } } : {}),
    ...(stated ? { date_ranges: stated } : {}),
    request: funnelRequest(o.funnel, o.dates ? ranges : undefined),
    hints: [
      ...funnelHints(o.property.id, shown.nextRows, labels),
      ...(o.zone ? [] : [UTC_HINT]),
      ...breakdownHint(shown.rows, breakdown),
    ],
  };
  const dated = stated
    ? ` for ${stated.map((r) => rangeText(r)).join(" and ")}, dates in ${o.zone ?? "UTC"}`
    : "";
  const latestRows = parts[parts.length - 1]?.rows ?? [];
  return {
    data,
    chart: funnelChart({ ...data, rows: latestRows }, breakdown),
    summary: `Funnel report on ${propertyText(o.property)}${dated}. ${shown.summary}`,
  };
}

const UTC_HINT = "The dates are stated in UTC: GA did not say the property's time zone.";

/** The rows and summary of one period's funnel, or of two compared. */
function funnelShown(
  parts: { rows: FlatRow[]; nextRows: FlatRow[] }[],
  labels: [string, string] | undefined,
  funnel: Funnel,
  dates: { stated: readonly StatedRange[]; today: string; firstDay?: string | undefined },
): { rows: FlatRow[]; nextRows: FlatRow[]; summary: string } {
  const broken = funnel.breakdown !== undefined;
  const [first, second] = parts;
  const compared = labels !== undefined && first !== undefined && second !== undefined;
  // A period reaching before the data: said as a report says it, with the days to compare (review s30, finding 4).
  const early = dates.firstDay
    ? dataStartNote(dates.stated, dates.firstDay, compared, dates.today)
    : undefined;
  const after = early ? ` ${early}` : "";
  if (!labels || !first || !second) {
    const { rows = [], nextRows = [] } = first ?? {};
    return {
      rows: [...rows, ...nextRows],
      nextRows,
      summary: `${funnelSummary(rows, funnel, broken)}${after}`,
    };
  }
  const pair = [first.rows, second.rows] as const;
  const each = labels.map((label, i) => `${label}: ${funnelSummary(parts[i]?.rows ?? [], funnel, broken)}`);
  // Periods of different length, or one still running, said as two-range reports say it, with like-for-like dates.
  const lengths = periodNote(dates.stated, [0, 1], labels, dates.today, dates.firstDay);
  return {
    rows: comparedFunnelRows(pair, labels, funnel.breakdown),
    nextRows: [],
    summary: `${each.join(" ")}${comparedFunnelWords(pair, labels, funnel)}${lengths ? ` ${lengths}` : ""}${after}`,
  };
}

function funnelHints(
  propertyId: string,
  nextRows: FlatRow[],
  labels: [string, string] | undefined,
): string[] {
  return [
    labels
      ? `Rows: users reaching each step in ${labels[0]} and ${labels[1]} (users[<period>]) and the change; each ` +
        "step's completion_rate_pct in each period, and its change in points (null on the last step)."
      : "Rows: users reaching each step; completion_rate_pct of them went on to the next step, abandonments did " +
        "not (null on the last step).",
    labels
      ? `request is GA's runFunnelReport body for both periods, which GA answers with rows per date range index; the step ran it once per period (POST v1alpha/properties/${propertyId}:runFunnelReport with google_analytics_api_call).`
      : `request is GA's runFunnelReport body: google_analytics_api_call with POST v1alpha/properties/${propertyId}:runFunnelReport and it as body returns GA's raw answer.`,
    ...(nextRows.length > 0
      ? [`The last ${nextRows.length} rows are the next actions after each step.`]
      : []),
  ];
}
