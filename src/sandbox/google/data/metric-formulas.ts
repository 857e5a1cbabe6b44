/**
 * How the metrics of the API schema that fields.ts does not model are computed from a row's summed
 * base counts. Every formula is a function of sums, so a metric adds up (or divides) the same way in
 * every breakdown, and every rate is clamped to 0..1 as the schema page says rates are "returned as a
 * fraction". Metrics fed by products the sandbox does not emulate (Google Ads and Search Console
 * links, AdMob, app crashes, refunds, promotions and item lists) are 0, as on a real web property
 * without those links or events.
 */
import { type Base, money, ratio } from "./fields.js";

export type Formula = (b: Base, fx: number) => number;

const rate = (a: number, b: number): number => Math.min(1, ratio(a, b));
const zero: Formula = () => 0;

/**
 * Rolling active users: the data set keeps no user ids, so the 7- and 28-day counts are the row's
 * active users scaled by fixed reach factors (a 28-day audience is larger than a 7-day one, which is
 * larger than a day's). DAU/WAU/MAU ratios follow from the same factors and stay in 0..1.
 */
const WEEK_REACH = 1.6;
const MONTH_REACH = 2.9;

export const FORMULAS: Readonly<Record<string, Formula>> = {
  active1DayUsers: (b) => b.activeUsers,
  active7DayUsers: (b) => Math.round(b.activeUsers * WEEK_REACH),
  active28DayUsers: (b) => Math.round(b.activeUsers * MONTH_REACH),
  dauPerWau: (b) => rate(b.activeUsers, Math.round(b.activeUsers * WEEK_REACH)),
  dauPerMau: (b) => rate(b.activeUsers, Math.round(b.activeUsers * MONTH_REACH)),
  wauPerMau: (b) => rate(Math.round(b.activeUsers * WEEK_REACH), Math.round(b.activeUsers * MONTH_REACH)),
  addToCarts: (b) => b.addToCarts,
  checkouts: (b) => b.checkouts,
  itemViewEvents: (b) => b.itemViewEvents,
  cartToViewRate: (b) => rate(b.addToCarts, b.itemViewEvents),
  purchaseToViewRate: (b) => rate(b.transactions, b.itemViewEvents),
  scrolledUsers: (b) => b.scrolledUsers,
  totalPurchasers: (b) => b.purchasers,
  firstTimePurchasers: (b) => b.firstTimePurchasers,
  firstTimePurchaserRate: (b) => rate(b.firstTimePurchasers, b.activeUsers),
  firstTimePurchasersPerNewUser: (b) => rate(b.firstTimePurchasers, b.newUsers),
  purchaserRate: (b) => rate(b.purchasers, b.activeUsers),
  transactionsPerPurchaser: (b) => ratio(b.transactions, b.purchasers),
  averagePurchaseRevenue: (b, fx) => money(ratio(b.revenueUsd, b.transactions), fx),
  averagePurchaseRevenuePerPayingUser: (b, fx) => money(ratio(b.revenueUsd, b.purchasers), fx),
  averagePurchaseRevenuePerUser: (b, fx) => money(ratio(b.revenueUsd, b.activeUsers), fx),
  averageRevenuePerUser: (b, fx) => money(ratio(b.revenueUsd, b.activeUsers), fx),
  grossPurchaseRevenue: (b, fx) => money(b.revenueUsd, fx),
  grossItemRevenue: (b, fx) => money(b.itemRevenueUsd, fx),
  // The purchase events' 'value' parameter carries their revenue; no other event sets 'value'.
  eventValue: (b, fx) => money(b.revenueUsd, fx),
  screenPageViewsPerUser: (b) => ratio(b.screenPageViews, b.activeUsers),
  sessionKeyEventRate: (b) => rate(b.keyEventSessions, b.sessions),
  userKeyEventRate: (b) => rate(b.keyEventUsers, b.totalUsers),
  // A web stream logs no app_exception events: every user of the row is crash-free.
  crashAffectedUsers: zero,
  crashFreeUsersRate: (b) => (b.totalUsers > 0 ? 1 : 0),
};

/** The formula of a page metric, or the 0 of a metric whose source the sandbox does not emulate. */
export function formulaOf(apiName: string): Formula {
  return FORMULAS[apiName] ?? zero;
}
