import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";

describe("log redaction", () => {
  it("drops Authorization headers, tokens and an HTTP error's request from log lines", async () => {
    // The same redaction the product logger uses, written to a capture stream.
    const { LOG_REDACT_PATHS } = await import("../src/log.js");
    let out = "";
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const logger = pino({ redact: { paths: [...LOG_REDACT_PATHS], censor: "[redacted]" } }, sink);
    const err = Object.assign(new Error("boom"), {
      request: { headers: { authorization: "Bearer canary-access-token" } },
    });
    logger.error(
      { err, req: { headers: { authorization: "Bearer canary-2" } }, body: { refresh_token: "canary-3" } },
      "x",
    );
    expect(out).toContain("boom");
    for (const canary of ["canary-access-token", "canary-2", "canary-3"]) expect(out).not.toContain(canary);
  });
});

describe("log line scrubbing", () => {
  it("cuts every credential the process has sent out of a line, wherever it sits", async () => {
    const { scrubLogLine } = await import("../src/log.js");
    const { Redactor } = await import("../src/redact.js");
    const token = "canary-log-token-5d2e9a71";
    new Redactor().add(token);
    const line = `${JSON.stringify({ level: 50, msg: `failed for Bearer ${token}`, err: { cause: { note: encodeURIComponent(token) } } })}\n`;
    const out = scrubLogLine(line);
    expect(out).not.toContain(token);
    expect(JSON.parse(out)).toMatchObject({ level: 50, msg: "failed for Bearer [redacted]" });
    expect(scrubLogLine('{"msg":"clean"}\n')).toBe('{"msg":"clean"}\n');
  });
});
