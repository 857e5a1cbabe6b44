/**
 * What this process has seen of a Marketo instance's answers since it started: how many calls were
 * answered, since when, and how the last one went. The integrations card says it in a person's words
 * (trial s10, finding 5: "Set up, not tested yet" for a Marketo that had answered 21 calls). Memory
 * only, like the card's last Test: a restart begins again, and the card says "since" when.
 */
import type { CallRecord } from "./types.js";

export class CallLog {
  #record: CallRecord = { answered: 0 };
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  answered(): void {
    const at = this.#now();
    this.#record = {
      answered: this.#record.answered + 1,
      since: this.#record.since ?? at,
      last: { ok: true, at },
    };
  }

  failed(message: string): void {
    this.#record = { ...this.#record, last: { ok: false, at: this.#now(), message } };
  }

  read(): CallRecord {
    return this.#record;
  }
}
