import nock from "nock";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GoogleAnalyticsConnector } from "../../../src/connectors/google/connector.js";
import { AttemptFailure, type Delivery, type FailureKind } from "../../../src/connectors/http/index.js";
import { MarketoConnector } from "../../../src/connectors/marketo/connector.js";
import { isMartechError } from "../../../src/errors.js";
import { MemoryState } from "../../../src/state/memory.js";
import { type FaultServers, type ServerFault, startFaultServers } from "../../helpers/fault-server.js";
import { ENDPOINTS } from "../../helpers/google-auth.js";
import { fakeTokens } from "../../helpers/google-connector.js";

/** A fault undici reports without a server to produce it here, shaped as undici throws it. */
function undiciError(code: string, message: string, syscall?: string): TypeError {
  const cause = Object.assign(new Error(message), { code, ...(syscall ? { syscall } : {}) });
  return new TypeError("fetch failed", { cause });
}

interface Fault {
  name: string;
  /** Where the API request goes: the fault server (plain or TLS), or a fault thrown in place of sending. */
  server?: ServerFault | "tls";
  thrown?: () => Error;
  /** What both connectors must conclude; undefined: the service answered (no failed attempt). */
  delivery?: Delivery;
  kind?: FailureKind;
  /** Attempts with one retry allowed: 2 is a replay, 1 is none. */
  readAttempts: number;
  writeAttempts: number;
  writeError: string;
}

const FAULTS: Fault[] = [
  {
    name: "connect timeout",
    thrown: () => undiciError("UND_ERR_CONNECT_TIMEOUT", "Connect Timeout Error"),
    delivery: "not_sent",
    kind: "connect",
    readAttempts: 2,
    writeAttempts: 2,
    writeError: "NetworkError",
  },
  {
    name: "reset before the request was written",
    server: "reset-on-connect",
    delivery: "not_sent",
    kind: "reset",
    readAttempts: 2,
    writeAttempts: 2,
    writeError: "NetworkError",
  },
  {
    name: "reset after the request was written",
    server: "reset-after-request",
    delivery: "unknown",
    kind: "reset",
    readAttempts: 2,
    writeAttempts: 1,
    writeError: "UnknownOutcomeError",
  },
  {
    name: "DNS failure",
    thrown: () => undiciError("ENOTFOUND", "getaddrinfo ENOTFOUND api.example.invalid", "getaddrinfo"),
    delivery: "not_sent",
    kind: "dns",
    readAttempts: 2,
    writeAttempts: 2,
    writeError: "NetworkError",
  },
  {
    name: "body hang",
    server: "body-hang",
    delivery: "sent",
    kind: "timeout",
    readAttempts: 2,
    writeAttempts: 1,
    writeError: "UnknownOutcomeError",
  },
  {
    name: "TLS error (certificate refused)",
    server: "tls",
    delivery: "not_sent",
    kind: "tls",
    readAttempts: 1,
    writeAttempts: 1,
    writeError: "NetworkError",
  },
  { name: "HTTP 503", server: "5xx", readAttempts: 2, writeAttempts: 1, writeError: "UnknownOutcomeError" },
];

const TIMEOUT_MS = 300;
const quick = { random: () => 0, sleep: async () => undefined };

/**
 * The fetch a connector is given: identity requests are answered here (the fault is the API's), API
 * requests are counted and sent to the fault server or fail as the fault says.
 */
function faultyFetch(fault: Fault, attempts: { count: number }): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === "/identity/oauth/token") {
      return Response.json({ access_token: "tok-1", token_type: "bearer", expires_in: 3599, scope: "s" });
    }
    attempts.count += 1;
    if (fault.thrown) throw fault.thrown();
    return globalThis.fetch(input, init);
  };
}

type Service = "marketo" | "google";
type Op = "read" | "write";

async function run(service: Service, op: Op, fault: Fault, base: string) {
  const attempts = { count: 0 };
  const fetch = faultyFetch(fault, attempts);
  let call: Promise<unknown>;
  if (service === "marketo") {
    const marketo = new MarketoConnector(
      {
        clientId: "id",
        clientSecret: "secret",
        restEndpoint: `${base}/rest`,
        timeoutMs: TIMEOUT_MS,
        maxRetries: 1,
      },
      { ...quick, fetch },
    );
    call =
      op === "read"
        ? marketo.request({
            method: "GET",
            path: "/rest/v1/leads.json",
            query: { filterType: "id", filterValues: "1" },
          })
        : marketo.request({
            method: "POST",
            path: "/rest/v1/campaigns/1001/trigger.json",
            body: { input: {} },
          });
  } else {
    const google = new GoogleAnalyticsConnector({
      tokens: fakeTokens(),
      endpoints: { ...ENDPOINTS, dataApiUrl: base, adminApiUrl: base },
      state: new MemoryState(),
      ...quick,
      fetch,
      timeoutMs: TIMEOUT_MS,
      maxRetries: 1,
    });
    call =
      op === "read"
        ? google.call({ method: "GET", path: "v1beta/accounts" })
        : google.call({
            method: "POST",
            path: "v1beta/properties",
            body: { displayName: "x", parent: "accounts/1" },
          });
  }
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  let failure: unknown = error;
  while (failure instanceof Error && !(failure instanceof AttemptFailure)) failure = failure.cause;
  return {
    attempts: attempts.count,
    error,
    failure:
      failure instanceof AttemptFailure ? { delivery: failure.delivery, kind: failure.kind } : undefined,
  };
}

/**
 * The same faults fed to both connectors, for a read and for a write: they go through one exchange,
 * so they must agree on whether the request was sent and on whether it is sent again. A write is
 * replayed only when it was not sent.
 */
describe("one HTTP exchange: both connectors classify faults alike and replay alike", () => {
  let servers: FaultServers;
  beforeAll(async () => {
    servers = await startFaultServers();
  });
  afterAll(async () => servers.close());
  beforeEach(() => {
    nock.enableNetConnect(/127\.0\.0\.1/);
  });

  for (const fault of FAULTS) {
    for (const op of ["read", "write"] as const) {
      it(`${fault.name}: ${op}`, { timeout: 15_000 }, async () => {
        if (fault.server && fault.server !== "tls") servers.fault = fault.server;
        const base = fault.server === "tls" ? servers.https : servers.http;
        const outcomes = [];
        for (const service of ["marketo", "google"] as const) {
          const { attempts, error, failure } = await run(service, op, fault, base);
          expect(isMartechError(error), `${service}: ${String(error)}`).toBe(true);
          outcomes.push({ service, attempts, failure, error: (error as Error).name });
        }
        const expected = {
          attempts: op === "read" ? fault.readAttempts : fault.writeAttempts,
          failure: fault.delivery ? { delivery: fault.delivery, kind: fault.kind } : undefined,
        };
        for (const outcome of outcomes) {
          expect({ attempts: outcome.attempts, failure: outcome.failure }, outcome.service).toEqual(expected);
          if (op === "write") expect(outcome.error, outcome.service).toBe(fault.writeError);
        }
      });
    }
  }
});
