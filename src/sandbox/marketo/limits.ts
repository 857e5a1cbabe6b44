/**
 * Marketo's per-instance limits (ADE rest-api.md "Limits", error-codes.md), checked in this order:
 * 615 concurrency (10 in flight), 606 rate (100 per ROLLING 20 s), 607 daily quota.
 * Only admitted calls occupy a slot, enter the rate log and use quota.
 */

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
  quotaUsed = 0;

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
    if (this.quotaUsed >= dailyQuota) return { code: "607", message: "Daily quota reached" };
    this.log.push(t);
    this.quotaUsed++;
    this.inFlight++;
    return undefined;
  }

  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }
}
