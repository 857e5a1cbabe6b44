/**
 * Where the page's Content-Security-Policy reports violations (report-uri): each one is logged,
 * and kept (the last few) so tests can prove a console page runs without any.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "../log.js";
import { crossOrigin } from "./http-util.js";

const MAX_KEPT = 50;
const MAX_BYTES = 16 * 1024;
/** Log lines per minute: a page stuck in a loop of violations (or a local script) cannot flood the log. */
const MAX_LOGGED_PER_MINUTE = 20;
const MINUTE_MS = 60_000;

export class CspReports {
  readonly #reports: Record<string, unknown>[] = [];
  readonly #now: () => number;
  #windowStart = 0;
  #loggedInWindow = 0;
  #suppressed = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  list(): readonly Record<string, unknown>[] {
    return [...this.#reports];
  }

  /**
   * POST /console/csp-report. Not CSRF-checked: the browser sends it by itself, and it changes
   * nothing but a log line. Only the directive and the blocked resource are kept. A report from a
   * page of another site (its Origin or Fetch Metadata says so) is refused: only the console's own
   * page reports to it, and no web site the admin visits may write into the server's log.
   */
  async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (crossOrigin(req)) {
      req.resume();
      res.writeHead(403);
      res.end();
      return;
    }
    let text = "";
    for await (const chunk of req) {
      text += String(chunk);
      if (text.length > MAX_BYTES) break;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const raw = (body as { "csp-report"?: Record<string, unknown> } | undefined)?.["csp-report"];
    if (raw) {
      const report = {
        directive: String(raw["violated-directive"] ?? raw["effective-directive"] ?? "").slice(0, 200),
        blocked: String(raw["blocked-uri"] ?? "").slice(0, 200),
        source: String(raw["source-file"] ?? "").slice(0, 200),
        line: Number(raw["line-number"] ?? 0),
      };
      if (this.#reports.length >= MAX_KEPT) this.#reports.shift();
      this.#reports.push(report);
      this.#log(report);
    }
    res.writeHead(204);
    res.end();
  }

  /** Logs a report unless this minute's share is spent; the next logged line says how many were not. */
  #log(report: Record<string, unknown>): void {
    const now = this.#now();
    if (now - this.#windowStart >= MINUTE_MS) {
      this.#windowStart = now;
      this.#loggedInWindow = 0;
    }
    if (this.#loggedInWindow >= MAX_LOGGED_PER_MINUTE) {
      this.#suppressed++;
      return;
    }
    this.#loggedInWindow++;
    const suppressed = this.#suppressed;
    this.#suppressed = 0;
    log.warn(
      { csp: report, ...(suppressed > 0 ? { notLogged: suppressed } : {}) },
      "the console page reported a Content-Security-Policy violation",
    );
  }
}
