/** Arguments of a paged read of static list 1001 (1,250 members in the sandbox), ids only. */
export function listMembersRead(batchSize: number, maxPages: number): Record<string, unknown> {
  return {
    method: "GET",
    endpoint: "/rest/v1/lists/1001/leads.json",
    query_parameters: { batchSize, fields: "id" },
    paginate: true,
    max_pages: maxPages,
  };
}
