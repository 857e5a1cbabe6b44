/**
 * The GA4 metrics whose fall is good news: a page colouring a change between two periods reads a rise of
 * these as worse and a fall as better (the sign and arrow still say the direction). Google's API schema
 * names them (https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema): bounceRate
 * is "the percentage of sessions that were not engaged", the complement of engagementRate. Google says no
 * more than that of any metric, so the list stays this short: costs per click or per key event are left
 * out, as a rise there may be a choice (a dearer campaign) rather than bad news.
 */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set(["bounceRate"]);

/** Whether a fall of the metric (its API name) is good news. */
export const lowerIsBetter = (metric: string): boolean => LOWER_IS_BETTER.has(metric);
