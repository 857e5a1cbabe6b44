/** What the CLI's help and messages say of the Marketo room (src/cli/help.ts, program.ts, workspace.ts). */
import type { RoomCliWords } from "../types.js";

export const MARKETO_CLI_WORDS: RoomCliWords = {
  name: "Marketo",
  stored: "Marketo",
  step: "marketo_api_call",
  callExamples: [
    "  $ martech-steps call --sandbox marketo_api_call \\",
    `      --input '{"method":"GET","endpoint":"/rest/v1/leads.json","query_parameters":{"filterType":"email","filterValues":"lead1@example.com"}}'`,
  ],
};
