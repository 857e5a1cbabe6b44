/**
 * The names a realtime report takes (the Realtime API schema, absent from a property's metadata):
 * https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema. A name as GA's screens
 * show it is offered only these: "Browser" was offered `browser`, which realtime reports refuse (review s58, F3).
 */
export const REALTIME_SCHEMA_URL =
  "https://developers.google.com/analytics/devguides/reporting/data/v1/realtime-api-schema";

const DIMENSIONS = new Set([
  "appVersion",
  "audienceId",
  "audienceName",
  "audienceResourceName",
  "city",
  "cityId",
  "country",
  "countryId",
  "deviceCategory",
  "eventName",
  "minutesAgo",
  "platform",
  "streamId",
  "streamName",
  "unifiedScreenName",
]);
const METRICS = new Set(["activeUsers", "eventCount", "keyEvents", "screenPageViews"]);

/** Whether a realtime report takes this API name: its schema's, or a user-scoped custom dimension. */
export const realtimeName = (apiName: string): boolean =>
  DIMENSIONS.has(apiName) || METRICS.has(apiName) || apiName.startsWith("customUser:");
