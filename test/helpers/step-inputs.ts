/** The five steps' ids and a minimal valid input of each, for the input-spelling tests (test/tools/input/). */
export const MARKETO = "marketo_api_call";
export const REPORT = "google_analytics_run_reports";
export const KEY_EVENTS = "google_analytics_create_key_events";
export const PROPERTIES = "google_analytics_create_properties";
export const API_CALL = "google_analytics_api_call";

export const MARKETO_BASE = { method: "GET", endpoint: "/rest/v1/leads.json" };
export const REPORT_BASE = { property: "123", metrics: ["sessions"] };
export const KEY_EVENT_BASE = { property: "123", event_name: "sign_up", skip_collection_check: true };
export const PROPERTY_BASE = {
  analytics_account: "accounts/77",
  display_name: "Shop",
  time_zone: "Europe/Paris",
};
export const API_CALL_BASE = { method: "GET", endpoint: "v1beta/accountSummaries" };
