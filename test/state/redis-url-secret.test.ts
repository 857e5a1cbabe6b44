import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createCredentialStore } from "../../src/auth/store.js";
import { ConfigurationError } from "../../src/errors.js";
import { createState } from "../../src/state/index.js";
import { newRedisClient } from "../../src/state/ioredis.js";

/*
 * REDIS_URL may carry a password. One that does not parse (a "[" or "@" left unencoded in it) made
 * ioredis's constructor throw Node's "Invalid URL" error, whose `input` is the whole URL: the CLI's log
 * of an unexpected failure printed the password. The error says what to fix without the value.
 */

const SECRET = "s3cret-Pa55";
const BAD_URLS = [`redis://user:${SECRET}@[bad`, `rediss://u:${SECRET}@[::1`];

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("a REDIS_URL that does not parse", () => {
  it.each(BAD_URLS)("is refused without its password: %s", (url) => {
    for (const error of [
      thrown(() => newRedisClient(url, 1_000)),
      thrown(() => createState({ REDIS_URL: url })),
      thrown(() =>
        createCredentialStore({
          MARTECH_STEPS_STORE: "redis",
          REDIS_URL: url,
          MARTECH_STEPS_KEY: Buffer.alloc(32, 7).toString("base64"),
        }),
      ),
    ]) {
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/REDIS_URL is not a Redis URL/);
      const shown = `${inspect(error, { depth: 10 })} ${JSON.stringify(error)} ${(error as Error).stack}`;
      expect(shown).not.toContain(SECRET);
    }
  });
});
