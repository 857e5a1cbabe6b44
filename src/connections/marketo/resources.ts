/** The Marketo room's MCP resources (src/mcp/resources.ts serves every room's). */
import type { RoomResource } from "../types.js";

/**
 * How to do common Marketo tasks in one marketo_api_call (find an object by its name): the step's
 * description names the calls, this resource gives each with its arguments and what to know.
 */
export const MARKETO_RESOURCES: readonly RoomResource[] = [
  {
    name: "marketo-recipes",
    uri: "martech-steps://recipes/marketo",
    title: "Marketo recipes",
    description:
      "marketo_api_call arguments for tasks in one call: objects by name, leads above a score as a CSV, email " +
      "performance per email, a lead's history, a month's leads in a time zone; and what Marketo's REST API does " +
      "not offer.",
    // Loaded when a client reads it, not when the server starts.
    read: async () => {
      const { COMPUTE_RECIPES, NAME_RECIPES, NOT_IN_THE_REST_API } = await import(
        "../../connectors/marketo/recipes.js"
      );
      return {
        tool: "marketo_api_call",
        recipes: NAME_RECIPES,
        computed: COMPUTE_RECIPES,
        not_in_the_rest_api: NOT_IN_THE_REST_API,
      };
    },
  },
];
