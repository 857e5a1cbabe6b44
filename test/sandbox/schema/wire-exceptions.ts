/**
 * Where the real wire differs from the published definitions, each change to a definition before the
 * sandbox's answers are validated against it, with the source that documents the real shape. Nothing
 * else is relaxed: every other required member, type, enum and format is checked as published.
 */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
};
export type Definitions = Record<string, JsonSchema>;

export interface WireException {
  spec: "marketo-mapi" | "marketo-asset" | "ga4-admin" | "ga4-data";
  /** Definitions changed (a name, or a prefix ending in "*"). */
  definitions: string;
  what: string;
  source: string;
  patch(schema: JsonSchema): void;
}

const dropRequired =
  (...names: string[]) =>
  (schema: JsonSchema): void => {
    schema.required = (schema.required ?? []).filter((n) => !names.includes(n));
  };

const nullable =
  (...names: string[]) =>
  (schema: JsonSchema): void => {
    for (const name of names) {
      const prop = schema.properties?.[name];
      if (prop) schema.properties = { ...schema.properties, [name]: { anyOf: [prop, { type: "null" }] } };
    }
  };

/** The odd Asset datetime "2015-11-18T15:25:35Z+0000" in place of RFC 3339. */
const ASSET_DATETIME = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z\\+0000$" };

function assetDates(schema: JsonSchema): void {
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (prop.format === "date-time") schema.properties = { ...schema.properties, [name]: ASSET_DATETIME };
  }
}

function programShape(schema: JsonSchema): void {
  schema.properties = {
    ...schema.properties,
    folder: {
      type: "object",
      required: ["type", "value"],
      properties: {
        type: { enum: ["Folder", "Program"] },
        value: { type: "integer" },
        folderName: { type: "string" },
      },
    },
    type: { type: "string", enum: ["Default", "Event", "Email", "Engagement", "Webinar"] },
    status: { type: "string", enum: ["locked", "unlocked", "on", "off", ""] },
  };
}

/** Operations whose answer is not the Swagger's response schema at all. */
export const RESPONSE_OVERRIDES: readonly {
  spec: WireException["spec"];
  operation: string;
  schema: JsonSchema;
  source: string;
}[] = [
  ...["trigger", "schedule"].map((verb) => ({
    spec: "marketo-mapi" as const,
    operation: `POST /rest/v1/campaigns/{campaignId}/${verb}.json`,
    schema: {
      type: "object",
      required: ["requestId", "success", "result"],
      properties: {
        requestId: { type: "string" },
        success: { const: true },
        result: {
          type: "array",
          items: {
            type: "object",
            required: ["id"],
            additionalProperties: false,
            properties: { id: { type: "integer" } },
          },
        },
      },
    },
    source:
      'REAL-API A7 "Trigger"/"Schedule": the result is [{"id":…}] (ADE smart-campaigns.md), not Campaign records',
  })),
];

export const WIRE_EXCEPTIONS: readonly WireException[] = [
  {
    spec: "marketo-mapi",
    definitions: "ResponseOf*",
    what: "Lead DB envelopes leave out empty errors/warnings, and an error envelope has no result",
    source:
      'REAL-API A3; GRP recording {"requestId":"6227#17d4f044661","result":[],"success":true}; ADE error-codes.md response-level example',
    patch(schema) {
      dropRequired("errors", "warnings", "result")(schema);
      // A success carries `result`; only a failure may leave it out.
      schema.anyOf = [{ properties: { success: { const: false } } }, { required: ["result"] }];
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "Lead",
    what: "skipped records carry `reasons` (an array), not the `reason` object of the Swagger",
    source: "REAL-API A3 ⚠; GRP sync recording; ADE error-codes.md record-level example",
    patch(schema) {
      schema.properties = {
        ...schema.properties,
        reasons: { type: "array", items: { $ref: "#/definitions/Reason" } },
      };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "Attribute",
    what: "activity attribute values are scalars (the Swagger says object)",
    source: 'ADE activities.md item `"attributes":[{"name":"Client IP Address","value":"10.0.19.252"}]`',
    patch(schema) {
      schema.properties = { ...schema.properties, value: { type: ["string", "number", "boolean"] } };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "UsageData",
    what: "`date` is a day (YYYY-MM-DD), not a date-time",
    source: 'ADE usage.md "The date for the usage summary in YYYY-MM-DD format"',
    patch(schema) {
      schema.properties = { ...schema.properties, date: { type: "string", format: "date" } };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "ErrorsData",
    what: "`date` is a day (YYYY-MM-DD), not a date-time",
    source: 'ADE usage.md "The date for the error summary in YYYY-MM-DD format"',
    patch(schema) {
      schema.properties = { ...schema.properties, date: { type: "string", format: "date" } };
    },
  },
  {
    spec: "marketo-asset",
    definitions: "BrowseAllPrograms",
    what: "programs report `folder` as {type, value, folderName}; types and statuses as the UI names them",
    source: 'REAL-API A7 ⚠; ADE programs.md examples ("type": "Default"/"Engagement"/"Email", "status": "")',
    patch: programShape,
  },
  {
    spec: "marketo-asset",
    definitions: "ProgramResponse",
    what: "programs report `folder` as {type, value, folderName}; types and statuses as the UI names them",
    source: 'REAL-API A7 ⚠; ADE programs.md examples ("type": "Default"/"Engagement"/"Email", "status": "")',
    patch: programShape,
  },
  {
    spec: "marketo-asset",
    definitions: "EmailResponse",
    what: "emails report `folder` as {type, value, folderName}, and `url` can be null",
    source:
      'ADE emails.md examples (`"url": null`, `"folder": {"type": "Folder", "value": 341, "folderName": …}`)',
    patch(schema) {
      programShape(schema);
      schema.properties = { ...schema.properties, status: { type: "string", enum: ["approved", "draft"] } };
      delete schema.properties?.type;
      nullable("url")(schema);
    },
  },
  {
    spec: "marketo-asset",
    definitions: "EmailContentResponse",
    what: "a section's `value` is an array of {type, value} (HTML and Text), not an object",
    source: 'REAL-API A7 "Emails"; ADE emails.md content example',
    patch(schema) {
      schema.properties = {
        ...schema.properties,
        value: {
          type: "array",
          items: {
            type: "object",
            required: ["type", "value"],
            properties: { type: { type: "string" }, value: { type: "string" } },
          },
        },
      };
    },
  },
  {
    spec: "marketo-asset",
    definitions: "*",
    what: "Asset datetimes end in `Z+0000`",
    source: "REAL-API A7 ⚠; ADE programs.md, static-lists.md, folders.md examples; GRP recording",
    patch: assetDates,
  },
  {
    spec: "marketo-asset",
    definitions: "StaticListResponse",
    what: "no `description` key when the list has none, and `computedUrl` instead of `url`",
    source: "ADE static-lists.md examples; GRP staticLists create/byName recordings",
    patch: dropRequired("description", "url"),
  },
  {
    spec: "marketo-asset",
    definitions: "SmartListResponse*",
    what: "no `description` key when the smart list has none",
    source: "ADE smart-lists.md examples (by id, by name, browse)",
    patch: dropRequired("description"),
  },
  {
    spec: "marketo-asset",
    definitions: "SmartCampaignResponse",
    what: "qualificationRuleInterval, qualificationRuleUnit and maxMembers are absent for a rule type of `once`",
    source: "ADE smart-campaigns.md examples (by id, by name, browse)",
    patch: dropRequired("qualificationRuleInterval", "qualificationRuleUnit", "maxMembers"),
  },
  {
    spec: "marketo-asset",
    definitions: "Recurrence",
    what: "a campaign that does not recur reports only `weekdayOnly`",
    source: 'ADE smart-campaigns.md examples `"recurrence":{"weekdayOnly":false}`',
    patch: dropRequired(
      "startAt",
      "endAt",
      "intervalType",
      "interval",
      "weekdayMask",
      "dayOfMonth",
      "dayOfWeek",
      "weekOfMonth",
    ),
  },
  {
    spec: "marketo-asset",
    definitions: "SmartListRules",
    what: "filterMatchType is lower case",
    source: 'ADE smart-lists.md by-id example `"filterMatchType": "all"`',
    patch(schema) {
      schema.properties = {
        ...schema.properties,
        filterMatchType: { type: "string", enum: ["all", "any", "advanced"] },
      };
    },
  },
  {
    spec: "marketo-asset",
    definitions: "FolderResponse",
    what: "description, url and parent are null when unset; folderType also takes List and Program",
    source:
      'ADE folders.md examples (`"description": null`, `"url": null`, `"parent": null`) and "Response Structure"; GRP folder/byName recording `"folderType":"List"`',
    patch(schema) {
      nullable("description", "url", "parent")(schema);
      const folderType = schema.properties?.folderType;
      if (folderType?.enum) folderType.enum = [...folderType.enum, "List", "Program"];
    },
  },
];

function matches(pattern: string, name: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/** Applies the exceptions of `spec` to a copy of its definitions. */
export function applyExceptions(spec: WireException["spec"], definitions: Definitions): Definitions {
  const copy = structuredClone(definitions);
  for (const exception of WIRE_EXCEPTIONS.filter((e) => e.spec === spec)) {
    const names = Object.keys(copy).filter((n) => matches(exception.definitions, n));
    if (names.length === 0)
      throw new Error(`wire exception for ${exception.definitions} matches no definition`);
    for (const name of names) exception.patch(copy[name] as JsonSchema);
  }
  return copy;
}
