import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CspReports } from "../../src/console/csp-reports.js";
import { log } from "../../src/log.js";

function report(headers: Record<string, string>, directive = "script-src 'self'"): IncomingMessage {
  const body = JSON.stringify({ "csp-report": { "violated-directive": directive, "blocked-uri": "inline" } });
  return Object.assign(Readable.from([Buffer.from(body)]), {
    headers: { host: "127.0.0.1:3333", "content-type": "application/csp-report", ...headers },
  }) as unknown as IncomingMessage;
}

function response(): ServerResponse & { status: number } {
  const res = { status: 0, writeHead: (status: number) => (res.status = status), end: () => undefined };
  return res as unknown as ServerResponse & { status: number };
}

const PAGE = { origin: "http://127.0.0.1:3333", "sec-fetch-site": "same-origin" };

describe("CSP reports", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keeps the console page's own reports and refuses those of other sites", async () => {
    const reports = new CspReports();
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const own = response();
    await reports.receive(report(PAGE), own);
    expect(own.status).toBe(204);
    const foreign: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:4444" },
    ];
    for (const headers of foreign) {
      const res = response();
      await reports.receive(report(headers, "forged"), res);
      expect(res.status).toBe(403);
    }
    expect(reports.list()).toEqual([
      { directive: "script-src 'self'", blocked: "inline", source: "", line: 0 },
    ]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("logs at most 20 reports a minute, and then says how many it did not log", async () => {
    let now = 0;
    const reports = new CspReports(() => now);
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    for (let i = 0; i < 500; i++) await reports.receive(report(PAGE), response());
    expect(warn).toHaveBeenCalledTimes(20);
    expect(reports.list()).toHaveLength(50);
    now += 60_000;
    await reports.receive(report(PAGE), response());
    expect(warn).toHaveBeenCalledTimes(21);
    expect(warn.mock.calls[20]?.[0]).toMatchObject({ notLogged: 480 });
  });
});
