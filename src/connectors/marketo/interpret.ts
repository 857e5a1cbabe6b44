import { type MartechError, RateLimitError, UnknownOutcomeError, UpstreamError } from "../../errors.js";
import type { Redactor } from "../../redact.js";
import { telemetry } from "../../telemetry.js";
import { retryDelay, windowWait } from "./backoff.js";
import { type MarketoReason, parseEnvelope } from "./envelope.js";
import { BULK_FILE, type FileChunk, interpretFile } from "./file-answer.js";
import type { HttpResponse } from "./http.js";
import { classifyErrors, saidErrors } from "./service-codes.js";
import type { MarketoPage } from "./types.js";
import type { HttpPlan } from "./url.js";

/** One attempt's verdict: a page, a replay after re-authentication, a retry after a wait, or an error. */
export type Outcome =
  | { type: "page"; page: MarketoPage }
  | { type: "file"; chunk: FileChunk }
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

/**
 * What one answer of Marketo means: a page, a replay after re-authentication (601/602), a retry after a
 * wait (5xx on reads, 606/615, transient codes on reads), the daily quota (607), or a typed error. The
 * body is parsed through the connector's redactor, so no string of it (result, warnings, errors, extra
 * fields) can carry a credential it echoes.
 */
export function interpret(plan: HttpPlan, token: string, response: HttpResponse, d: InterpretDeps): Outcome {
  const { status } = response;
  const base = { path: plan.path };
  const byStatus = interpretStatus(plan, status, d);
  if (byStatus) return byStatus;
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
  // A file download answers with content (200/206) or a plain-text 404/416, and with Marketo's JSON
  // envelope only when the call itself failed (an expired token, the rate limit).
  if (plan.file && (!envelope || envelope.ok)) return interpretFile(plan, response, d.redactor);
  if (!envelope && BULK_FILE.test(plan.path)) {
    throw new UpstreamError(`${plan.path} is a bulk export file (CSV), not a Marketo JSON answer.`, {
      hint: "Read it with MarketoConnector.request() or readExportFile() (in Range requests), as the Marketo API Call step does.",
      status,
      details: { ...base, contentType },
    });
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
  return interpretErrors(plan, token, envelope, status, d);
}

/**
 * The HTTP statuses that decide without a body: a redirect (not followed), a body or URI too large, and
 * a 5xx (a retry on reads; on writes the outcome is unknown, so never replayed). Undefined otherwise.
 */
function interpretStatus(plan: HttpPlan, status: number, d: InterpretDeps): Outcome | undefined {
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
  return undefined;
}

/** What a `success:false` envelope asks for: re-authentication, a wait, the daily quota, or an error. */
function interpretErrors(
  plan: HttpPlan,
  token: string,
  { errors, requestId }: { errors: MarketoReason[]; requestId: string | undefined },
  status: number,
  d: InterpretDeps,
): Outcome {
  const base = { path: plan.path };
  const verdict = classifyErrors(errors, { path: plan.path, requestId, status });
  if (verdict.kind === "fatal") throw verdict.error;
  const { code } = verdict;
  // Every entry of errors[], as Marketo said them (the code that decided what to do is among them).
  const said = saidErrors(errors);
  switch (verdict.kind) {
    case "reauth":
      return { type: "reauth", token, message: said };
    case "quota":
      return { type: "quota" };
    case "rate_window":
    case "concurrency":
      telemetry.limitRefused("marketo", verdict.kind === "rate_window" ? "606" : "615");
      return {
        type: "retry",
        why: `Marketo kept refusing it (${said})`,
        delay: (retry) =>
          verdict.kind === "rate_window" ? windowWait(d.windowMs, d.random) : retryDelay(retry, d.random),
        giveUp: (retryAfterMs) =>
          new RateLimitError(`Marketo kept refusing ${plan.path} (${said}).`, retryAfterMs, {
            hint: `Other integrations share this instance's limits; retry in ${Math.ceil(retryAfterMs / 1000)} s or lower callsPerWindow / maxConcurrent.`,
            details: { ...base, serviceCode: code },
          }),
      };
    case "transient":
      if (plan.logicalMethod !== "GET") {
        throw new UpstreamError(`Marketo could not complete ${plan.logicalMethod} ${plan.path} (${said}).`, {
          hint: "It was not retried automatically because it changes data; check in Marketo, then retry.",
          serviceCode: code,
          retryable: true,
          details: base,
        });
      }
      return transient(plan, said, code, status, d);
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
    delay: (retry) => retryDelay(retry, d.random),
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
