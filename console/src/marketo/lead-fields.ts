/**
 * The instance's lead fields by their display names, for a Marketo export's `where`, its Lead fields and a
 * pasted CSV's header (Describe Lead2, GET /rest/v1/leads/describe2.json, whose fields carry `name` and
 * `displayName`:
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/leads#describe).
 */
import { api, runStep } from "../api.ts";
import type { NamedField } from "../filter-names.ts";
import { withFamiliarNames } from "./familiar-names.ts";

/** The instance's lead fields, by the connection in force they were read from. */
const leadFields = new Map<string, Promise<NamedField[]>>();

/**
 * Which Marketo connection is in force (its REST endpoint and client, where they come from): fields read
 * from one instance are never offered for another after the connection is switched (saved, removed, or
 * changed in another tab). One local status read, no call to Marketo.
 */
async function marketoConnection(): Promise<string> {
  type Status = { active: { source: string; restEndpoint: string; clientId: string } | null };
  const { active } = await api<Status>("GET", "/console/api/marketo");
  return active ? JSON.stringify([active.source, active.restEndpoint, active.clientId]) : "";
}

/** The instance's lead fields by display name (one Describe Lead2 read per connection). */
export async function marketoLeadFields(step: string, signal?: AbortSignal): Promise<NamedField[]> {
  const connection = await marketoConnection();
  let fields = leadFields.get(connection);
  if (!fields) {
    fields = describeLeads(step, signal ?? new AbortController().signal);
    leadFields.set(connection, fields);
    fields.catch(() => leadFields.delete(connection));
  }
  return fields;
}

/** Describe Lead2's fields as API and display names, with the familiar names of the standard ones. */
async function describeLeads(step: string, signal: AbortSignal): Promise<NamedField[]> {
  const describe = { method: "GET", endpoint: "/rest/v1/leads/describe2.json" };
  for await (const event of runStep(step, describe, signal)) {
    if (event.type === "error") throw new Error(event.error.message);
    if (event.type !== "result") continue;
    const [schema] = Array.isArray(event.data.result) ? event.data.result : [];
    const fields = (schema as { fields?: { name?: unknown; displayName?: unknown }[] } | undefined)?.fields;
    return withFamiliarNames(
      (fields ?? []).flatMap((one) =>
        typeof one.name === "string" && typeof one.displayName === "string"
          ? [{ api: one.name, ui: one.displayName }]
          : [],
      ),
    );
  }
  return [];
}
