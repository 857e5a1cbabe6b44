/**
 * The Marketo configure flow, once for every adapter (`martech-steps marketo configure|remove` and the
 * console's Marketo card): verify with one token request, save, remove. Each adapter names the fields
 * its own way before it calls in here (a flag, a form field).
 */
import type { FetchedToken } from "../../auth/token-manager.js";
import { parseRestEndpoint } from "../../connectors/marketo/url.js";
import { ConfigurationError } from "../../errors.js";
import type { RoomContext, SecretsTarget } from "../types.js";
import { readMarketoCredentials } from "./credentials.js";
import type { MarketoCredentials } from "./secrets.js";

export { parseRestEndpoint };

/** Credentials as an adapter has checked them: the endpoint already parsed to the instance's origin. */
export interface MarketoInput {
  clientId: string;
  clientSecret: string;
  origin: URL;
}

/**
 * One token request (identity calls do not count against the API quota): a wrong Client ID, Secret or
 * endpoint is reported now, not at the first tool call. Loaded on use: serving tools needs none of it.
 */
export async function verifyMarketo(input: MarketoInput): Promise<FetchedToken> {
  const { requestMarketoToken } = await import("../../auth/marketo-token.js");
  return requestMarketoToken({
    origin: input.origin,
    clientId: input.clientId,
    clientSecret: input.clientSecret,
  });
}

/**
 * Saves the connection, after one token request proves it unless `verify` is false (offline set-up).
 * The endpoint is stored as `<origin>/rest`, whatever form it was entered in.
 */
export async function configureMarketo(
  target: SecretsTarget,
  input: MarketoInput,
  options: { verify: boolean; verified?: () => void },
): Promise<MarketoCredentials> {
  if (options.verify) {
    await verifyMarketo(input);
    options.verified?.();
  }
  const marketo = {
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    restEndpoint: `${input.origin.origin}/rest`,
  };
  await target.update((current) => ({ ...current, marketo }));
  return marketo;
}

/** Forgets the workspace's stored Marketo connection (the environment's, if any, stays in force). */
export async function removeMarketo(target: SecretsTarget): Promise<void> {
  await target.update((current) => ({ ...current, marketo: undefined }));
}

/** The stored connection (not the environment's): what an empty secret field may keep. */
export async function savedMarketo(target: SecretsTarget): Promise<MarketoCredentials | undefined> {
  return (await target.read()).marketo;
}

/** The origin a saved REST endpoint sends the secret to, or "" when the saved value no longer parses. */
export function savedOrigin(restEndpoint: string): string {
  try {
    return parseRestEndpoint(restEndpoint).origin;
  } catch {
    return "";
  }
}

/** What a test's token request returned, for a card's Details (the headline stays in plain words). */
export const tokenDetail = (seconds: number) =>
  `Marketo's identity service issued an access token valid for ${seconds} s (no API call, no quota used).`;

/**
 * Asks Marketo for a token with the active connection: proves the credentials without spending quota. The
 * message says so in plain words; the token's lifetime is the technical `detail` (trial s7, finding 15:
 * "(a token valid for 3422 s was issued)" was the card's headline, twice).
 */
export async function testMarketo(
  context: Pick<RoomContext, "workspace" | "isDefault" | "env" | "store">,
  hint: string,
): Promise<{ message: string; detail: string }> {
  const active = await readMarketoCredentials(context);
  if (!active) {
    throw new ConfigurationError(`Marketo is not configured for workspace "${context.workspace}".`, { hint });
  }
  const origin = parseRestEndpoint(active.restEndpoint);
  const token = await verifyMarketo({ origin, clientId: active.clientId, clientSecret: active.clientSecret });
  return {
    message: `Marketo at ${origin.host} accepted the credentials.`,
    detail: tokenDetail(token.expiresIn),
  };
}
