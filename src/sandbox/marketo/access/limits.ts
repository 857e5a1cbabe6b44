/**
 * Marketo's per-instance limits (ADE rest-api.md "Limits", error-codes.md), checked in this order:
 * 615 concurrency (10 in flight), 606 rate (100 per ROLLING 20 s), 607 daily quota.
 * Only admitted calls occupy a slot, enter the rate log and use quota. The quota counts the calls of
 * the current day and "resets 12:00 AM CST" (REAL-API A5; error-codes.md 607): days are Chicago days.
 */
import { chicagoDate } from "./usage.js";

const DAY_MS = 86_400_000;
/** Days of counts kept: stats/usage/last7days.json reads back seven. */
const KEPT_DAYS = 8;

export interface LimitOptions {
  rateLimit: number;
  rateWindowMs: number;
  maxConcurrent: number;
  dailyQuota: number;
}

export type LimitCode = "606" | "607" | "615";

export class CallLimiter {
  private readonly log: number[] = [];
  private head = 0;
  inFlight = 0;
  /** Admitted calls per Chicago day ("YYYY-MM-DD"). */
  private readonly callsByDay = new Map<string, number>();

  constructor(
    private readonly options: LimitOptions,
    private readonly now: () => number,
  ) {}

  /** Admits the call (and takes a slot) or says which limit refused it. */
  admit(): { code: LimitCode; message: string } | undefined {
    const { rateLimit, rateWindowMs, maxConcurrent, dailyQuota } = this.options;
    if (this.inFlight >= maxConcurrent) {
      return { code: "615", message: `Concurrent access limit '${maxConcurrent}' reached` };
    }
    const t = this.now();
    while (this.head < this.log.length && (this.log[this.head] as number) <= t - rateWindowMs) this.head++;
    if (this.head > 1024) {
      this.log.splice(0, this.head);
      this.head = 0;
    }
    if (this.log.length - this.head >= rateLimit) {
      // The real message's odd "with in" spelling is verbatim (Azure Data Factory Marketo connector docs).
      return {
        code: "606",
        message: `Max rate limit '${rateLimit}' exceeded with in '${rateWindowMs / 1000}' secs`,
      };
    }
    const today = chicagoDate(t);
    const used = this.callsByDay.get(today) ?? 0;
    if (used >= dailyQuota) return { code: "607", message: "Daily quota reached" };
    if (used === 0) this.forgetOldDays(t);
    this.log.push(t);
    this.callsByDay.set(today, used + 1);
    this.inFlight++;
    return undefined;
  }

  /** Admitted calls on the Chicago day `daysAgo` days before the one of `now`. */
  callsOn(daysAgo: number): number {
    return this.callsByDay.get(chicagoDate(this.now() - daysAgo * DAY_MS)) ?? 0;
  }

  private forgetOldDays(t: number): void {
    const oldest = chicagoDate(t - KEPT_DAYS * DAY_MS);
    for (const day of this.callsByDay.keys()) if (day < oldest) this.callsByDay.delete(day);
  }

  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }
}
