import { randomUUID } from "node:crypto";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { type MarketoSandbox, startMarketoSandbox } from "../../../src/sandbox/marketo/index.js";
import { RedisState } from "../../../src/state/redis.js";
import {
  backendAvailable,
  openRedisBackend,
  REDIS_BACKENDS,
  type RedisBackend,
} from "../../helpers/redis-backends.js";

// Several server processes on one Redis (or one Redis Cluster) must together stay within ONE Marketo
// instance's limits. Each "replica" here has its own connector, token and Redis connection; only Redis is shared.
describe.each(REDIS_BACKENDS)("two replicas sharing Redis (%s) against one Marketo instance", (name) => {
  let sandbox: MarketoSandbox;
  let backend: RedisBackend;
  const states: RedisState[] = [];
  if (!backendAvailable(name)) {
    it.skip("needs REDIS_URL", () => undefined);
    return;
  }

  beforeAll(async () => {
    backend = await openRedisBackend(name);
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    sandbox = await startMarketoSandbox({
      rateLimit: 100,
      rateWindowMs: 2_000,
      maxConcurrent: 10,
      latencyMs: 10,
    });
  });
  afterAll(async () => {
    for (const state of states) await state.close();
    await sandbox.close();
    await backend?.close();
  }, 30_000);

  it("a 300-call burst split over two replicas gets no 606 and no 615", async () => {
    const keyPrefix = `martech-test-${randomUUID()}:`;
    const replica = () => {
      const state = new RedisState({ target: backend.target, keyPrefix });
      states.push(state);
      return new MarketoConnector(
        {
          clientId: sandbox.clientId,
          clientSecret: sandbox.clientSecret,
          restEndpoint: sandbox.restEndpoint,
          windowMs: 2_000,
        },
        { state },
      );
    };
    const replicas = [replica(), replica()];
    const calls = Array.from({ length: 300 }, (_, i) =>
      replicas[i % 2]!.request({ method: "GET", path: `/rest/v1/lead/${(i % 50) + 1}.json` }),
    );
    const pages = await Promise.all(calls);
    expect(pages.every((p) => p.result.length === 1)).toBe(true);
    const stats = sandbox.stats();
    expect(stats.rejected["606"]).toBe(0);
    expect(stats.rejected["615"]).toBe(0);
    expect(stats.maxInFlight).toBeLessThanOrEqual(10);
    expect(stats.apiCalls).toBe(300);
    // One token for both: the first replica's, shared (sealed) through Redis.
    expect(stats.identityRequests).toBe(1);
  });
});
