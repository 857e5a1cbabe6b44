import { SCOPE_ANALYTICS_EDIT } from "../auth/google/config.js";
import { createdResource, documented } from "../connectors/google/shapes.js";
import { PermissionError } from "../errors.js";
import { CreatePropertiesFields, CreatePropertiesOutput } from "../schemas/google-analytics-admin.js";
import { withAccount } from "./ga/account-field.js";
import { resolveAnalyticsAccount } from "./ga/analytics-account.js";
import { forgetProperties } from "./ga/property-name.js";
import { GA_SERVICE_WORDS } from "./ga/service-words.js";
import { numberAsString } from "./input/normalise.js";
import type { SchemaContext, ToolStep } from "./types.js";

const DOC_URL =
  "https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/properties/create";
const SCOPES = [SCOPE_ANALYTICS_EDIT] as const;

/** An Admin API Property (REAL-API B3). */
interface Property {
  name?: string;
  parent?: string;
  displayName?: string;
  timeZone?: string;
  currencyCode?: string;
  industryCategory?: string;
  createTime?: string;
}

const input = (context: SchemaContext) => withAccount(context, CreatePropertiesFields);

export const googleAnalyticsCreateProperties: ToolStep<
  ReturnType<typeof input>,
  typeof CreatePropertiesOutput
> = {
  id: "google_analytics_create_properties",
  title: "Create properties",
  service: "google_analytics",
  serviceWords: GA_SERVICE_WORDS,
  category: "Analytics",
  keywords: [
    "analytics",
    "google analytics",
    "ga4",
    "property",
    "properties",
    "create property",
    "new property",
    "website tracking",
    "admin api",
  ],
  description:
    "Creates a Google Analytics 4 property in an Analytics " +
    "account; afterwards, create a data stream so it collects data. Needs the " +
    "Administrator role on the account.",
  docUrl: DOC_URL,
  connection: "google",
  scopes: SCOPES,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  input,
  // The Admin API's Property names the account `parent` (accounts/123).
  aliases: { rename: { parent: "analytics_account" }, values: { analytics_account: numberAsString } },
  output: CreatePropertiesOutput,
  examples: () => [
    {
      title: "Create a property for a web shop",
      input: {
        display_name: "Example shop",
        time_zone: "Europe/Paris",
        currency_code: "EUR",
        industry_category: "SHOPPING",
      },
    },
  ],

  async handler(fields, ctx) {
    const ga = await ctx.connection("google", fields.account);
    const parent = await resolveAnalyticsAccount(ga, fields.analytics_account, ctx.signal);
    let created: Property;
    try {
      // Sent once: the connector never replays a create (Google's own client can make two properties).
      created = await ga.request<Property>("admin", {
        method: "POST",
        path: "v1beta/properties",
        body: {
          parent,
          displayName: fields.display_name,
          timeZone: fields.time_zone,
          currencyCode: fields.currency_code,
          ...(fields.industry_category ? { industryCategory: fields.industry_category } : {}),
        },
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (error) {
      throw withRoleMessage(error, parent, ga.account);
    }
    // Never a success without the new property's id: an answer of another shape is Google's fault.
    created = documented<Property>(
      created,
      "the creation of a property",
      createdResource(/^properties\/\d+$/),
      `The property may have been created: list the properties of ${parent} before creating it again.`,
    );
    forgetProperties(ga);
    const propertyId = (created.name ?? "").replace(/^properties\//, "");
    const data: CreatePropertiesOutput = {
      property: {
        name: created.name ?? "",
        property_id: propertyId,
        display_name: created.displayName ?? fields.display_name,
        time_zone: created.timeZone ?? fields.time_zone,
        ...(created.currencyCode ? { currency_code: created.currencyCode } : {}),
        ...(created.industryCategory ? { industry_category: created.industryCategory } : {}),
        ...(created.createTime ? { create_time: created.createTime } : {}),
        parent: created.parent ?? parent,
      },
      next_steps: [
        "The property collects nothing until it has a data stream. Create one with google_analytics_api_call: " +
          `method POST, endpoint v1beta/properties/${propertyId}/dataStreams, body {"type":"WEB_DATA_STREAM",` +
          '"displayName":"Website","webStreamData":{"defaultUri":"https://www.example.com"}}.',
        "Put the stream's measurement ID (G-…, in webStreamData.measurementId of the answer) in the site's Google " +
          "tag, then check incoming data with google_analytics_run_reports (realtime: true).",
      ],
    };
    return {
      data,
      summary: `Created property ${data.property.name} "${data.property.display_name}" in ${parent}.`,
    };
  },
};

/**
 * Creating a property needs Administrator on the account (analytics.md "Required access levels"). A plain
 * 403 is restated with that; a disabled API or a missing OAuth scope keeps the connector's own message.
 */
function withRoleMessage(error: unknown, parent: string, account: string): unknown {
  if (!(error instanceof PermissionError)) return error;
  const reason = error.details.reason;
  if (reason === "SERVICE_DISABLED" || reason === "ACCESS_TOKEN_SCOPE_INSUFFICIENT") return error;
  return new PermissionError(
    `Creating a property in ${parent} needs the Administrator role on that Analytics account, which the ` +
      `Google account '${account}' does not have there.`,
    {
      hint:
        "Ask an administrator to grant it (Admin > Account access management), choose another analytics_account, " +
        "or connect a Google account that is an Administrator.",
      details: { account, analytics_account: parent },
      cause: error,
    },
  );
}
