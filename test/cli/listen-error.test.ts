import { describe, expect, it } from "vitest";
import { httpOptions, listenError } from "../../src/cli/serve.js";
import { ConfigurationError } from "../../src/errors.js";

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
const http = { host: "server.invalid", port: 80 };

describe("the HTTP server's start-up errors name the setting to change", () => {
  it.each([
    [
      "EADDRNOTAVAIL",
      /cannot listen on server\.invalid \(--host\): it is not an address of this machine\. Choose it with --host/,
    ],
    ["ENOTFOUND", /The host name server\.invalid \(--host\) cannot be resolved\. Choose it with --host/],
    ["EAI_AGAIN", /The host name server\.invalid \(--host\) cannot be resolved/],
    ["EACCES", /Port 80 on server\.invalid \(--port\) needs privileges .* above 1023 with --port/],
  ])("%s, from the flags", (code, message) => {
    const error = listenError(failure(code), {}, { host: "server.invalid", port: "80" }, http);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String(error)).toMatch(message);
  });

  it("names the variables when the values came from them, and leaves other errors alone", () => {
    const env = { MARTECH_STEPS_HOST: "server.invalid", MARTECH_STEPS_PORT: "80" };
    expect(String(listenError(failure("EADDRNOTAVAIL"), env, {}, http))).toMatch(
      /\(MARTECH_STEPS_HOST\).* Choose it with MARTECH_STEPS_HOST/,
    );
    expect(String(listenError(failure("EACCES"), env, {}, http))).toMatch(/\(MARTECH_STEPS_PORT\)/);
    const other = failure("EMFILE");
    expect(listenError(other, env, {}, http)).toBe(other);
  });

  it("blames a bad port on the variable it came from, or on --port", () => {
    expect(() => httpOptions({ MARTECH_STEPS_PORT: "33a3" }, {})).toThrow(
      /^Invalid MARTECH_STEPS_PORT: "33a3"/,
    );
    expect(() => httpOptions({ MARTECH_STEPS_PORT: "3333" }, { port: "x" })).toThrow(/^Invalid --port: "x"/);
  });
});
