import nock from "nock";
import { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import type { MarketoConnectorConfig, MarketoConnectorDeps } from "../../src/connectors/marketo/types.js";

export const ORIGIN = "https://123-abc-456.mktorest.com";
export const CLIENT_ID = "client-id-0001";
export const CLIENT_SECRET = "canary-secret-7f3a";
export const TOKEN = "cdf01657-110d-4155-99a7-f986b2ff13a0:int";

export interface FakeClock {
  now: () => number;
  advance: (ms: number) => void;
  /** Resolves on the next macrotask, moving the clock to at least its wake-up time (a timer may fire late, never early). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  sleeps: number[];
}

export function fakeClock(start = Date.UTC(2025, 0, 15, 18, 0, 0)): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    sleeps,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        sleeps.push(ms);
        const wake = t + ms;
        setImmediate(() => {
          if (t < wake) t = wake;
          resolve();
        });
      }),
  };
}

/** Records every request the connector sends (URL, method, headers, body) before nock answers it. */
export interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export function recordingFetch(log: Recorded[], onSend?: (r: Recorded) => void): typeof fetch {
  return (input, init) => {
    const entry: Recorded = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === "string" ? init.body : undefined,
    };
    log.push(entry);
    onSend?.(entry);
    return globalThis.fetch(input, init);
  };
}

export function connector(
  config: Partial<MarketoConnectorConfig> = {},
  deps: MarketoConnectorDeps = {},
): MarketoConnector {
  return new MarketoConnector(
    {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      restEndpoint: `${ORIGIN}/rest`,
      ...config,
    },
    { random: () => 0.5, sleep: async () => undefined, ...deps },
  );
}

export function identity(token = TOKEN, expiresIn = 3599, times = 1): nock.Scope {
  return nock(ORIGIN).post("/identity/oauth/token").times(times).reply(200, {
    access_token: token,
    token_type: "bearer",
    expires_in: expiresIn,
    scope: "api@example.com",
  });
}

export function ok(result: unknown[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: "e42b#14272d07d78", success: true, result, ...extra };
}

export function fail(code: string, message: string): Record<string, unknown> {
  return { requestId: "68d8#1846058ee27", success: false, errors: [{ code, message }] };
}

export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected the promise to reject, but it resolved");
}
