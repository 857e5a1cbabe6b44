/** The Google Analytics steps' service as a catalog search also finds it ("ga4", "google analytics 4"). */
export const GA_SERVICE_WORDS = "Google Analytics 4 GA4";
