import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { Sessions, sameSecret } from "../../src/console/sessions.js";

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
});
