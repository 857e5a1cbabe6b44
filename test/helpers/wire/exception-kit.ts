/**
 * The parts every wire exception shares: the schema types and the small patches exceptions are made of.
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

export const dropRequired =
  (...names: string[]) =>
  (schema: JsonSchema): void => {
    schema.required = (schema.required ?? []).filter((n) => !names.includes(n));
  };

export const nullable =
  (...names: string[]) =>
  (schema: JsonSchema): void => {
    for (const name of names) {
      const prop = schema.properties?.[name];
      if (prop) schema.properties = { ...schema.properties, [name]: { anyOf: [prop, { type: "null" }] } };
    }
  };
