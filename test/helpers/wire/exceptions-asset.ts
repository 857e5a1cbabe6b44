/**
 * Where the Asset API's wire differs from swagger-asset.json: each change with the source that documents
 * the real shape (see wire-exceptions.ts).
 */
import { dropRequired, type JsonSchema, nullable, type WireException } from "./exception-kit.js";

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
    headStart: { type: "boolean" },
  };
}

export const ASSET_EXCEPTIONS: readonly WireException[] = [
  {
    spec: "marketo-asset",
    definitions: "ResponseOf*",
    what: "every Asset answer has success, errors, warnings and requestId (the Swagger requires none); a success carries `result` unless it warns that nothing matched",
    source:
      'REAL-API A3 "Asset envelope [SWA; GRP]: always has success, errors:[], warnings:[] (strings), requestId, result" and "No match: … no result key"; GRP staticList/byName recording',
    patch(schema) {
      schema.required = ["success", "errors", "warnings", "requestId"];
      schema.anyOf = [
        { properties: { success: { const: false } } },
        { required: ["result"] },
        { properties: { warnings: { minItems: 1 } } },
      ];
    },
  },
  {
    spec: "marketo-asset",
    definitions: "BrowseAllPrograms",
    what: "programs report `folder` as {type, value, folderName}, types and statuses as the UI names them, and `headStart`",
    source:
      'REAL-API A7 ⚠ (program item with "headStart":false); ADE programs.md examples ("type": "Default"/"Engagement"/"Email", "status": "")',
    patch: programShape,
  },
  {
    spec: "marketo-asset",
    definitions: "ProgramResponse",
    what: "programs report `folder` as {type, value, folderName}, types and statuses as the UI names them, and `headStart`",
    source:
      'REAL-API A7 ⚠ (program item with "headStart":false); ADE programs.md examples ("type": "Default"/"Engagement"/"Email", "status": "")',
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
  {
    spec: "marketo-asset",
    definitions: "TokenResponse",
    what: "`folder` is an object {type, value}, not a string",
    source:
      'ADE tokens.md examples (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/tokens): `"folder": {"type": "Folder", "value": 416}`',
    patch(schema) {
      schema.properties = {
        ...schema.properties,
        folder: {
          type: "object",
          required: ["type", "value"],
          properties: { type: { enum: ["Folder", "Program"] }, value: { type: "integer" } },
        },
      };
    },
  },
  {
    spec: "marketo-asset",
    definitions: "LandingPageContentResponse",
    what: "a section's `id` is a string, not an object",
    source:
      'ADE landing-pages.md content example (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/landing-pages): `"id": "67"`',
    patch(schema) {
      schema.properties = { ...schema.properties, id: { type: "string" } };
    },
  },
];
