import { type MartechError, RateLimitError, UnknownOutcomeError, UpstreamError } from "../../errors.js";
import { telemetry } from "../../ops/telemetry.js";
import type { Redactor } from "../../redact.js";
import { fullJitter, windowWait } from "./backoff.js";
import { parseEnvelope } from "./envelope.js";
import type { HttpResponse } from "./http.js";
import { classifyCode } from "./service-codes.js";
import type { MarketoPage } from "./types.js";
import type { HttpPlan } from "./url.js";

/** One attempt's verdict: a page, a replay after re-authentication, a retry after a wait, or an error. */
export type Outcome =
  | { type: "page"; page: MarketoPage }
  | { type: "reauth"; token: string; message: string }
  | { type: "quota" }
  | {
      type: "retry";
      /** What went wrong, for the deadline error when the next retry would pass the deadline. */
      why: string;
      delay: (retry: number) => number;
      giveUp: (retryAfterMs: number) => MartechError;
    };

export interface InterpretDeps {
  redactor: Redactor;
  random: () => number;
  windowMs: number;
}

/** Bulk extract file downloads: /bulk/v1/{leads|activities|program/members|customobjects/x}/export/{id}/file.json */
const BULK_FILE = /^\/bulk\/v1\/.+\/export\/[^/]+\/file\.json$/;

/**
 * What one answer of Marketo means: a page, a replay after re-authentication (601/602), a retry after a
 * wait (5xx on reads, 606/615, transient codes on reads), the daily quota (607), or a typed error. The
 * body is parsed through the connector's redactor, so no string of it (result, warnings, errors, extra
 * fields) can carry a credential it echoes.
 */
export function interpret(plan: HttpPlan, token: string, response: HttpResponse, d: InterpretDeps): Outcome {
  const { status } = response;
  const base = { path: plan.path };
  if (status >= 300 && status < 400) {
    throw new UpstreamError(
      `Marketo answered ${plan.path} with a redirect (HTTP ${status}), which is not followed.`,
      {
        hint: "Use the instance's own REST endpoint (https://<munchkin-id>.mktorest.com/rest).",
        status,
        details: base,
      },
    );
  }
  if (status === 413 || status === 414) {
    throw new UpstreamError(
      status === 413
        ? `Marketo refused the ${plan.path} request body as too large (HTTP 413: over 1 MB, 10 MB for bulk imports).`
        : `Marketo refused the ${plan.path} request URI as too long (HTTP 414: over 8 KB).`,
      {
        hint: "Send fewer records per call (at most 300 for Lead DB batches) and split the rest.",
        status,
        details: base,
      },
    );
  }
  if (status >= 500) {
    if (plan.logicalMethod !== "GET") {
      throw new UnknownOutcomeError(
        `Marketo answered ${plan.logicalMethod} ${plan.path} with HTTP ${status}; the outcome is unknown.`,
        {
          hint: "Check in Marketo whether the change was made before retrying.",
          details: { ...base, status },
        },
      );
    }
    return transient(plan, `HTTP ${status}`, undefined, status, d);
  }
  // Every string of the answer (result, warnings, errors, extra fields) is redacted before it is read:
  // an error envelope or a success body may echo the Authorization header or the token.
  let body: unknown;
  try {
    body = d.redactor.json(response.text);
  } catch {
    body = undefined;
  }
  const contentType = d.redactor.text(response.contentType);
  const envelope = status === 200 ? parseEnvelope(body) : undefined;
  if (!envelope && status === 200 && BULK_FILE.test(plan.path)) {
    // Bulk export files are CSV (up to hundreds of MB, fetched in Range chunks): not a tool result
    // (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/bulk-extract/bulk-lead-extract).
    throw new UpstreamError(
      `Marketo sent ${plan.path} as a CSV file, and this connector returns JSON responses only.`,
      {
        hint: "Create, enqueue and poll the export here (…/export/{id}/status.json), then download the file with a bulk export client.",
        status,
        details: { ...base, contentType },
      },
    );
  }
  if (!envelope) {
    throw new UpstreamError(
      `Marketo answered ${plan.path} with HTTP ${status} and no Marketo JSON envelope (${contentType || "no content type"}).`,
      {
        hint: "Check the REST endpoint and the path; retry later if Marketo is under maintenance.",
        status,
        details: base,
      },
    );
  }
  if (envelope.ok) return { type: "page", page: envelope.page };
  const { code, message, requestId } = envelope;
  const verdict = classifyCode(code, message, { path: plan.path, requestId, status });
  switch (verdict.kind) {
    case "reauth":
      return { type: "reauth", token, message: `${code}: ${message}` };
    case "quota":
      return { type: "quota" };
    case "rate_window":
    case "concurrency":
      telemetry.limitRefused("marketo", verdict.kind === "rate_window" ? "606" : "615");
      return {
        type: "retry",
        why: `Marketo kept refusing it (${code}: ${message})`,
        delay: (retry) =>
          verdict.kind === "rate_window" ? windowWait(d.windowMs, d.random) : fullJitter(retry, d.random),
        giveUp: (retryAfterMs) =>
          new RateLimitError(`Marketo kept refusing ${plan.path} (${code}: ${message}).`, retryAfterMs, {
            hint: `Other integrations share this instance's limits; retry in ${Math.ceil(retryAfterMs / 1000)} s or lower callsPerWindow / maxConcurrent.`,
            details: { ...base, serviceCode: code },
          }),
      };
    case "transient":
      if (plan.logicalMethod !== "GET") {
        throw new UpstreamError(
          `Marketo could not complete ${plan.logicalMethod} ${plan.path} (${code}: ${message}).`,
          {
            hint: "It was not retried automatically because it changes data; check in Marketo, then retry.",
            serviceCode: code,
            retryable: true,
            details: base,
          },
        );
      }
      return transient(plan, `${code}: ${message}`, code, status, d);
    case "fatal":
      throw verdict.error;
  }
}

function transient(
  plan: HttpPlan,
  what: string,
  code: string | undefined,
  status: number,
  d: InterpretDeps,
): Outcome {
  return {
    type: "retry",
    why: `Marketo kept failing it (${what})`,
    delay: (retry) => fullJitter(retry, d.random),
    giveUp: (retryAfterMs) =>
      new UpstreamError(`Marketo kept failing ${plan.path} (${what}) after retries.`, {
        hint: `This is usually temporary; retry in ${Math.ceil(retryAfterMs / 1000)} s.`,
        serviceCode: code,
        status,
        retryable: true,
        details: { path: plan.path, retryAfterMs },
      }),
  };
}
