/** The Google emulator in the `martech-steps sandbox` command: its port option and the variables it sets. */
import type { SandboxCommand } from "../types.js";

export const GOOGLE_SANDBOX_COMMAND: SandboxCommand = {
  portFlag: "--google-port",
  defaultPort: 4020,
  emulator: "Google emulator",
  emulates: "GA4 and Google OAuth",
  variables: [
    "GA4_DATA_API_URL",
    "GA4_ADMIN_API_URL",
    "GOOGLE_OAUTH_URL",
    "GOOGLE_OAUTH_AUTHORIZE_URL",
    "GOOGLE_OAUTH_CLIENT_ID",
    "GOOGLE_OAUTH_CLIENT_SECRET",
  ],
};
