/**
 * The Google room's sign-in as the MCP server offers it (src/mcp/elicit-connect.ts): when a Google step
 * finds no connected account, a client that can open a link gets the consent URL (URL-mode elicitation)
 * rather than only the error, and the account is connected in the user's browser.
 */
import { type AnyMartechError, ConfigurationError } from "../../errors.js";
import type { RoomSignIn } from "../types.js";

export const GOOGLE_SIGN_IN: RoomSignIn = {
  key: "google_sign_in",
  message: "Connect a Google Analytics account for martech-steps.",
  notConnected: "No Google account is connected to this workspace.",
  waiting: "Waiting for the Google sign-in to finish",
  // src/auth/google/import-checks.ts' noAccount(): the error a Google step meets with no account.
  isNotConnected: (error: AnyMartechError) =>
    error instanceof ConfigurationError && error.details.connection === "google",
};
