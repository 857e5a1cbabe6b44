import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { CONNECTION_KINDS, connectionRoom } from "../connections/registry.js";
import { setTelemetrySink } from "../telemetry.js";

/**
 * The process's Prometheus metrics (prom-client), made once, on first use: a process that never
 * serves /metrics (stdio, the CLI) never loads prom-client. Labels hold fixed values only (see
 * src/telemetry.ts): step id, outcome kind, service, HTTP status, service code. What is a service's own (its
 * limit codes, its token source, its gauges) each connection room contributes (`metrics`, in registry order).
 */
const ROOMS = CONNECTION_KINDS.map((kind) => connectionRoom(kind));
let registry: Registry | undefined;

export function processMetrics(): Registry {
  if (registry) return registry;
  const r = new Registry();
  collectDefaultMetrics({ register: r, prefix: "martech_steps_" });
  const { calls, duration } = stepMetrics(r);
  const { upstream, refused, retries, waits, tokens } = upstreamMetrics(r);
  roomGauges(r);
  setTelemetrySink({
    stepCall(step, outcome, seconds) {
      calls.inc({ step, outcome });
      duration.observe({ step }, seconds);
    },
    upstream: (service, status) => upstream.inc({ service, status }),
    limitRefused: (service, code) => refused.inc({ service, code }),
    retried: (service) => retries.inc({ service }),
    limiterWait: (service, seconds) => waits.observe({ service }, seconds),
    tokenFetched: (service) => tokens.inc({ service }),
  });
  registry = r;
  return r;
}

/** The tool step calls: how many, by outcome, and how long they took. */
function stepMetrics(r: Registry) {
  const calls = new Counter({
    name: "martech_steps_tool_calls_total",
    help: "Tool step calls, by step and outcome (ok, or the error kind: invalid_input, rate_limited, ...).",
    labelNames: ["step", "outcome"] as const,
    registers: [r],
  });
  const duration = new Histogram({
    name: "martech_steps_tool_call_duration_seconds",
    help: "Tool step call duration, waits and retries included.",
    labelNames: ["step"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [r],
  });
  return { calls, duration };
}

/** What the connectors do on the wire: requests, limit refusals, retries, limiter waits, token fetches. */
function upstreamMetrics(r: Registry) {
  const upstream = new Counter({
    name: "martech_steps_upstream_requests_total",
    help: "HTTP requests to the services, by service and HTTP status (network_error when no answer came).",
    labelNames: ["service", "status"] as const,
    registers: [r],
  });
  const refused = new Counter({
    name: "martech_steps_upstream_limit_refusals_total",
    help: `Answers that refused a request for a limit: ${ROOMS.map((room) => room.metrics.limitRefusals).join(", ")}.`,
    labelNames: ["service", "code"] as const,
    registers: [r],
  });
  const retries = new Counter({
    name: "martech_steps_retries_total",
    help: "Requests replayed after a wait (backoff on a transient failure or a limit answer).",
    labelNames: ["service"] as const,
    registers: [r],
  });
  const waits = new Histogram({
    name: "martech_steps_limiter_wait_seconds",
    help: "Time a request waited in the client-side limiter (rate window and concurrency slots) before it was sent.",
    labelNames: ["service"] as const,
    buckets: [0, 0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 20, 60],
    registers: [r],
  });
  const tokens = new Counter({
    name: "martech_steps_tokens_fetched_total",
    help: `Access tokens requested from ${ROOMS.map((room) => room.metrics.tokenSource).join(" or ")}.`,
    labelNames: ["service"] as const,
    registers: [r],
  });
  return { upstream, refused, retries, waits, tokens };
}

/** Each room's gauges, labelled with its service, read at scrape time. */
function roomGauges(r: Registry): void {
  for (const room of ROOMS) {
    for (const gauge of room.metrics.gauges ?? []) {
      new Gauge({
        name: gauge.name,
        help: gauge.help,
        labelNames: ["service"] as const,
        registers: [r],
        async collect() {
          const value = await gauge.read();
          this.reset();
          if (value !== undefined) this.set({ service: room.service }, value);
        },
      });
    }
  }
}
