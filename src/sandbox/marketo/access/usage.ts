/**
 * API usage and errors (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/usage):
 * calls and error responses are counted per day in the subscription's time zone; the daily quota
 * resets at 12:00 AM CST. Every response-level error counts, including refused tokens and limits
 * (inferred: the page does not say which codes are left out).
 */
import type { HandlerContext, HandlerResult } from "../types.js";

const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" in America/Chicago, where Marketo's day (and quota) turns over. */
export function chicagoDate(ms: number): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Chicago",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(ms));
}

function day(ctx: HandlerContext, offsetDays: number) {
  const total = ctx.callsOn(offsetDays);
  return {
    date: chicagoDate(ctx.now() - offsetDays * DAY_MS),
    total,
    users: total > 0 ? [{ userId: ctx.apiUserEmail, count: total }] : [],
  };
}

export function getUsage(_req: unknown, ctx: HandlerContext): HandlerResult {
  return { result: [day(ctx, 0)] };
}

export function getUsageLast7Days(_req: unknown, ctx: HandlerContext): HandlerResult {
  return { result: [0, 1, 2, 3, 4, 5, 6].map((d) => day(ctx, d)) };
}

function errorDay(ctx: HandlerContext, daysAgo: number) {
  const counts = [...ctx.errorsOn(daysAgo)].sort(([a], [b]) => a.localeCompare(b));
  return {
    date: chicagoDate(ctx.now() - daysAgo * DAY_MS),
    total: counts.reduce((sum, [, count]) => sum + count, 0),
    errors: counts.map(([errorCode, count]) => ({ errorCode, count })),
  };
}

export function getErrors(_req: unknown, ctx: HandlerContext): HandlerResult {
  return { result: [errorDay(ctx, 0)] };
}

export function getErrorsLast7Days(_req: unknown, ctx: HandlerContext): HandlerResult {
  return { result: [0, 1, 2, 3, 4, 5, 6].map((d) => errorDay(ctx, d)) };
}
