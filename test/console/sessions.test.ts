import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { PerWorkspace } from "../../src/console/per-workspace.js";
import { Sessions, sameSecret } from "../../src/console/sessions.js";
import { RateLimitError } from "../../src/errors.js";

const request = (cookie?: string): IncomingMessage =>
  ({ headers: { host: "127.0.0.1:3333", ...(cookie ? { cookie } : {}) } }) as IncomingMessage;

describe("console sessions", () => {
  it("opens one session per login token, once", () => {
    const sessions = new Sessions();
    const token = sessions.mintLoginToken("acme");
    const session = sessions.redeemLoginToken(token);
    expect(session?.workspace).toBe("acme");
    expect(sessions.redeemLoginToken(token)).toBeUndefined();
    expect(sessions.redeemLoginToken("made-up")).toBeUndefined();
  });

  it("finds the session of a request by its cookie, named after the port", () => {
    const sessions = new Sessions();
    const session = sessions.open("default");
    const cookie = sessions.setCookie(request(), session).split(";")[0] ?? "";
    expect(cookie.startsWith("martech_console_3333=")).toBe(true);
    expect(sessions.fromRequest(request(`other=1; ${cookie}`))?.id).toBe(session.id);
    expect(sessions.fromRequest(request(`martech_console_4444=${session.id}`))).toBeUndefined();
    expect(sessions.fromRequest(request("martech_console_3333=forged"))).toBeUndefined();
  });

  it("ends a session after 12 idle hours, and each use restarts the clock", () => {
    let now = 0;
    const sessions = new Sessions(() => now);
    const session = sessions.open("default");
    const cookie = `martech_console_3333=${session.id}`;
    now = 11 * 3_600_000;
    expect(sessions.fromRequest(request(cookie))).toBeDefined();
    now += 11 * 3_600_000;
    expect(sessions.fromRequest(request(cookie))).toBeDefined();
    now += 12 * 3_600_000;
    expect(sessions.fromRequest(request(cookie))).toBeUndefined();
  });

  it("clears the cookie on logout", () => {
    const sessions = new Sessions();
    const session = sessions.open("default");
    sessions.close(session.id);
    expect(sessions.fromRequest(request(`martech_console_3333=${session.id}`))).toBeUndefined();
    expect(sessions.setCookie(request(), undefined)).toBe(
      "martech_console_3333=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0",
    );
  });

  it("compares CSRF tokens in constant time, refusing absent ones", () => {
    expect(sameSecret("abc", "abc")).toBe(true);
    expect(sameSecret("abc", "abd")).toBe(false);
    expect(sameSecret("abc", undefined)).toBe(false);
  });

  it("keeps sessions per workspace: logins in one never end another's, and the total refuses instead of evicting", () => {
    const sessions = new Sessions();
    const cookieOf = (session: { id: string }) => `martech_console_3333=${session.id}`;
    const first = sessions.open("a");
    const recent = sessions.open("a");
    for (let i = 0; i < 998; i++) sessions.open("a");
    // "a" is full (1,000): using `first` makes `recent` its least recently used session.
    expect(sessions.fromRequest(request(cookieOf(first)))).toBeDefined();
    sessions.open("a");
    expect(sessions.fromRequest(request(cookieOf(recent)))).toBeUndefined();
    expect(sessions.fromRequest(request(cookieOf(first)))).toBeDefined();
    for (let w = 0; w < 9; w++) for (let i = 0; i < 1_000; i++) sessions.open(`w${w}`);
    // 10,000 sessions over all workspaces: a new workspace's login is refused, nobody is logged out.
    expect(() => sessions.open("new")).toThrow(RateLimitError);
    expect(sessions.fromRequest(request(cookieOf(first)))).toBeDefined();
    // A workspace at its own limit still makes room from its own sessions.
    expect(sessions.open("w0").workspace).toBe("w0");
  });

  it("refuses a login token's session when full without spending the token", () => {
    let now = 0;
    // A token that outlives the sessions' idle time (the default lifetime is 15 minutes).
    const sessions = new Sessions(() => now, { loginTokenTtlMs: 24 * 3_600_000 });
    for (let w = 0; w < 10; w++) for (let i = 0; i < 1_000; i++) sessions.open(`w${w}`);
    const token = sessions.mintLoginToken("default");
    expect(() => sessions.redeemLoginToken(token)).toThrow(/try again when idle sessions have ended/);
    now += 13 * 3_600_000;
    expect(sessions.redeemLoginToken(token)?.workspace).toBe("default");
  });
});

describe("entries kept per workspace", () => {
  it("sweeps expired entries before refusing, and says when room frees up", () => {
    let now = 0;
    const kept = new PerWorkspace<{ expiresAt: number }>(
      { perWorkspace: 2, total: 3, what: "things", hint: "Wait." },
      () => now,
    );
    kept.add("a", "a1", { expiresAt: 100 });
    kept.add("b", "b1", { expiresAt: 200 });
    kept.add("c", "c1", { expiresAt: 300 });
    now = 50;
    const refused = (() => {
      try {
        kept.add("d", "d1", { expiresAt: 400 });
      } catch (error) {
        return error as RateLimitError;
      }
      return undefined;
    })();
    expect(refused?.retryAfterMs).toBe(50);
    expect(refused?.message).toBe("The console already holds 3 things, its limit over all workspaces. Wait.");
    now = 150;
    kept.add("d", "d1", { expiresAt: 400 });
    expect(kept.use("a1")).toBeUndefined();
    expect(kept.size).toBe(3);
    expect(kept.countOf("d")).toBe(1);
  });
});
