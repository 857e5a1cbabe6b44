/** The console's calls to its server: JSON with the session's CSRF token, and runs as NDJSON streams. */
import type { ChartModel } from "../../src/charts/model.ts";

export interface ErrorInfo {
  error: string;
  message: string;
  hint?: string;
  field?: string;
  issues?: { field: string; message: string }[];
  retryable?: boolean;
  connection?: string;
  [key: string]: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly info: ErrorInfo;

  constructor(status: number, info: ErrorInfo) {
    super(info.message);
    this.status = status;
    this.info = info;
  }
}

export interface Session {
  workspace: string;
  csrfToken: string;
  /** Which connections (by registry kind) run on the built-in sandbox. */
  sandbox: Record<string, boolean>;
}

let csrfToken = "";

export async function loadSession(): Promise<Session | undefined> {
  const response = await fetch("/console/api/session", { credentials: "same-origin" });
  if (response.status === 401) return undefined;
  const session = (await response.json()) as Session;
  csrfToken = session.csrfToken;
  return session;
}

async function failure(response: Response): Promise<ApiError> {
  let info: ErrorInfo = { error: "http_error", message: `The server answered HTTP ${response.status}.` };
  try {
    info = ((await response.json()) as { error: ErrorInfo }).error ?? info;
  } catch {
    // Not JSON: keep the generic message.
  }
  return new ApiError(response.status, info);
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: {
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method !== "GET" ? { "x-csrf-token": csrfToken } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

export interface ProgressEvent {
  type: "progress";
  progress: number;
  total?: number;
  message?: string;
}

/** A result kept on the server (src/console/run-results.ts): read page by page, downloaded whole. */
export interface KeptView {
  id: string;
  kind: string;
  items: number;
  pageItems: number[];
  columns: string[];
  nextCursor?: string;
  /** The kept result this one continues: its items come first (src/console/run-results.ts). */
  continues?: string;
}

export type RunResult = {
  type: "result";
  summary: string;
  data: Record<string, unknown>;
  chart?: ChartModel;
  /** The warnings and hints for a person (without the agent's paging instructions). */
  notes: string[];
  /** The order of the result's columns where its rows' keys do not keep it (a pivot's years come first in an object). */
  columns?: string[];
  kept?: KeptView;
  /** The records a count counted, kept apart (keep_counted; src/console/steps.ts). */
  counted?: KeptView;
};

/** A run the person stopped: the records read until then, kept. */
export type RunStopped = { type: "stopped"; summary: string; kept?: KeptView };

export type RunEvent =
  | { type: "started"; run: string }
  | ProgressEvent
  | RunResult
  | RunStopped
  | { type: "error"; error: ErrorInfo };

/** Asks the server to stop a run: it ends with a `stopped` event carrying what was read. */
export function cancelRun(run: string): Promise<unknown> {
  return api("POST", `/console/api/runs/${encodeURIComponent(run)}/cancel`);
}

/** One page of a kept result: its items and the index of its first item. */
export function resultPage(
  id: string,
  page: number,
): Promise<{ page: number; pages: number; first: number; items: unknown[] }> {
  return api("GET", `/console/api/results/${encodeURIComponent(id)}/pages/${page}`);
}

/** Where a kept result downloads whole. */
export const downloadUrl = (id: string, format: "csv" | "json") =>
  `/console/api/results/${encodeURIComponent(id)}/download/${format}`;

/**
 * Runs a step; yields its progress, then its result or typed error. Aborting the signal cancels the run on
 * the server. `continues` names the kept result this run reads on from (Load more): the server keeps it
 * with that result's items first.
 */
export async function* runStep(
  id: string,
  input: unknown,
  signal: AbortSignal,
  continues?: string,
): AsyncGenerator<RunEvent> {
  const response = await fetch(`/console/api/steps/${id}/run`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-csrf-token": csrfToken },
    body: JSON.stringify({ input, ...(continues ? { continues } : {}) }),
    signal,
  });
  if (!response.ok || !response.body) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line) as RunEvent;
      newline = buffered.indexOf("\n");
    }
  }
}
