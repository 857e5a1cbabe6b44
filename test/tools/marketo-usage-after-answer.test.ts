import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RedisState } from "../../src/state/redis.js";
import { connectionFrom } from "../../src/tools/connection-from.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolLogEntry } from "../../src/tools/types.js";
import {
  connector,
  identity,
  ORIGIN,
  ok,
  type Recorded,
  recordingFetch,
} from "../helpers/marketo-connector.js";
import { type RedisProcess, startRedis } from "../helpers/redis-process.js";

/*
 * Marketo answered, then the shared state went away before the day's usage was read: the call ran, so the
 * step answers with Marketo's data and says the usage could not be read. Before, it answered network_error,
 * and a caller that retries a network error sent the write a second time.
 */

const LIST_PATH = "/rest/v1/lists/1001/leads.json";
const WRITE = { method: "POST", endpoint: LIST_PATH, body: { input: [{ id: 7 }] } };

let redis: RedisProcess | undefined;

beforeAll(() => nock.disableNetConnect());
afterEach(async () => {
  nock.cleanAll();
  await redis?.stop();
  redis = undefined;
});
afterAll(() => nock.enableNetConnect());

/** A connector on a Redis of the test's own that `away` takes down while Marketo answers the write. */
async function writeWhileRedisGoes(away: (redis: RedisProcess) => Promise<void>) {
  const own = await startRedis();
  redis = own;
  const state = new RedisState({ url: own.url, keyPrefix: "usage-after-answer:", timeoutMs: 300 });
  const sent: Recorded[] = [];
  const marketo = connector({}, { state, fetch: recordingFetch(sent) });
  identity();
  nock(ORIGIN)
    .post(LIST_PATH)
    .reply(200, (_uri, _body, done) => {
      // The write reached Marketo; Redis goes away before its answer is back.
      away(own).then(
        () => done(null, ok([{ id: 7, status: "added" }])),
        (error: Error) => done(error, ""),
      );
    });
  const logs: ToolLogEntry[] = [];
  const context = {
    connection: connectionFrom({ marketo: async () => marketo }),
    progress: () => undefined,
    log: (entry: ToolLogEntry) => logs.push(entry),
  };
  try {
    const result = await runToolStep("marketo_api_call", WRITE, context);
    const writes = sent.filter((r) => r.url.startsWith(`${ORIGIN}${LIST_PATH}`));
    return { result, writes, logs };
  } finally {
    own.thaw();
    await state.close();
  }
}

describe("Marketo API Call when the shared state goes away after Marketo answered", () => {
  it.each([
    ["stopped", (r: RedisProcess) => r.stop()],
    ["frozen", async (r: RedisProcess) => r.freeze()],
  ])(
    "Redis %s: answers with the data, sent once, and says the day's usage could not be read",
    async (_how, away) => {
      const { result, writes, logs } = await writeWhileRedisGoes(away);
      expect(writes).toHaveLength(1);
      const data = result.data as { result: unknown[]; warnings: string[]; daily_calls_remaining?: number };
      expect(data.result).toEqual([{ id: 7, status: "added" }]);
      expect(data.daily_calls_remaining).toBeUndefined();
      const note = data.warnings.find((w) => /usage/.test(w));
      expect(note).toMatch(/Marketo answered this call.*day's API usage could not be read/);
      expect(note).toMatch(/do not send it again/);
      expect(result.summary).toMatch(/day's API usage could not be read/);
      // The cause goes to the log for whoever runs the server, not into the answer.
      expect(logs.some((l) => l.level === "warning" && /Redis/.test(String(l.message)))).toBe(true);
    },
  );
});
