import { UpstreamError } from "../../errors.js";

/** Short answers (fewer bytes than asked, before the end of the file) tolerated in one call. */
export const SHORT_ANSWERS_ALLOWED = 2;
/**
 * An answer carrying less than this share of what was asked makes too little progress to go on: at
 * that pace one tool call would spend hundreds of API calls (each counts against the shared rate
 * window and the daily quota) before its deadline.
 */
export const PROGRESS_FLOOR = 1 / 16;

/**
 * The Range requests of one read of an export file, bounded by the bytes it expects: the rest of the
 * file in full answers, plus a few short ones. A 206 may legitimately carry less than asked (RFC 9110
 * §14.1.2 lets a server answer a subset; a proxy may cut one), so one short answer is read on; an answer
 * that makes almost no progress, or short answers that keep coming, are an upstream fault.
 */
export class RangeBudget {
  readonly #path: string;
  readonly #chunkBytes: number;
  #requests = 0;
  #short = 0;
  #limit = Number.POSITIVE_INFINITY;

  constructor(path: string, chunkBytes: number) {
    this.#path = path;
    this.#chunkBytes = chunkBytes;
  }

  /** Once the file's size is known: the requests the bytes from `pos` to `total` need, at most. */
  expect(pos: number, total: number): void {
    if (Number.isFinite(this.#limit)) return;
    this.#limit =
      this.#requests + Math.ceil(Math.max(0, total - pos) / this.#chunkBytes) + SHORT_ANSWERS_ALLOWED;
  }

  /** Before each Range request. */
  next(): void {
    if (this.#requests >= this.#limit) {
      throw this.#fault(`it took more than ${this.#limit} Range requests, the most the bytes expected need`);
    }
    this.#requests += 1;
  }

  /** After each answer that is not the end of the file: `received` of the `asked` bytes came. */
  answered(asked: number, received: number): void {
    if (received >= asked) return;
    if (received < asked * PROGRESS_FLOOR) {
      throw this.#fault(`a 206 carried ${received} of the ${asked} bytes asked, too little to go on`);
    }
    this.#short += 1;
    if (this.#short > SHORT_ANSWERS_ALLOWED) {
      throw this.#fault(`${this.#short} answers of one read carried fewer bytes than asked`);
    }
  }

  #fault(why: string): UpstreamError {
    return new UpstreamError(
      `Marketo answered the export file ${this.#path} with fewer bytes than asked (${why}); reading stopped after ${this.#requests} Range requests.`,
      {
        hint: "Retry later; if it persists, something between this server and Marketo cuts the answers short.",
        details: { path: this.#path, rangeRequests: this.#requests },
      },
    );
  }
}
