/**
 * The seeded Google Analytics world: two accounts (100001 Sandbox Retail, 100002 Sandbox Media) with a
 * few properties each, every property with one web data stream and its key events (also listed as
 * conversion events). Property 412345671 has three custom dimensions (event, user and item scope), two
 * custom metrics (one CURRENCY with REVENUE_DATA) and 14-month retention; 423456787 has one custom
 * dimension; the others keep the defaults of a new property (no custom definitions, event data two
 * months). Every property also has the audiences 1001 All Users, 1002 Purchasers and 1003 Engaged Users
 * for audience exports (data/audience-exports.ts). Fixed timestamps keep every response byte-identical
 * between runs, but for one: the Admin API states a property with data as created at the start of the
 * first day of its data (data/dataset.ts `historyStartTime`), which moves with the clock as the Data API's
 * 400-day window does; the createTime below is its data stream's and key events'.
 */
import type {
  CountingMethod,
  DataRetention,
  WorldAccount,
  WorldCustomDimension,
  WorldCustomMetric,
} from "./model.js";

export const SEED_ACCOUNTS: readonly WorldAccount[] = [
  {
    id: "100001",
    displayName: "Sandbox Retail",
    regionCode: "US",
    createTime: "2023-02-06T10:15:31.482Z",
    updateTime: "2024-05-17T08:02:11.905Z",
  },
  {
    id: "100002",
    displayName: "Sandbox Media",
    regionCode: "FR",
    createTime: "2023-06-21T14:40:02.117Z",
    updateTime: "2024-09-03T16:25:47.330Z",
  },
];

export interface SeedProperty {
  id: string;
  accountId: string;
  displayName: string;
  timeZone: string;
  currencyCode: string;
  industryCategory?: string;
  createTime: string;
  stream: { displayName: string; defaultUri: string };
  keyEvents: readonly (readonly [string, CountingMethod])[];
  customDimensions?: readonly Omit<WorldCustomDimension, "id" | "propertyId">[];
  customMetrics?: readonly Omit<WorldCustomMetric, "id" | "propertyId">[];
  /** Default: event data two months, user data fourteen, reset on new activity. */
  retention?: DataRetention;
}

/**
 * Property ids are chosen for the Data API emulator, whose data profile depends on the id's last digit
 * (data/catalog-values.ts `profileOf`): 1-3 online shop, 4-6 lead generation, 7-9 media, 0 no data.
 * Seeded key events are events each profile actually collects.
 */
export const SEED_PROPERTIES: readonly SeedProperty[] = [
  {
    id: "412345671",
    accountId: "100001",
    displayName: "Retail Web Store",
    timeZone: "America/New_York",
    currencyCode: "USD",
    industryCategory: "SHOPPING",
    createTime: "2023-02-06T10:20:12.004Z",
    stream: { displayName: "Web Store", defaultUri: "https://shop.sandbox.example" },
    keyEvents: [
      ["purchase", "ONCE_PER_EVENT"],
      ["sign_up", "ONCE_PER_SESSION"],
    ],
    customDimensions: [
      { parameterName: "payment_type", displayName: "Payment type", scope: "EVENT" },
      {
        parameterName: "customer_tier",
        displayName: "Customer tier",
        description: "Loyalty tier from the CRM",
        scope: "USER",
        disallowAdsPersonalization: true,
      },
      { parameterName: "item_color", displayName: "Item color", scope: "ITEM" },
    ],
    customMetrics: [
      {
        parameterName: "discount_amount",
        displayName: "Discount amount",
        measurementUnit: "CURRENCY",
        scope: "EVENT",
        restrictedMetricType: ["REVENUE_DATA"],
      },
      {
        parameterName: "video_seconds",
        displayName: "Video seconds",
        measurementUnit: "SECONDS",
        scope: "EVENT",
      },
    ],
    retention: {
      eventDataRetention: "FOURTEEN_MONTHS",
      userDataRetention: "FOURTEEN_MONTHS",
      resetUserDataOnNewActivity: true,
    },
  },
  {
    id: "412345674",
    accountId: "100001",
    displayName: "Retail Help Center",
    timeZone: "Europe/Paris",
    currencyCode: "EUR",
    industryCategory: "SHOPPING",
    createTime: "2023-04-11T07:48:55.610Z",
    stream: { displayName: "Help Center", defaultUri: "https://help.sandbox.example" },
    keyEvents: [
      ["generate_lead", "ONCE_PER_SESSION"],
      ["file_download", "ONCE_PER_EVENT"],
    ],
  },
  {
    // Created recently and never tagged: it has no collected data (reports come back empty).
    id: "412345680",
    accountId: "100001",
    displayName: "Retail Staging (no data)",
    timeZone: "Europe/London",
    currencyCode: "GBP",
    industryCategory: "SHOPPING",
    createTime: "2024-11-02T12:00:00.000Z",
    stream: { displayName: "Staging", defaultUri: "https://staging.sandbox.example" },
    keyEvents: [["purchase", "ONCE_PER_EVENT"]],
  },
  {
    id: "423456787",
    accountId: "100002",
    displayName: "Media News Site",
    timeZone: "Europe/Paris",
    currencyCode: "EUR",
    industryCategory: "NEWS",
    createTime: "2023-06-21T14:52:40.773Z",
    stream: { displayName: "News Site", defaultUri: "https://news.sandbox.example" },
    keyEvents: [
      ["login", "ONCE_PER_SESSION"],
      ["share", "ONCE_PER_EVENT"],
    ],
    customDimensions: [{ parameterName: "article_section", displayName: "Article section", scope: "EVENT" }],
  },
  {
    id: "423456789",
    accountId: "100002",
    displayName: "Media Video Portal",
    timeZone: "Asia/Tokyo",
    currencyCode: "JPY",
    industryCategory: "ARTS_AND_ENTERTAINMENT",
    createTime: "2023-09-30T03:11:09.251Z",
    stream: { displayName: "Video Portal", defaultUri: "https://video.sandbox.example" },
    keyEvents: [["video_complete", "ONCE_PER_EVENT"]],
  },
];
