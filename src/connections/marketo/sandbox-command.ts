/** The Marketo emulator in the `martech-steps sandbox` command: its port option and the variables it sets. */
import type { SandboxCommand } from "../types.js";

export const MARKETO_SANDBOX_COMMAND: SandboxCommand = {
  portFlag: "--marketo-port",
  defaultPort: 4010,
  emulator: "Marketo emulator",
  emulates: "Marketo",
  variables: ["MARKETO_CLIENT_ID", "MARKETO_CLIENT_SECRET", "MARKETO_REST_ENDPOINT"],
};
