/**
 * GA4's fields by the everyday words marketers search them with (newcomer trial 2026-12-02-s5, finding 6:
 * "Conversions" and "engagement time" found nothing; "Channel" offered six channel groups with no hint
 * which one GA4's own reports use). Sources: conversions were renamed key events in March 2024
 * (https://support.google.com/analytics/answer/13965727); GA4's "Average engagement time" is user
 * engagement divided by active users (https://support.google.com/analytics/answer/11109416); the Traffic
 * acquisition report is by Session default channel group
 * (https://support.google.com/analytics/answer/12923437).
 */

/** The other words that find a field, and what a list of fields says beside it when they found it. */
export interface OtherWords {
  words: readonly string[];
  says: string;
}

/** A field as a picker offers it: its API name, and what the list says beside it. */
interface Offered {
  value: string;
  detail?: string;
}

/** By API name: the other words that find a field, and what the list says beside it then. */
const OTHER_WORDS: Readonly<Record<string, OtherWords>> = {
  keyEvents: { words: ["Conversions"], says: "Conversions, now called Key events" },
  sessionKeyEventRate: {
    words: ["Conversion rate", "Session conversion rate"],
    says: "Session conversion rate, now called Session key event rate",
  },
  userKeyEventRate: {
    words: ["User conversion rate"],
    says: "User conversion rate, now called User key event rate",
  },
  userEngagementDuration: {
    words: ["Engagement time", "User engagement time", "Average engagement time"],
    says: "Total engagement time; GA's Average engagement time is this divided by Active users",
  },
  averageSessionDuration: {
    words: ["Session time", "Time on site", "Average session time"],
    says: "Average session duration",
  },
};

/** What the list says beside a field that is the usual choice among similar ones. */
const USUAL: Readonly<Record<string, string>> = {
  sessionDefaultChannelGroup: "What GA4's Traffic acquisition report uses",
};

/**
 * A field's choice with its other words and, for the usual one, why it is (the console's picker list,
 * console/src/choices.ts, reads `also` and `detail`; this module, shared with the page, imports none of it).
 */
export function withFieldWords<C extends Offered>(choice: C): C & { also?: OtherWords } {
  const also = OTHER_WORDS[choice.value];
  const usual = USUAL[choice.value];
  return { ...choice, ...(also ? { also } : {}), ...(usual ? { detail: usual } : {}) };
}
