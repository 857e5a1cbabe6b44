import { sharedKey } from "../../state/keys.js";
/**
 * Calls made through one Google account, per UTC day, kept in the workspace's shared state (memory, or
 * Redis for several replicas) so every replica's console shows the same count. The day is UTC, not
 * Google's: this is our own count of requests sent, not a Google quota. GA4's own daily token quota
 * refreshes at midnight Pacific time and is shown from `propertyQuota` instead
 * (https://developers.google.com/analytics/devguides/reporting/data/v1/quotas: "Daily quotas refresh at
 * midnight PST").
 */
import type { SharedState } from "../../state/types.js";

const DAY_MS = 86_400_000;
/** A day's counter outlives its day a little, so a read at 23:59:59 never finds it already gone. */
const DAY_KEY_SLACK_MS = 60 * 60_000;

export interface GoogleCallsToday {
  /** Requests sent through the account since `since` (retries of one request are not counted again). */
  calls: number;
  /** 00:00 UTC of today, ISO 8601. */
  since: string;
}

export class AccountCalls {
  readonly #state: SharedState;
  readonly #scope: string;
  readonly #now: () => number;

  /** `scope` names the workspace and account: labels are per workspace. */
  constructor(state: SharedState, scope: string, now: () => number) {
    this.#state = state;
    this.#scope = scope;
    this.#now = now;
  }

  async count(): Promise<void> {
    const now = this.#now();
    const start = now - (now % DAY_MS);
    await this.#state.counterAdd(this.#key(start), 1, start + DAY_MS - now + DAY_KEY_SLACK_MS);
  }

  async today(): Promise<GoogleCallsToday> {
    const now = this.#now();
    const start = now - (now % DAY_MS);
    return { calls: await this.#state.counterGet(this.#key(start)), since: new Date(start).toISOString() };
  }

  #key(dayStart: number): string {
    return sharedKey(`google:calls:${this.#scope}`, new Date(dayStart).toISOString().slice(0, 10));
  }
}
