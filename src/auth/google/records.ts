import { ValidationError } from "../../errors.js";
import type { WorkspaceSecrets } from "../credential-store.js";
import { readSecretFile, SecretFileError, type SecretFileRules, type SecretText } from "../secret-file.js";
import { isService } from "./service.js";
import { parseServiceAccountKey } from "./service-account.js";
import type { GoogleAccountRecord, GoogleOAuthClient, GoogleServiceAccountKey } from "./stored.js";

/** What is safe to show about a connected account: never a token. */
export interface AccountSummary {
  label: string;
  email?: string;
  scopes: string[];
  addedAt: string;
  /** The embedded sandbox's account (never a Google one): kept by the sandbox, not in the user's store. */
  sandbox?: true;
  /** A service account's email (with `email` the user it impersonates, if any); never its key. */
  serviceAccount?: string;
  /** Where the account comes from when it is not stored: GOOGLE_APPLICATION_CREDENTIALS. */
  from?: "GOOGLE_APPLICATION_CREDENTIALS";
  /**
   * Set by connect and import only: the same Google account was already connected under this label, and
   * its credential was replaced (sameAccount).
   */
  replaced?: true;
  /** Set with `replaced` when the label asked for differs from the old one: the account now goes by it. */
  renamedFrom?: string;
  /** Set with `replaced` when the label asked for is another account's: the account kept its own. */
  labelRefused?: string;
}

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;

export function checkLabel(label: unknown): string {
  if (typeof label !== "string" || !LABEL.test(label)) {
    throw new ValidationError(
      "label",
      "an account label is 1 to 64 characters: letters, digits and . _ @ + -, starting with a letter or digit.",
    );
  }
  return label;
}

export function toSummary(
  record: GoogleAccountRecord & { replaced?: boolean; renamedFrom?: string; labelRefused?: string },
): AccountSummary {
  return {
    ...(record.replaced ? { replaced: true as const } : {}),
    ...(record.renamedFrom ? { renamedFrom: record.renamedFrom } : {}),
    ...(record.labelRefused ? { labelRefused: record.labelRefused } : {}),
    label: record.label,
    ...(record.email ? { email: record.email } : {}),
    scopes: [...record.scopes],
    addedAt: record.addedAt,
    ...(record.sandbox === true ? { sandbox: true as const } : {}),
    ...(record.serviceAccount ? { serviceAccount: record.serviceAccount.clientEmail } : {}),
  };
}

function isClient(value: unknown): value is GoogleOAuthClient {
  if (value === null || typeof value !== "object") return false;
  const { clientId, clientSecret } = value as Record<string, unknown>;
  return (
    typeof clientId === "string" && clientId !== "" && typeof clientSecret === "string" && clientSecret !== ""
  );
}

function isServiceAccountKey(value: unknown): value is GoogleServiceAccountKey {
  if (value === null || typeof value !== "object") return false;
  const { clientEmail, privateKeyId, privateKey } = value as Record<string, unknown>;
  return [clientEmail, privateKeyId, privateKey].every((field) => typeof field === "string" && field !== "");
}

export function storedAccount(secrets: WorkspaceSecrets, label: string): GoogleAccountRecord | undefined {
  if (!Object.hasOwn(secrets.googleAccounts, label)) return undefined;
  const record = secrets.googleAccounts[label];
  if (!record) return undefined;
  const serviceAccount = isServiceAccountKey(record.serviceAccount) ? record.serviceAccount : undefined;
  // Exactly one credential: a user's refresh token or a service account's key.
  if ((typeof record.refreshToken === "string") === (serviceAccount !== undefined)) return undefined;
  return {
    ...record,
    serviceAccount,
    client: isClient(record.client) ? record.client : undefined,
    service: isService(record.service) ? record.service : undefined,
  };
}

export function accountLabels(secrets: WorkspaceSecrets): string[] {
  return Object.keys(secrets.googleAccounts).sort();
}

/** Default labels for a connected email, most preferred first: the local part, then the full email. */
export function labelCandidates(email: string | undefined): string[] {
  if (!email) return ["google"];
  const local = email.split("@")[0] ?? "";
  return [local, email].filter((candidate) => LABEL.test(candidate));
}

export type ImportedGrant =
  | { kind: "user"; refreshToken: string; client: GoogleOAuthClient | undefined }
  | { kind: "service_account"; key: GoogleServiceAccountKey };

const TOKEN = /^[\x21-\x7e]{10,2048}$/;

function checkToken(field: string, token: unknown): string {
  if (typeof token !== "string" || !TOKEN.test(token.trim())) {
    throw new ValidationError(
      field,
      "a Google refresh token is 10 to 2048 printable characters with no spaces.",
    );
  }
  return token.trim();
}

const FILE_HINT =
  "Give the path of a file holding a refresh token, gcloud's authorized_user JSON or a service account's JSON key.";

export interface ImportInput {
  refreshToken?: string;
  file?: string;
  /** With a service account key: the user to impersonate (domain-wide delegation). */
  subject?: string;
}

/**
 * Reads what to import: a bare refresh token, or a file holding one, gcloud's application-default
 * credentials (`gcloud auth application-default login` writes
 * {"type":"authorized_user","client_id","client_secret","refresh_token"}), or a service account's JSON
 * key ({"type":"service_account","client_email","private_key_id","private_key",...}, as the Cloud
 * console downloads it). `tokenUrl` is the token endpoint in use. Errors never quote the file's
 * content: it is a secret.
 */
export async function readImport(input: ImportInput, tokenUrl: string): Promise<ImportedGrant> {
  const hasToken = input.refreshToken !== undefined && input.refreshToken !== "";
  const hasFile = input.file !== undefined && input.file !== "";
  if (hasToken === hasFile) {
    throw new ValidationError(
      "refreshToken",
      "give either a refresh token or a file that holds one, not both.",
    );
  }
  const grant = hasToken
    ? {
        kind: "user" as const,
        refreshToken: checkToken("refreshToken", input.refreshToken),
        client: undefined,
      }
    : await readCredentialFile(input.file as string, tokenUrl, input.subject);
  if (grant.kind === "user" && input.subject !== undefined) {
    throw new ValidationError("subject", "a user to impersonate is given only with a service account key.", {
      hint: "Drop --subject: a user's refresh token already acts as that user.",
    });
  }
  return grant;
}

/** A credentials file is read as every secret file is (secret-file.ts): regular, owner-only, bounded, in time. */
export const CREDENTIALS_FILE: SecretFileRules = {
  what: "the credentials file",
  holds: "the credentials in it",
};

/** How a credentials file is read: once (an import), or kept while it does not change (GOOGLE_APPLICATION_CREDENTIALS). */
export type CredentialFileRead = (path: string, rules: SecretFileRules) => Promise<SecretText>;

/** One credentials file (see readImport); GOOGLE_APPLICATION_CREDENTIALS names one too. */
export async function readCredentialFile(
  file: string,
  tokenUrl: string,
  subject?: string,
  read: CredentialFileRead = readSecretFile,
): Promise<ImportedGrant> {
  let text: string;
  try {
    ({ text } = await read(file, CREDENTIALS_FILE));
  } catch (error) {
    if (error instanceof SecretFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ValidationError("file", `the file cannot be read (${code}).`, { hint: FILE_HINT });
  }
  return parseCredentialText(text, tokenUrl, subject);
}

/** What a credentials file holds (see readImport). Errors never quote it. */
function parseCredentialText(text: string, tokenUrl: string, subject: string | undefined): ImportedGrant {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{"))
    return { kind: "user", refreshToken: checkToken("file", trimmed), client: undefined };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(trimmed) as Record<string, unknown>;
  } catch {
    throw new ValidationError("file", "the file starts with { but is not valid JSON.");
  }
  if (json.type === "service_account") {
    return { kind: "service_account", key: parseServiceAccountKey(json, tokenUrl, subject) };
  }
  if (json.type !== "authorized_user") {
    throw new ValidationError(
      "file",
      `the JSON is neither gcloud's authorized_user credentials nor a service account key (type is ${typeof json.type === "string" && /^[a-z_]{1,40}$/.test(json.type) ? `"${json.type}"` : "missing or unknown"}).`,
      { hint: FILE_HINT },
    );
  }
  const refreshToken = checkToken("file", json.refresh_token);
  const clientId = json.client_id;
  const clientSecret = json.client_secret;
  const client =
    typeof clientId === "string" && clientId && typeof clientSecret === "string" && clientSecret
      ? { clientId, clientSecret }
      : undefined;
  return { kind: "user", refreshToken, client };
}

/** The secrets without the account stored under `label`. */
export function withoutAccount(secrets: WorkspaceSecrets, label: string): WorkspaceSecrets {
  const { [label]: _removed, ...rest } = secrets.googleAccounts;
  return { ...secrets, googleAccounts: rest };
}

export function withAccount(secrets: WorkspaceSecrets, record: GoogleAccountRecord): WorkspaceSecrets {
  return { ...secrets, googleAccounts: { ...secrets.googleAccounts, [record.label]: record } };
}

export function labelTaken(label: string): ValidationError {
  return new ValidationError("label", `"${label}" is already used by another connected Google account.`, {
    hint: `Choose another label, or remove that account first (martech-steps accounts remove ${label}).`,
  });
}

/**
 * The label of the stored account that is the same Google account (the same email), if any. One rule for
 * every way in (browser sign-in from the CLI or the console, a refresh token or key imported): the same
 * account connected again replaces the old one's credential under its label, never a second entry.
 */
export function sameAccount(current: WorkspaceSecrets, email: string | undefined): string | undefined {
  if (email === undefined) return undefined;
  const wanted = email.toLowerCase();
  return accountLabels(current).find(
    (label) => storedAccount(current, label)?.email?.toLowerCase() === wanted,
  );
}

/**
 * The label a newly connected account is stored under, and whether it replaces one. Connecting the same
 * Google account (same email) again replaces its entry, never lists it twice: that is how an account is
 * reconnected after its token died. It keeps its label unless another was asked for: then the account goes
 * by the new one (`renamedFrom` the old) when no other account has it, else it keeps its own and says so
 * (`labelRefused`): refusing the sign-in would revoke its fresh grant, and with it the stored one.
 */
export function connectLabel(
  current: WorkspaceSecrets,
  email: string | undefined,
  requested: string | undefined,
): { label: string; replaced: boolean; renamedFrom?: string; labelRefused?: string } {
  const reconnect = sameAccount(current, email);
  const free = (label: string) => !storedAccount(current, label);
  if (reconnect) {
    if (requested === undefined || requested === reconnect) return { label: reconnect, replaced: true };
    if (!free(requested)) return { label: reconnect, replaced: true, labelRefused: requested };
    return { label: requested, replaced: true, renamedFrom: reconnect };
  }
  if (requested !== undefined) {
    if (!free(requested)) throw labelTaken(requested);
    return { label: requested, replaced: false };
  }
  const candidates = labelCandidates(email);
  const label = candidates.find(free);
  if (!label) throw labelTaken(candidates[0] ?? "google");
  return { label, replaced: false };
}
