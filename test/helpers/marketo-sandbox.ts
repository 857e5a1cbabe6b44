/** Shared test helpers: start a sandbox, fetch a token, call the API with plain fetch. */
import {
  type MarketoSandbox,
  type MarketoSandboxOptions,
  startMarketoSandbox,
} from "../../src/sandbox/marketo/index.js";

export type Json = Record<string, unknown> & {
  success?: boolean;
  result?: Record<string, unknown>[];
  errors?: { code: string; message: string }[];
  warnings?: string[];
  nextPageToken?: string;
  moreResult?: boolean;
};

export interface Harness {
  sb: MarketoSandbox;
  token: string;
  /** Calls `path` (starting with /rest) with the bearer token; returns the parsed JSON body. */
  call(path: string, init?: RequestInit): Promise<Json>;
  close(): Promise<void>;
}

export async function requestToken(sb: MarketoSandbox): Promise<string> {
  const res = await fetch(`${sb.url}/identity/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    }),
  });
  const body = (await res.json()) as { access_token: string };
  return body.access_token;
}

export async function startHarness(options: MarketoSandboxOptions = {}): Promise<Harness> {
  const sb = await startMarketoSandbox(options);
  const token = await requestToken(sb);
  return {
    sb,
    token,
    async call(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
      const res = await fetch(`${sb.url}${path}`, { ...init, headers });
      return (await res.json()) as Json;
    },
    close: () => sb.close(),
  };
}

export function jsonInit(method: string, body: unknown): RequestInit {
  return { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** An Asset API POST: x-www-form-urlencoded fields (object fields such as `folder` as JSON text). */
export function formInit(body: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  };
}

export function errorCode(body: Json): string | undefined {
  return body.errors?.[0]?.code;
}

/** A bulk import POST: multipart/form-data with the file part (and any other fields), as fetch builds it. */
export function fileInit(file: string, fields: Record<string, string> = {}, name = "leads.csv"): RequestInit {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file", new Blob([file], { type: "text/csv" }), name);
  return { method: "POST", body: form };
}
