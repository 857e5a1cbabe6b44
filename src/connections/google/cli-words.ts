/** What the CLI's help and messages say of the Google room (src/cli/help.ts, program.ts, workspace.ts). */
import type { RoomCliWords } from "../types.js";

export const GOOGLE_CLI_WORDS: RoomCliWords = {
  name: "Google Analytics 4",
  stored: "Google accounts, OAuth client",
  sandbox: "its own Google account",
  step: "google_analytics_run_reports",
  examples: [
    "  $ martech-steps call --sandbox google_analytics_run_reports \\",
    `      --input '{"account":"sandbox","property":"412345671","metrics":["sessions"],"dimensions":["country"]}'`,
  ],
  callExamples: [
    "  $ martech-steps call google_analytics_run_reports --input @report.json",
    `  $ echo '{"method":"GET","endpoint":"v1beta/accountSummaries"}' | martech-steps call google_analytics_api_call --input -`,
  ],
};
