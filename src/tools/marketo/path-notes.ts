/**
 * A sentence a read of one Marketo path adds, where its records seem to answer what they do not. Lead
 * Database's Get Campaigns has a description and `active`, but whether a campaign can be requested is only in
 * the Asset API's Get Smart Campaigns, as isRequestable ("is active and contains 'Campaign is Requested'
 * trigger with Source of 'Web Service API'":
 * https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/smart-campaigns). An agent
 * read a description "Campaign is Requested (source: Web Service API)" on an inactive campaign as requestable,
 * and then read each campaign's asset one by one (trial s15, N125).
 */
import type { MarketoApiCallInput } from "../../schemas/marketo.js";

const NOTES: Readonly<Record<string, string>> = {
  "/rest/v1/campaigns.json":
    "A campaign's description is its own text, not its state. Whether each can be requested by API now " +
    "(isRequestable: active, with a Campaign is Requested trigger), its status and its smart list: GET " +
    "/rest/asset/v1/smartCampaigns.json, every campaign in one read.",
};

/** The note of a GET of the path, if it has one. */
export function pathNote(input: Pick<MarketoApiCallInput, "method" | "endpoint">): string | undefined {
  if (input.method !== "GET") return undefined;
  return NOTES[input.endpoint.split("?")[0] ?? ""];
}
