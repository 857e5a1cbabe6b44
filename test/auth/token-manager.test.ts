import { describe, expect, it } from "vitest";
import { TokenManager } from "../../src/auth/token-manager.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("TokenManager", () => {
  it("shares one in-flight request between 1,000 concurrent callers", async () => {
    let calls = 0;
    const gate = deferred<void>();
    const manager = new TokenManager({
      fetchToken: async () => {
        calls += 1;
        await gate.promise;
        return { accessToken: "tok-1", expiresIn: 3600 };
      },
    });
    const all = Promise.all(Array.from({ length: 1000 }, () => manager.getToken()));
    gate.resolve();
    const tokens = await all;
    expect(calls).toBe(1);
    expect(new Set(tokens)).toEqual(new Set(["tok-1"]));
    expect(manager.requestCount).toBe(1);
  });

  it("never caches a failure: the next caller retries", async () => {
    let calls = 0;
    const manager = new TokenManager({
      fetchToken: async () => {
        calls += 1;
        if (calls === 1) throw new Error("identity down");
        return { accessToken: "tok-2", expiresIn: 3600 };
      },
    });
    await expect(manager.getToken()).rejects.toThrow("identity down");
    await expect(manager.getToken()).resolves.toBe("tok-2");
    expect(calls).toBe(2);
  });

  it("refreshes ahead of expiry in the background while serving the current token", async () => {
    let now = 0;
    let n = 0;
    const manager = new TokenManager({
      now: () => now,
      refreshAheadMs: 60_000,
      fetchToken: async () => ({ accessToken: `tok-${++n}`, expiresIn: 3600 }),
    });
    expect(await manager.getToken()).toBe("tok-1");
    now = 3_600_000 - 30_000; // inside the refresh window
    expect(await manager.getToken()).toBe("tok-1"); // still valid: served at once
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(await manager.getToken()).toBe("tok-2");
    expect(manager.requestCount).toBe(2);
  });

  it("does not spin when the service answers with the same token (Marketo) inside the window", async () => {
    let now = 0;
    let calls = 0;
    const expiresAt = 3_600_000;
    const manager = new TokenManager({
      now: () => now,
      fetchToken: async () => {
        calls += 1;
        return { accessToken: "same", expiresIn: Math.round((expiresAt - now) / 1000) };
      },
    });
    await manager.getToken();
    now = expiresAt - 30_000;
    for (let i = 0; i < 50; i++) {
      await manager.getToken();
      await new Promise((r) => setImmediate(r));
    }
    // One initial request plus at most one background refresh that returned the same token.
    expect(calls).toBe(2);
  });

  it("invalidate(token) only drops the token it names", async () => {
    let n = 0;
    const manager = new TokenManager({
      fetchToken: async () => ({ accessToken: `tok-${++n}`, expiresIn: 3600 }),
    });
    const first = await manager.getToken();
    manager.invalidate("someone-elses-old-token");
    expect(await manager.getToken()).toBe(first);
    manager.invalidate(first);
    expect(await manager.getToken()).toBe("tok-2");
  });
});
