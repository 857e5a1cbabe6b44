/**
 * Validates sandbox responses against the real services' own definitions (test/fixtures/real-api, made
 * by scripts/real-api.ts from Adobe's Swagger 2.0 files and Google's discovery documents):
 * - Swagger 2.0 `definitions` are JSON Schema already, but for keywords ajv ignores here; their objects
 *   are closed (`additionalProperties: false`), since each lists the members of a fixed Marketo shape;
 * - discovery `schemas` become JSON Schema with `$ref: "Name"` → `#/definitions/Name`, `type: "any"`
 *   dropped, objects closed because a proto message has a fixed set of fields, and the fields an answer
 *   always carries required (`alwaysCarried`).
 * So a misspelt or invented member is caught.
 * The documented differences between the definitions and the wire are applied first
 * (wire-exceptions.ts). Every validated (operation, schema) pair is recorded for the coverage check.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import {
  applyExceptions,
  type Definitions,
  type JsonSchema,
  RESPONSE_OVERRIDES,
  type WireException,
} from "./exceptions.js";

export type Spec = WireException["spec"] | "marketo-identity";

interface Fixture {
  operations: Record<string, { id: string; response?: string; request?: string }>;
  definitions: Definitions;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Discovery formats: Timestamp as RFC 3339 "Zulu" text; the rest are checked by type only.
  ajv.addFormat("google-datetime", (text: string) => RFC3339.test(text) && !Number.isNaN(Date.parse(text)));
  for (const name of ["google-duration", "google-fieldmask", "byte", "uint64", "uint32"])
    ajv.addFormat(name, true);
  return ajv;
}

/**
 * The fields an answer always carries, from the field behaviours scripts/real-api.ts keeps: a REQUIRED
 * field (a request must set it, so the stored resource has it), but for numbers and booleans, which
 * proto3 JSON leaves out when zero or false (https://protobuf.dev/programming-guides/json/); and the
 * resource `name`, output only, that the server always sets (https://google.aip.dev/122).
 */
function alwaysCarried(properties: Record<string, Record<string, unknown>>): string[] {
  return Object.entries(properties)
    .filter(([field, p]) => {
      const behavior = (p.fieldBehavior ?? []) as string[];
      if (field === "name" && (behavior.includes("OUTPUT_ONLY") || behavior.includes("IDENTIFIER")))
        return true;
      const zeroOmitted =
        p.type === "number" || p.type === "integer" || p.type === "boolean" || /int/.test(String(p.format));
      return behavior.includes("REQUIRED") && !zeroOmitted;
    })
    .map(([field]) => field);
}

function fromDiscovery(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromDiscovery);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "id" || key === "annotations" || key === "enumDeprecated" || key === "fieldBehavior")
      continue;
    if (key === "type" && value === "any") continue;
    if (key === "$ref") out.$ref = `#/definitions/${String(value)}`;
    else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as object).map(([k, v]) => [k, fromDiscovery(v)]),
      );
    } else out[key] = fromDiscovery(value);
  }
  if (out.properties !== undefined && out.additionalProperties === undefined)
    out.additionalProperties = false;
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> }).properties;
  const required = properties ? alwaysCarried(properties) : [];
  if (required.length > 0) out.required = required;
  return out;
}

/**
 * Closes every object schema that lists its members (`additionalProperties: false`), as `fromDiscovery`
 * does for proto messages: a Swagger definition lists the members of a fixed Marketo shape, so a
 * misspelt or invented member must fail. Where the wire carries more (a lead's own fields, …), an
 * exception in wire-exceptions.ts opens the definition again, with its source.
 */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, closeObjects(v)]))
        : closeObjects(value);
  }
  if (out.properties !== undefined && out.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

const loaded = new Map<Spec, { fixture: Fixture; ajv: Ajv; validators: Map<string, ValidateFunction> }>();

function load(spec: Spec) {
  const cached = loaded.get(spec);
  if (cached) return cached;
  const fixture = JSON.parse(
    readFileSync(new URL(`../../fixtures/real-api/${spec}.json`, import.meta.url), "utf8"),
  ) as Fixture;
  let definitions = fixture.definitions;
  const convert = spec.startsWith("ga4-") ? fromDiscovery : closeObjects;
  definitions = Object.fromEntries(
    Object.entries(definitions).map(([name, s]) => [name, convert(s) as JsonSchema]),
  );
  if (spec !== "marketo-identity") definitions = applyExceptions(spec, definitions);
  const entry = {
    fixture: { ...fixture, definitions },
    ajv: newAjv(),
    validators: new Map<string, ValidateFunction>(),
  };
  loaded.set(spec, entry);
  return entry;
}

/** Which (spec operation → response schema) pairs were validated in this test file. */
export const validated = new Map<string, string>();

/**
 * Asserts that `body` has the real response shape of `operation` ("GET /rest/v1/leads.json", or a
 * discovery flat path "GET /v1beta/properties/{propertiesId}/customDimensions").
 */
export function expectWireShape(spec: Spec, operation: string, body: unknown): void {
  const { fixture, ajv, validators } = load(spec);
  const published = fixture.operations[operation]?.response;
  if (!published) throw new Error(`${spec} has no operation "${operation}" with a response schema`);
  const override = RESPONSE_OVERRIDES.find((o) => o.spec === spec && o.operation === operation);
  const schemaName = override ? `${published} (overridden)` : published;
  let validate = validators.get(schemaName);
  if (!validate) {
    const root = override
      ? (closeObjects(override.schema) as JsonSchema)
      : { $ref: `#/definitions/${published}` };
    validate = ajv.compile({ ...root, definitions: fixture.definitions });
    validators.set(schemaName, validate);
  }
  const ok = validate(body);
  const problems = (validate.errors ?? []).map((e) => {
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    return `${e.instancePath || "/"} ${e.message ?? ""}${extra ? `: ${extra}` : ""}`;
  });
  expect(
    problems,
    `${operation} answer vs ${spec} ${schemaName}: ${JSON.stringify(body).slice(0, 400)}`,
  ).toEqual([]);
  expect(ok).toBe(true);
  validated.set(`${spec} ${operation}`, schemaName);
}
