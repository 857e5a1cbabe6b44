/**
 * Marketo's tasks on a static list picked by its name (tasks.ts lists them with the others), on Adobe's
 * calls (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/lead-database/static-lists):
 * - list membership: Add to List (POST) and Remove from List (DELETE, ids as the `id` query parameter) on
 *   /rest/v1/lists/{listId}/leads.json, lists read with Get Lists;
 * - a list's members: Get Leads By List, GET /rest/v1/lists/{listId}/leads.json, paged by nextPageToken
 *   (batchSize up to 300 a page; it answers no total, so a read cut at its most records says so).
 */
import type { StepTask, TaskChoices, TaskField } from "../tasks.js";
import { leadIds, picked } from "./task-values.js";

/**
 * Each list with where it sits: Get Lists answers a list's `programName`, the program or Lead Database
 * folder holding it (trial s8, finding 1: "every static list, with folder"; a name alone may be shared).
 */
const LISTS: TaskChoices = {
  input: { method: "GET", endpoint: "/rest/v1/lists.json", paginate: true, max_items: 1000 },
  option: (list) =>
    typeof list.id === "number" && typeof list.name === "string"
      ? {
          value: String(list.id),
          label: list.name,
          ...(typeof list.programName === "string" && list.programName.trim()
            ? { detail: `in ${list.programName.trim()}` }
            : {}),
        }
      : undefined,
};

const LIST_FIELD: TaskField = {
  name: "list",
  title: "List",
  kind: "choice",
  plural: "lists",
  required: true,
  help: "The instance's static lists.",
};

export const LEADS_FIELD: TaskField = {
  name: "leads",
  title: "Leads",
  kind: "lines",
  required: true,
  help: "Email addresses or lead IDs, one a line or separated by commas.",
};

export const listMembers: StepTask = {
  id: "list_members",
  title: "Add or remove leads on a list",
  summary: "Add leads to a static list, or remove them from it, picking the list by its name.",
  keywords: ["static list", "list", "add", "remove", "members", "leads", "audience"],
  fields: [
    {
      name: "action",
      title: "Action",
      kind: "options",
      required: true,
      options: [
        { value: "add", label: "Add to the list" },
        { value: "remove", label: "Remove from the list" },
      ],
      initial: () => "add",
    },
    LIST_FIELD,
    LEADS_FIELD,
  ],
  choices: { list: LISTS },
  input(values) {
    const list = picked(values, "list", "static list");
    const ids = leadIds(values.leads, "leads");
    const endpoint = `/rest/v1/lists/${encodeURIComponent(list)}/leads.json`;
    return values.action === "remove"
      ? { method: "DELETE", endpoint, query_parameters: { id: ids } }
      : { method: "POST", endpoint, body: { input: ids.map((id) => ({ id })) } };
  },
};

/** A list's members read at most: pages of 300, so four calls; a longer list is said to have more. */
export const MEMBERS_SHOWN = 1000;
/** The columns of a member's row (id comes with every lead), by the instance's display names on the page. */
const MEMBER_FIELDS = "email,firstName,lastName,company,leadScore,updatedAt";

export const showMembers: StepTask = {
  id: "show_members",
  title: "Show list members",
  summary: "See the leads on a static list, and how many there are, picking the list by its name.",
  keywords: ["static list", "list", "members", "leads", "who is on", "check", "view", "audience"],
  fields: [LIST_FIELD],
  choices: { list: LISTS },
  input(values) {
    const list = picked(values, "list", "static list");
    return {
      method: "GET",
      endpoint: `/rest/v1/lists/${encodeURIComponent(list)}/leads.json`,
      query_parameters: { fields: MEMBER_FIELDS, batchSize: 300 },
      paginate: true,
      max_items: MEMBERS_SHOWN,
    };
  },
};
