/**
 * Finding a Marketo object by its name in one marketo_api_call: the step's description names these,
 * and the MCP server serves them whole as the `martech-steps://recipes/marketo` resource. Each call is
 * an operation of Adobe's Swagger (https://developer.adobe.com/marketo-apis/api/mapi/ and
 * https://developer.adobe.com/marketo-apis/api/asset/): getListsUsingGET ("name: Comma-separated list
 * of static list names to return"), getCampaignsUsingGET ("name: Comma-separated list of names to
 * filter on"), getProgramByNameUsingGET, getEmailByNameUsingGET and getFolderByNameUsingGET (each with
 * a required `name`). test/tools/marketo-texts/recipes.test.ts runs every one against the sandbox.
 */

export interface Recipe {
  /** What it finds. */
  task: string;
  /** The marketo_api_call arguments, with `<name>` where the name goes. */
  call: { method: "GET"; endpoint: string; query_parameters: Record<string, string> };
  /** What to know about the answer. */
  note: string;
}

export const NAME_RECIPES: readonly Recipe[] = [
  {
    task: "a static list by name",
    call: { method: "GET", endpoint: "/rest/v1/lists.json", query_parameters: { name: "<name>" } },
    note: "Exact names, comma-separated for several; the answer's id is the listId of /rest/v1/lists/{listId}/leads.json.",
  },
  {
    task: "a smart campaign by name",
    call: { method: "GET", endpoint: "/rest/v1/campaigns.json", query_parameters: { name: "<name>" } },
    note: "Comma-separated names; the id is the campaignId of /rest/v1/campaigns/{id}/trigger.json or schedule.json.",
  },
  {
    task: "a program by name",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/program/byName.json",
      query_parameters: { name: "<name>" },
    },
    note: "One exact name; the id is the programId of /rest/v1/leads/programs/{programId}.json (its members).",
  },
  {
    task: "an email by name",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/email/byName.json",
      query_parameters: { name: "<name>" },
    },
    note: "One exact name; to browse instead, GET /rest/asset/v1/emails.json and compare each result's name.",
  },
  {
    task: "a folder by name",
    call: {
      method: "GET",
      endpoint: "/rest/asset/v1/folder/byName.json",
      query_parameters: { name: "<name>" },
    },
    note: "One exact name; add type Folder or Program to tell them apart.",
  },
];

/** The recipes in one sentence, for the step's description (the tool list stays small). */
export function recipesInBrief(): string {
  const calls = NAME_RECIPES.map(
    (r) => `${r.task.replace(/^an? /, "").replace(" by name", "")} ${r.call.endpoint}?name=`,
  );
  return `Find by name in one call: ${calls.join("; ")} (more: martech-steps://recipes/marketo).`;
}
