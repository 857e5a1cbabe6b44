/**
 * Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS names a credentials file (a service
 * account's JSON key, or gcloud's authorized_user file), the first place Google's client libraries look
 * (https://cloud.google.com/docs/authentication/application-default-credentials). Here that file is one
 * more account of the default workspace, labelled "application-default": read from the file at use
 * (never copied into the store), kept while the file's identity is the same, so replacing the file is
 * picked up by the next call. Listing the tools names the label only and never reads the file.
 */
import { createHash } from "node:crypto";
import { ConfigurationError, NotFoundError } from "../../errors.js";
import { DEFAULT_WORKSPACE } from "../credential-store.js";
import { cachedSecretFile } from "../secret-file.js";
import type { OAuthHttp } from "./oauth.js";
import { type AccountSummary, readCredentialFile } from "./records.js";
import { createServiceAccountTokenSource, SERVICE_ACCOUNT_SCOPES } from "./service-account.js";
import type { GoogleOAuthClient } from "./stored.js";
import { createAccountTokenSource, type GoogleTokenSource } from "./token-source.js";

export const ADC_LABEL = "application-default";
export const ADC_VARIABLE = "GOOGLE_APPLICATION_CREDENTIALS";

/** The file, when the environment names one and the workspace is the default one (as Marketo's variables). */
export function adcFile(env: NodeJS.ProcessEnv, workspace: string): string | undefined {
  const file = env[ADC_VARIABLE];
  return file && workspace === DEFAULT_WORKSPACE ? file : undefined;
}

/**
 * The file, read once and again only when it changes (secret-file.ts: regular files only, 64 KiB at most,
 * within 2 s), so that a FIFO, a device or a hung mount neither blocks a call nor fills the memory.
 */
async function readAdc(file: string, tokenUrl: string) {
  let modified: Date | undefined;
  const grant = await readCredentialFile(file, tokenUrl, undefined, async (path, rules) => {
    const read = await cachedSecretFile(path, rules);
    modified = read.modified;
    return read;
  });
  return { grant, modified };
}

/** What `accounts list` shows of it; a file that cannot be read yet is listed, and explained when used. */
export async function adcSummary(file: string, tokenUrl: string): Promise<AccountSummary> {
  const summary: AccountSummary = { label: ADC_LABEL, scopes: [], addedAt: "", from: ADC_VARIABLE };
  try {
    const { grant, modified } = await readAdc(file, tokenUrl);
    summary.addedAt = modified?.toISOString() ?? "";
    if (grant.kind === "service_account") {
      summary.email = grant.key.clientEmail;
      summary.serviceAccount = grant.key.clientEmail;
      summary.scopes = [...SERVICE_ACCOUNT_SCOPES];
    }
  } catch {
    // Listed anyway: choosing it gives the reason, with what to do.
  }
  return summary;
}

/** Token sources built from the file, kept while its content is the same. */
export class AdcSources {
  #kept: { digest: string; source: GoogleTokenSource } | undefined;

  async source(
    file: string,
    http: OAuthHttp,
    client: (own: GoogleOAuthClient | undefined) => GoogleOAuthClient,
    now: (() => number) | undefined,
  ): Promise<GoogleTokenSource> {
    const tokenUrl = `${http.oauthUrl.replace(/\/+$/, "")}/token`;
    let grant: Awaited<ReturnType<typeof readCredentialFile>>;
    try {
      ({ grant } = await readAdc(file, tokenUrl));
    } catch (error) {
      throw new ConfigurationError(
        `${ADC_VARIABLE} names a file that is not usable: ${error instanceof Error ? error.message : String(error)}`,
        {
          hint: `Point ${ADC_VARIABLE} at a service account's JSON key or gcloud's authorized_user file (gcloud auth application-default login), or unset it.`,
          cause: error,
        },
      );
    }
    const digest = createHash("sha256").update(JSON.stringify(grant)).digest("hex");
    if (this.#kept?.digest === digest) return this.#kept.source;
    const source =
      grant.kind === "service_account"
        ? createServiceAccountTokenSource({ label: ADC_LABEL, key: grant.key, http, now })
        : createAccountTokenSource({
            label: ADC_LABEL,
            refreshToken: grant.refreshToken,
            client: client(grant.client),
            http,
            now,
            // The file is the user's, not ours to rewrite: a rotated token lives in this process only.
            saveRotated: async () => undefined,
          }).source;
    this.#kept = { digest, source };
    return source;
  }
}

/** The refusal of a label no account has: the connected labels, or what the ADC label is. */
export function unknownLabel(label: string, labels: string[], adc: string | undefined): NotFoundError {
  return new NotFoundError("No connected Google account has this label.", {
    hint:
      label === ADC_LABEL && adc
        ? `"${ADC_LABEL}" is the file ${ADC_VARIABLE} names, not a stored account: unset ${ADC_VARIABLE} to stop using it.`
        : labels.length
          ? `Connected accounts: ${labels.join(", ")}.`
          : "No Google account is connected.",
  });
}
