import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleFixture, ConsolePage, startConsoleFixture } from "../helpers/console.js";

describe("a long run", () => {
  let fixture: ConsoleFixture;

  beforeAll(async () => {
    // One call per 2 s: the second page of a list waits for the rate window, with progress.
    fixture = await startConsoleFixture({
      marketoEnv: { MARKETO_CALLS_PER_WINDOW: "1", MARKETO_WINDOW_MS: "2000" },
    });
  });
  afterAll(async () => {
    await fixture.close();
  });

  it("streams progress while it waits, and a cancel (the page closing its request) stops it before the next call", async () => {
    const page = new ConsolePage(fixture, []);
    await page.login();
    const { request } = await import("node:http");
    const url = new URL("/console/api/steps/marketo_api_call/run", fixture.base);
    const lines: Record<string, unknown>[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            host: page.host,
            cookie: page.cookie,
            origin: fixture.base,
            "x-csrf-token": page.csrf,
            "content-type": "application/json",
          },
        },
        (res) => {
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            for (const line of chunk.split("\n").filter(Boolean)) lines.push(JSON.parse(line));
            if (lines.some((l) => String(l.message).includes("Waiting"))) {
              req.destroy();
              resolve();
            }
          });
          res.on("end", () => reject(new Error(`the run ended before it waited: ${JSON.stringify(lines)}`)));
        },
      );
      req.on("error", () => undefined);
      req.end(
        JSON.stringify({
          input: {
            method: "GET",
            endpoint: "/rest/v1/lists/1001/leads.json",
            query_parameters: { batchSize: 2 },
            paginate: true,
            max_pages: 5,
          },
        }),
      );
    });
    expect(lines[0]).toMatchObject({ type: "started", run: expect.any(String) });
    expect(lines[1]).toMatchObject({ type: "progress", progress: 2, message: "Page 1, 2 records read" });
    expect(lines.at(-1)).toMatchObject({
      type: "progress",
      progress: 2,
      message: expect.stringMatching(
        /^Page 1, 2 records read\. Waiting \d s for Marketo's rate window limit$/,
      ),
    });
    const calls = fixture.marketo.stats().apiCalls;
    // Past the window: a run that was not cancelled would have fetched page 2 by now.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(fixture.marketo.stats().apiCalls).toBe(calls);
  });
});
