/**
 * Admin API resources Google publishes only under v1alpha, which these tools do not call (paths.ts): a path
 * to one, in either version, is refused before it is sent, saying so and where a person reads the setting in
 * Google Analytics, rather than a v1beta 404 read as a typo (agent trial s10, second run, N73: "is no GA4
 * Admin API method. Check the path" for Google signals, then a second call refused as v1alpha). None of these
 * is in Google's v1beta discovery document (/work/shared/spec/real-api/google-analytics/analyticsadmin.v1beta.json).
 */
interface AlphaOnly {
  /** The path's resource, as it follows properties/{id}/ (or accounts/{id}/). */
  resource: string;
  /** What it holds, in a person's words. */
  what: string;
  /** Google's v1alpha reference page for it. */
  reference: string;
  /** Where a person reads it in Google Analytics, with Google's help page. */
  screen: string;
}

const ALPHA_ONLY: readonly AlphaOnly[] = [
  {
    resource: "googleSignalsSettings",
    what: "Google signals settings",
    reference:
      "https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1alpha/properties/getGoogleSignalsSettings",
    // https://support.google.com/analytics/answer/9445345
    screen: "Admin > Data collection and modification > Data collection (Google signals data collection)",
  },
  {
    resource: "attributionSettings",
    what: "Attribution settings",
    reference:
      "https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1alpha/properties/getAttributionSettings",
    // https://support.google.com/analytics/answer/10597962
    screen: "Admin > Data display > Attribution settings",
  },
  {
    // Of an account or a property (trial s24, N314: "is no GA4 Admin API method", then v1alpha refused).
    resource: "accessBindings",
    what: "Users' access and roles",
    reference:
      "https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1alpha/accounts.accessBindings",
    // https://support.google.com/analytics/answer/9305788
    screen: "Admin > Account access management (or Property access management)",
  },
  {
    resource: "channelGroups",
    what: "Custom channel groups",
    reference:
      "https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1alpha/properties.channelGroups",
    // https://support.google.com/analytics/answer/13051316
    screen: "Admin > Data display > Channel groups",
  },
];

const PATH = /^\/v1(?:alpha|beta)\/(?:properties|accounts)\/[^/:]+\/([A-Za-z]+)(?:[/:]|$)/;

/** The refusal for a path to an Admin resource Google has only in v1alpha, or undefined for any other path. */
export function alphaOnlyRefusal(path: string): string | undefined {
  const resource = PATH.exec(path)?.[1];
  const known = ALPHA_ONLY.find((entry) => entry.resource === resource);
  if (!known) return undefined;
  return (
    `${known.what} (${known.resource}) are in Google's Admin API v1alpha only (${known.reference}), which these ` +
    "tools do not call, and v1beta has no such path: they cannot be read or changed here. A person with access " +
    `to the property sees them in Google Analytics at ${known.screen}. Settings v1beta does have, such as data ` +
    "retention (GET v1beta/properties/{id}/dataRetentionSettings), can be read with this tool."
  );
}
