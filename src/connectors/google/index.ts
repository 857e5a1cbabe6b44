export { GoogleAnalyticsConnector, type GoogleAnalyticsConnectorDeps } from "./connector.js";
export {
  apiForPath,
  checkGooglePath,
  checkPropertyId,
  GOOGLE_PATH_RULES,
  isReplaySafe,
  propertyOf,
} from "./paths.js";
export { createdResource, documented } from "./shapes.js";
export { GA4_MAX_IN_FLIGHT } from "./slots.js";
export type * from "./types.js";
export { QUOTA_KINDS } from "./types.js";
