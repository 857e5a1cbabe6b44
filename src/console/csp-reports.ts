/**
 * Where the page's Content-Security-Policy reports violations (report-uri): each one is logged,
 * and kept (the last few) so tests can prove a console page runs without any.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "../log.js";

const MAX_KEPT = 50;
const MAX_BYTES = 16 * 1024;

export class CspReports {
  readonly #reports: Record<string, unknown>[] = [];

  list(): readonly Record<string, unknown>[] {
    return [...this.#reports];
  }

  /**
   * POST /console/csp-report. Not CSRF-checked: the browser sends it by itself, and it changes
   * nothing but a log line. Only the directive and the blocked resource are kept.
   */
  async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
      log.warn({ csp: report }, "the console page reported a Content-Security-Policy violation");
    }
    res.writeHead(204);
    res.end();
  }
}
