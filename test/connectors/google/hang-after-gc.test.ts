import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isMartechError } from "../../../src/errors.js";
import { ENDPOINTS } from "../../helpers/google-auth.js";
import { offline, setup } from "../../helpers/google-connector.js";

offline();

// The garbage collector, callable from the test (as `node --expose-gc` gives it).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * undici follows the signal of a Request (ky, used here before, handed fetch one) through a weak
 * reference: after a garbage collection the abort never reaches a body read in progress
 * (https://github.com/nodejs/undici/issues/3644).
 * A server that sends its headers and then hangs mid-body must still end at the attempt timeout.
 */
describe("Google transport: a body that hangs ends at the timeout even after a garbage collection", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"accounts":[');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("fails at its timeout, a typed error, not at the end of the hang", { timeout: 20_000 }, async () => {
    nock.enableNetConnect(/127\.0\.0\.1/);
    const { connector } = setup({
      endpoints: { ...ENDPOINTS, adminApiUrl: url },
      timeoutMs: 300,
      deadlineMs: 5_000,
      maxRetries: 0,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    const collect = setInterval(gc, 20);
    const started = Date.now();
    try {
      const error = await connector.call({ method: "GET", path: "v1beta/accounts" }).catch((e: unknown) => e);
      const took = Date.now() - started;
      expect(isMartechError(error)).toBe(true);
      // Without our own listener the read waits for the 5 s deadline (or, for a direct caller, forever).
      expect(took).toBeLessThan(2_500);
    } finally {
      clearInterval(collect);
    }
  });
});
