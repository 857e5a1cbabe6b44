/**
 * What the step forms' pickers offer, read with the workspace's connected Google account: the Analytics
 * accounts and properties it can see (Admin API accountSummaries.list,
 * https://developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/accountSummaries/list) and a
 * property's metrics and dimensions with their descriptions (Data API getMetadata,
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/properties/getMetadata).
 * Only names, labels and descriptions leave the server.
 */
import type { DimensionMetadata } from "../connectors/google/types.js";
import { parsePropertyId } from "../tools/ga/property-id.js";
import type { Workspace } from "../workspace.js";

interface AccountSummary {
  account?: string;
  displayName?: string;
  propertySummaries?: { property?: string; displayName?: string }[];
}

export interface AnalyticsChoices {
  accounts: {
    account: string;
    displayName: string;
    properties: { property: string; id: string; displayName: string }[];
  }[];
}

/** The Analytics accounts and properties the connected Google account `label` can see (up to 1,000 accounts). */
export async function analyticsChoices(
  workspace: Workspace,
  label: string | undefined,
  signal?: AbortSignal,
): Promise<AnalyticsChoices> {
  const ga = await workspace.connection("google", label);
  const { items } = await ga.listAll<AccountSummary>(
    "v1beta/accountSummaries",
    "accountSummaries",
    { pageSize: 200 },
    { maxPages: 5, ...(signal ? { signal } : {}) },
  );
  return {
    accounts: items.flatMap((summary) =>
      summary.account
        ? [
            {
              account: summary.account,
              displayName: summary.displayName ?? summary.account,
              properties: (summary.propertySummaries ?? []).flatMap((property) =>
                property.property
                  ? [
                      {
                        property: property.property,
                        id: property.property.replace(/^properties\//, ""),
                        displayName: property.displayName ?? property.property,
                      },
                    ]
                  : [],
              ),
            },
          ]
        : [],
    ),
  };
}

export interface FieldChoice {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
}

const choice = (field: DimensionMetadata): FieldChoice[] =>
  field.apiName
    ? [
        {
          apiName: field.apiName,
          uiName: field.uiName ?? field.apiName,
          description: field.description ?? "",
          category: field.category ?? "",
        },
      ]
    : [];

/** A property's metrics and dimensions (standard and custom), for the form's autocomplete. */
export async function propertyFields(
  workspace: Workspace,
  label: string | undefined,
  property: string,
  signal?: AbortSignal,
): Promise<{ property: string; metrics: FieldChoice[]; dimensions: FieldChoice[] }> {
  const id = parsePropertyId(property);
  const ga = await workspace.connection("google", label);
  const metadata = await ga.getMetadata(id, signal);
  return {
    property: `properties/${id}`,
    metrics: (metadata.metrics ?? []).flatMap(choice),
    dimensions: (metadata.dimensions ?? []).flatMap(choice),
  };
}
