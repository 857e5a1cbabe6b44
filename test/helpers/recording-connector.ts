import { expect } from "vitest";
import type { GoogleAnalyticsConnector } from "../../src/connectors/google/connector.js";
import type { MarketoConnector } from "../../src/connectors/marketo/connector.js";
import type { MarketoRequest, ResumePosition } from "../../src/connectors/marketo/types.js";
import { ValidationError } from "../../src/errors.js";
import { connectionFrom } from "../../src/tools/connection-from.js";
import { runToolStep } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/types.js";
import { contextFor, FakeGa } from "./ga-fake-connector.js";

/** Where a connector double's one page was read from, as the real connector reports it (positions). */
export function pageAt(req: MarketoRequest): ResumePosition {
  const { offset, nextPageToken } = req.query ?? {};
  if (offset !== undefined) return { offset: Number(offset) };
  return typeof nextPageToken === "string" ? { nextPageToken } : {};
}

/** A context whose Marketo and Google connectors record every request and answer with empty results. */
export function recording(result: unknown[] = []) {
  const ga = new FakeGa();
  const marketoCalls: MarketoRequest[] = [];
  const marketo = {
    async call(req: MarketoRequest) {
      marketoCalls.push(req);
      return {
        result,
        warnings: [],
        recordErrors: [],
        requestIds: [],
        pages: 1,
        callsUsed: 1,
        complete: true,
        positions: result.length > 0 ? [{ index: 0, at: pageAt(req) }] : [],
        extra: {},
      };
    },
    async usage() {
      return { callsToday: 1, dailyQuota: 50_000, remaining: 49_999 };
    },
  } as unknown as MarketoConnector;
  const context: ToolContext & { schemaContext: { accounts: string[] } } = {
    ...contextFor(ga),
    connection: connectionFrom({
      marketo: async () => marketo,
      google: async () => ga as unknown as GoogleAnalyticsConnector,
    }),
  };
  /** Everything the step sent, in order. */
  const sent = () => [...ga.calls, ...marketoCalls];
  return { ga, marketoCalls, context, sent };
}

/** Runs a step that must refuse its input before sending anything; returns the error. */
export async function refused(id: string, input: unknown): Promise<ValidationError> {
  const { context, sent } = recording();
  const error = await runToolStep(id, input, context).catch((caught: unknown) => caught);
  expect(error, JSON.stringify(input)).toBeInstanceOf(ValidationError);
  expect(sent()).toEqual([]);
  return error as ValidationError;
}

/** What a step sent for an input: the connector requests (its whole effect on the service), as JSON. */
export async function sentFor(id: string, input: unknown): Promise<unknown[]> {
  const { context, sent } = recording();
  await runToolStep(id, input, context);
  // Callbacks (progress, waits) differ per call and are not part of what is sent.
  return JSON.parse(JSON.stringify(sent()));
}
