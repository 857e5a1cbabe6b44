import { describe, expect, it } from "vitest";
import { LOGIN_FAILURES_PER_WINDOW, LoginAttempts, loginClient } from "../../src/console/login-limit.js";

/** Whom wrong API keys count against: a client that holds many addresses must not get a window for each. */

function exhaust(attempts: LoginAttempts, address: string): void {
  for (let n = 0; n < LOGIN_FAILURES_PER_WINDOW; n++) attempts.failed(address);
}

describe("the login limit's client", () => {
  it("is an IPv6 /64: another address of the same prefix is limited too, another prefix is not", () => {
    const attempts = new LoginAttempts(() => 0);
    exhaust(attempts, "2001:db8:1:2::1");
    expect(() => attempts.check("2001:db8:1:2:a:b:c:d")).toThrow(/Too many wrong API keys/);
    expect(() => attempts.check("2001:0db8:0001:0002:ffff::9%eth0")).toThrow(/Too many wrong API keys/);
    expect(() => attempts.check("2001:db8:1:3::1")).not.toThrow();
  });

  it("is the IPv4 address whether the socket shows it plain or IPv4-mapped", () => {
    const attempts = new LoginAttempts(() => 0);
    exhaust(attempts, "::ffff:192.0.2.7");
    expect(() => attempts.check("192.0.2.7")).toThrow(/Too many wrong API keys/);
    expect(() => attempts.check("::FFFF:192.0.2.7")).toThrow(/Too many wrong API keys/);
    expect(() => attempts.check("192.0.2.8")).not.toThrow();
  });

  it("names the prefix for IPv6 and the address for IPv4", () => {
    expect(loginClient("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(loginClient("::1")).toBe("0:0:0:0::/64");
    expect(loginClient("fe80::1:2:3:4%lo")).toBe("fe80:0:0:0::/64");
    expect(loginClient("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(loginClient("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(loginClient("10.0.0.1")).toBe("10.0.0.1");
    expect(loginClient("")).toBe("");
  });
});

describe("the login limit's table when full", () => {
  it("makes new clients share one window instead of forgetting a client still in its window", () => {
    const clock = { now: 0 };
    const attempts = new LoginAttempts(() => clock.now, { maxClients: 3 });
    for (const client of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) exhaust(attempts, client);
    // Ten more clients, one wrong key each: without a shared window each would evict one above.
    for (let n = 4; n < 14; n++) attempts.failed(`10.0.0.${n}`);
    expect(() => attempts.check("10.0.0.1")).toThrow(/Too many wrong API keys/);
    expect(() => attempts.check("10.0.0.99")).toThrow(/Too many wrong API keys/);
    // Once the windows end, the table has room again.
    clock.now += 60_000;
    expect(() => attempts.check("10.0.0.1")).not.toThrow();
    attempts.failed("10.0.0.99");
    expect(() => attempts.check("10.0.0.99")).not.toThrow();
  });
});
