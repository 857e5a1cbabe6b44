/**
 * What the connectors, the limiter, the token managers and runToolStep report for metrics. This module
 * imports nothing: the layers below
 * the adapters call it at no cost (a no-op) until an adapter that serves metrics installs a sink (the
 * HTTP server, with prom-client). Every argument is a fixed value
 * (a tool step id from the registry, an error kind, a service name, an HTTP status, a service code):
 * never a workspace, an account, a host, a path or anything a caller sent, so no metric label can
 * carry a secret or a user's data.
 */

/**
 * A metric's service label: the service id of a connection room (SERVICE_IDS of src/connections/registry.ts),
 * passed as a literal by that service's connector and token code. A plain string here, because this ground
 * floor module may not import the registry above it; test/connections/registry.test.ts checks the ids fit.
 */
export type Service = string;
/** The limits answers counted on their own: Marketo's rate window (606) and concurrency (615), GA4's 429. */
export type LimitCode = "606" | "615" | "429";

/** What a rate window looks like now (read at scrape time, so replicas on Redis see the shared value). */
export interface WindowUsage {
  windowCalls: number;
  callsPerWindow: number;
  remaining: number;
}

export interface TelemetrySink {
  stepCall(step: string, outcome: string, seconds: number): void;
  upstream(service: Service, status: string): void;
  limitRefused(service: Service, code: LimitCode): void;
  retried(service: Service): void;
  limiterWait(service: Service, seconds: number): void;
  tokenFetched(service: Service): void;
}

let sink: TelemetrySink | undefined;

/** Installs the sink that turns reports into metrics (one per process); undefined removes it. */
export function setTelemetrySink(next: TelemetrySink | undefined): void {
  sink = next;
}

export const telemetry = {
  stepCall(step: string, outcome: string, seconds: number): void {
    sink?.stepCall(step, outcome, seconds);
  },
  /** One HTTP answer from a service (`status` is its HTTP status, or "network_error" when none came). */
  upstream(service: Service, status: number | "network_error"): void {
    sink?.upstream(service, String(status));
  },
  limitRefused(service: Service, code: LimitCode): void {
    sink?.limitRefused(service, code);
  },
  retried(service: Service): void {
    sink?.retried(service);
  },
  limiterWait(service: Service, ms: number): void {
    sink?.limiterWait(service, ms / 1000);
  },
  tokenFetched(service: Service): void {
    sink?.tokenFetched(service);
  },
};

/**
 * The rate windows of this process, by service and instance (Marketo's: src/connectors/marketo/limits.ts),
 * held weakly: a connector rebuilt after new credentials replaces its predecessor, and a dropped one is not
 * kept alive for metrics.
 */
const windows = new Map<string, WeakRef<{ usage(): Promise<WindowUsage> }>>();

export function registerWindow(
  service: Service,
  instance: string,
  source: { usage(): Promise<WindowUsage> },
): void {
  windows.set(JSON.stringify([service, instance]), new WeakRef(source));
}

/** The usage of every live window of a service (a window whose state does not answer is left out). */
export async function serviceWindows(service: Service): Promise<WindowUsage[]> {
  const reads: Promise<WindowUsage | undefined>[] = [];
  for (const [key, ref] of windows) {
    if ((JSON.parse(key) as [string, string])[0] !== service) continue;
    const source = ref.deref();
    if (!source) {
      windows.delete(key);
      continue;
    }
    reads.push(source.usage().catch(() => undefined));
  }
  return (await Promise.all(reads)).filter((usage): usage is WindowUsage => usage !== undefined);
}
