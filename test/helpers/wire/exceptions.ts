/**
 * Where the real wire differs from the published definitions, each change to a definition before the
 * sandbox's answers are validated against it, with the source that documents the real shape. Nothing
 * else is relaxed: every other required member, type, enum and format is checked as published.
 */

import { type Definitions, dropRequired, type JsonSchema, type WireException } from "./exception-kit.js";
import { ASSET_EXCEPTIONS } from "./exceptions-asset.js";

export type { Definitions, JsonSchema, WireException } from "./exception-kit.js";

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

const LEAD_DB_EXCEPTIONS: readonly WireException[] = [
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
    definitions: "Lead",
    what: "a lead record carries the lead fields asked for (`fields`, or the defaults), scalars or null",
    source:
      'ADE leads.md "Query" examples (`"email"`, `"firstName"`, … beside `"id"`) and "if a particular field is requested, but not returned, the value is implied to be null"; GRP leads.json recording',
    patch(schema) {
      schema.additionalProperties = { type: ["string", "number", "boolean", "null"] };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "ProgramMember",
    what: "a member record carries the program member fields asked for (`fields`), scalars or null",
    source:
      'SWM ProgramMember description: "may have any number of other fields, depending on the fields available in the target instance"',
    patch(schema) {
      schema.additionalProperties = { type: ["string", "number", "boolean", "null"] };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "ProgramMembership",
    what: "membership also carries the program `id`, `progressionStatusType` and `updatedAt`",
    source: 'ADE leads.md "Programs" example of GET /rest/v1/leads/programs/{programId}.json',
    patch(schema) {
      schema.properties = {
        ...schema.properties,
        id: { type: "integer" },
        progressionStatusType: { type: "string" },
        updatedAt: { type: "string", format: "date-time" },
      };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "ObjectMetaData",
    what: "a custom object type carries the docs' `name`; the Swagger requires `status` but declares `state`",
    source:
      'ADE custom-objects.md "List" and "Describe" examples (`"name":"Car"`); SWM ObjectMetaData properties (`state`, not `status`)',
    patch(schema) {
      schema.required = (schema.required ?? []).map((n) => (n === "status" ? "state" : n));
      schema.properties = { ...schema.properties, name: { type: "string" }, state: { type: "string" } };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "CustomObject",
    what: "a record carries the fields asked for and a sync/delete `status`; a skipped one has no marketoGUID",
    source:
      'ADE custom-objects.md "Query" example (`"vin"`, `"createdAt"` beside `"marketoGUID"`), "Create and Update" and "Delete" examples (`"status":"created"`, `"deleted"`, `"skipped"` with `reasons`)',
    patch(schema) {
      dropRequired("marketoGUID")(schema);
      schema.additionalProperties = { type: ["string", "number", "boolean", "null"] };
    },
  },
  {
    spec: "marketo-mapi",
    definitions: "ImportProgramMemberResponse",
    what: "a batch's status carries the counts and message of a lead import batch",
    source:
      "inferred: the Swagger's three members are the docs' Queued example only; a polled batch carries the lead import's counts (ADE bulk-lead-import.md status example), as CData's BulkImportProgramMembers result columns (RowsProcessed, RowsFailed, RowsWithWarning, Message) show",
    patch(schema) {
      schema.properties = {
        ...schema.properties,
        numOfLeadsProcessed: { type: "integer" },
        numOfRowsFailed: { type: "integer" },
        numOfRowsWithWarning: { type: "integer" },
        message: { type: "string" },
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
];

export const WIRE_EXCEPTIONS: readonly WireException[] = [...LEAD_DB_EXCEPTIONS, ...ASSET_EXCEPTIONS];

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
