import { describe, expect, it } from "vitest";
import { SharedToken } from "../../src/auth/shared-token.js";
import { TokenManager } from "../../src/auth/token-manager.js";
import { MemoryState } from "../../src/state/memory.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A token service that counts requests and answers after `delayMs` with tok-1, tok-2, … */
function service(delayMs = 20) {
  let issued = 0;
  return {
    get issued() {
      return issued;
    },
    fetchToken: async () => {
      issued += 1;
      const token = `tok-${issued}`;
      await sleep(delayMs);
      return { accessToken: token, expiresIn: 3600 };
    },
  };
}

function sharedOn(
  state: MemoryState,
  svc: ReturnType<typeof service>,
  clientSecret = "secret",
  lockMs = 1_000,
) {
  return new SharedToken({
    state,
    scope: "marketo:123-abc-456.mktorest.com",
    clientId: "client",
    clientSecret,
    fetchToken: svc.fetchToken,
    lockMs,
  });
}

/** One "process": its own TokenManager over a SharedToken on the common state. */
function processOn(state: MemoryState, svc: ReturnType<typeof service>, clientSecret = "secret") {
  const shared = sharedOn(state, svc, clientSecret);
  return new TokenManager({
    fetchToken: () => shared.fetch(),
    onInvalidate: (token) => shared.forget(token),
  });
}

describe("an access token shared by processes on one state", () => {
  it("costs one token request for many cold callers across three processes", async () => {
    const state = new MemoryState();
    const svc = service();
    const processes = [processOn(state, svc), processOn(state, svc), processOn(state, svc)];
    const tokens = await Promise.all(Array.from({ length: 300 }, (_, i) => processes[i % 3]!.getToken()));
    expect(new Set(tokens)).toEqual(new Set(["tok-1"]));
    expect(svc.issued).toBe(1);
  });

  it("is stored sealed: the token is not in the shared state in clear, and another secret cannot open it", async () => {
    const state = new MemoryState();
    const svc = service(0);
    expect(await processOn(state, svc).getToken()).toBe("tok-1");
    const stored = await state.valueGet(sharedOn(state, svc).keys.token);
    expect(stored).toBeDefined();
    expect(stored).not.toContain("tok-1");
    expect(sharedOn(state, svc).keys.token).not.toContain("client");
    // The same client id with another secret (the admin changed it): the sealed token does not open.
    expect(await processOn(state, svc, "other-secret").getToken()).toBe("tok-2");
  });

  it("drops a token the service refused, here and for the other processes", async () => {
    const state = new MemoryState();
    const svc = service(0);
    const a = processOn(state, svc);
    const b = processOn(state, svc);
    expect(await a.getToken()).toBe("tok-1");
    expect(await b.getToken()).toBe("tok-1");
    a.invalidate("tok-1");
    expect(await a.getToken()).toBe("tok-2");
    b.invalidate("tok-1");
    expect(await b.getToken()).toBe("tok-2");
    expect(svc.issued).toBe(2);
  });

  it("asks again when the process holding the lock died before answering", async () => {
    const state = new MemoryState();
    const svc = service(0);
    const shared = sharedOn(state, svc, "secret", 150);
    // A dead process's lock, never released.
    await state.valueSet(shared.keys.lock, "dead-process", 150, true);
    const started = performance.now();
    expect((await shared.fetch()).accessToken).toBe("tok-1");
    expect(performance.now() - started).toBeGreaterThan(100);
    expect(svc.issued).toBe(1);
  });
});
