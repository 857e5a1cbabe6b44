import type { GoogleAnalyticsConnector } from "../../connectors/google/connector.js";
import { NotFoundError, ValidationError } from "../../errors.js";

interface AccountSummary {
  account?: string;
  displayName?: string;
}

/**
 * The Analytics account a new property goes in: the one given ("123" or "accounts/123"), else the only
 * account this Google login can see (v1beta/accountSummaries); with several, the caller must choose.
 */
export async function resolveAnalyticsAccount(
  ga: GoogleAnalyticsConnector,
  given: string | undefined,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (given) return `accounts/${given.replace(/^accounts\//, "")}`;
  const { items } = await ga.listAll<AccountSummary>(
    "v1beta/accountSummaries",
    "accountSummaries",
    { pageSize: 200 },
    { maxPages: 5, ...(signal ? { signal } : {}) },
  );
  const accounts = items.filter(
    (summary): summary is AccountSummary & { account: string } => !!summary.account,
  );
  const [only, ...others] = accounts;
  if (!only) {
    throw new NotFoundError(`The Google account '${ga.account}' cannot see any Google Analytics account.`, {
      hint:
        "Create an Analytics account at https://analytics.google.com (Admin > Create account), or connect a " +
        "Google account that has one, then retry.",
    });
  }
  if (others.length === 0) return only.account;
  const listed = accounts
    .slice(0, 20)
    .map((summary) => `${summary.account}${summary.displayName ? ` (${summary.displayName})` : ""}`)
    .join(", ");
  throw new ValidationError(
    "analytics_account",
    `the Google account '${ga.account}' can reach ${accounts.length} Analytics accounts: ${listed}` +
      `${accounts.length > 20 ? ", …" : ""}.`,
    { hint: "Set analytics_account to the one the property belongs in." },
  );
}
