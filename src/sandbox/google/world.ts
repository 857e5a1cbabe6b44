/**
 * The Google sandbox "world": users and their per-account roles, accounts, properties, data streams and key
 * events. Ids come from counters and hashes, never Math.random, so two sandboxes started alike are alike.
 */
import { createHash } from "node:crypto";
import { PropertyCollection } from "./collection.js";
import type {
  DataRetention,
  DataSharingSettings,
  WorldAccess,
  WorldAccount,
  WorldChange,
  WorldCustomDimension,
  WorldCustomMetric,
  WorldDataStream,
  WorldFirebaseLink,
  WorldGoogleAdsLink,
  WorldKeyEvent,
  WorldMeasurementProtocolSecret,
  WorldProperty,
} from "./model.js";
import { SEED_ACCOUNTS, SEED_PROPERTIES, type SeedProperty } from "./seed.js";
import type { Role } from "./types.js";

export interface GoogleSandboxUser {
  email: string;
  roles: Record<string /* accountId */, Role>;
}

export const DEFAULT_USERS: readonly GoogleSandboxUser[] = [
  { email: "analyst@sandbox.example", roles: { "100001": "administrator", "100002": "administrator" } },
  { email: "viewer@sandbox.example", roles: { "100001": "viewer" } },
  { email: "editor@sandbox.example", roles: { "100001": "editor" } },
];

const ROLE_RANK: Record<Role, number> = { viewer: 1, editor: 2, administrator: 3 };

export function roleAtLeast(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && ROLE_RANK[role] >= ROLE_RANK[needed];
}

/**
 * Events GA4 marks as key events by itself ("default" events): the API reports them with custom=false.
 * https://support.google.com/analytics/answer/13128484
 */
const DEFAULT_KEY_EVENTS = new Set([
  "purchase",
  "first_open",
  "in_app_purchase",
  "app_store_subscription_convert",
  "app_store_subscription_renew",
]);

/** Deterministic id-derived token of `length` characters from [A-Z0-9], like a GA4 measurement id suffix. */
function hashCode(input: string, length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const digest = createHash("sha256").update(input).digest();
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[(digest[i] ?? 0) % alphabet.length];
  return out;
}

export class GoogleWorld {
  private readonly users = new Map<string, Record<string, Role>>();
  private readonly accountMap = new Map<string, WorldAccount>();
  private readonly propertyMap = new Map<string, WorldProperty>();
  private readonly keyEventMap = new Map<string, WorldKeyEvent[]>();
  private readonly streamMap = new Map<string, WorldDataStream[]>();
  // Seeded ids sit below these counters, so created resources can never collide with them. Created
  // property ids end in 0, which the Data API emulator reads as "no data yet", as for a real new property.
  private nextPropertyId = 487_650_010;
  private nextKeyEventId = 11_400_000_001;
  private nextStreamId = 9_870_000_001;
  private readonly retention = new Map<string, DataRetention>();
  readonly customDimensions = new PropertyCollection<WorldCustomDimension>(10_230_000_001);
  readonly customMetrics = new PropertyCollection<WorldCustomMetric>(10_450_000_001);
  readonly measurementProtocolSecrets = new PropertyCollection<WorldMeasurementProtocolSecret>(2_000_001);
  readonly googleAdsLinks = new PropertyCollection<WorldGoogleAdsLink>(7_100_000_001);
  readonly firebaseLinks = new PropertyCollection<WorldFirebaseLink>(3_300_000_001);
  private readonly sharing = new Map<string, DataSharingSettings>();
  /** Admin API writes, oldest first (searchChangeHistoryEvents). */
  readonly changes: WorldChange[] = [];
  /** Data API report reads, oldest first (runAccessReport). */
  readonly accesses: WorldAccess[] = [];

  /**
   * An account's data sharing settings; a new account shares with Google support, sales and products and
   * with nobody else, the defaults of the account-creation screen (https://support.google.com/analytics/answer/1011397).
   */
  dataSharing(accountId: string): DataSharingSettings {
    const current = this.sharing.get(accountId) ?? {
      sharingWithGoogleSupportEnabled: true,
      sharingWithGoogleAssignedSalesEnabled: true,
      sharingWithGoogleAnySalesEnabled: true,
      sharingWithGoogleProductsEnabled: true,
      sharingWithOthersEnabled: false,
    };
    this.sharing.set(accountId, current);
    return current;
  }

  constructor(users: readonly GoogleSandboxUser[] = DEFAULT_USERS) {
    for (const user of users) this.users.set(user.email.toLowerCase(), { ...user.roles });
    for (const account of SEED_ACCOUNTS) this.accountMap.set(account.id, { ...account });
    for (const seed of SEED_PROPERTIES) this.seedProperty(seed);
  }

  userEmails(): string[] {
    return [...this.users.keys()];
  }

  /** A user added later (a service account whose email was added to these accounts). */
  addUser(email: string, roles: Record<string, Role>): void {
    this.users.set(email.toLowerCase(), { ...roles });
  }

  hasUser(email: string): boolean {
    return this.users.has(email.toLowerCase());
  }

  roleOf(email: string, accountId: string): Role | undefined {
    return this.users.get(email.toLowerCase())?.[accountId];
  }

  accounts(): WorldAccount[] {
    return [...this.accountMap.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  account(id: string): WorldAccount | undefined {
    return this.accountMap.get(id);
  }

  /**
   * A property's data retention; a new property keeps event data two months and user data fourteen
   * (https://support.google.com/analytics/answer/7667196).
   */
  dataRetention(propertyId: string): DataRetention {
    const current = this.retention.get(propertyId) ?? {
      eventDataRetention: "TWO_MONTHS",
      userDataRetention: "FOURTEEN_MONTHS",
      resetUserDataOnNewActivity: true,
    };
    this.retention.set(propertyId, current);
    return current;
  }

  /** All properties of an account in creation order, trashed ones included. */
  propertiesOf(accountId: string): WorldProperty[] {
    return [...this.propertyMap.values()].filter((p) => p.accountId === accountId);
  }

  /** A property, trashed or not. */
  property(id: string): WorldProperty | undefined {
    return this.propertyMap.get(id);
  }

  liveProperty(id: string): WorldProperty | undefined {
    const property = this.propertyMap.get(id);
    return property && !property.deleted ? property : undefined;
  }

  addProperty(input: Omit<WorldProperty, "id" | "deleted" | "updateTime">): WorldProperty {
    const id = String(this.nextPropertyId);
    this.nextPropertyId += 10;
    const property: WorldProperty = { ...input, id, deleted: false, updateTime: input.createTime };
    this.propertyMap.set(id, property);
    this.keyEventMap.set(id, []);
    this.streamMap.set(id, []);
    return property;
  }

  keyEvents(propertyId: string): WorldKeyEvent[] {
    return this.keyEventMap.get(propertyId) ?? [];
  }

  keyEventNames(propertyId: string): string[] {
    return this.keyEvents(propertyId).map((k) => k.eventName);
  }

  addKeyEvent(input: Omit<WorldKeyEvent, "id" | "custom" | "deletable">): WorldKeyEvent {
    const keyEvent: WorldKeyEvent = {
      ...input,
      id: String(this.nextKeyEventId++),
      custom: !DEFAULT_KEY_EVENTS.has(input.eventName),
      deletable: true,
    };
    this.keyEventMap.set(input.propertyId, [...this.keyEvents(input.propertyId), keyEvent]);
    return keyEvent;
  }

  removeKeyEvent(propertyId: string, id: string): boolean {
    const list = this.keyEvents(propertyId);
    const next = list.filter((k) => k.id !== id);
    this.keyEventMap.set(propertyId, next);
    return next.length !== list.length;
  }

  dataStreams(propertyId: string): WorldDataStream[] {
    return this.streamMap.get(propertyId) ?? [];
  }

  addDataStream(
    input: Omit<
      WorldDataStream,
      "id" | "updateTime" | "webStreamData" | "androidAppStreamData" | "iosAppStreamData"
    > & {
      defaultUri?: string;
      packageName?: string;
      bundleId?: string;
    },
  ): WorldDataStream {
    const id = String(this.nextStreamId++);
    const { defaultUri, packageName, bundleId, ...rest } = input;
    const stream: WorldDataStream = { ...rest, id, updateTime: input.createTime };
    // Firebase app ids look like "1:<project number>:<platform>:<hex>"; derived from the stream id here.
    const firebaseAppId = (platform: string) =>
      `1:${input.propertyId}:${platform}:${hashCode(`firebase:${id}`, 16).toLowerCase()}`;
    if (input.type === "WEB_DATA_STREAM") {
      stream.webStreamData = { measurementId: `G-${hashCode(`stream:${id}`, 10)}` };
      if (defaultUri) stream.webStreamData.defaultUri = defaultUri;
    } else if (input.type === "ANDROID_APP_DATA_STREAM") {
      stream.androidAppStreamData = {
        packageName: packageName ?? "",
        firebaseAppId: firebaseAppId("android"),
      };
    } else {
      stream.iosAppStreamData = { bundleId: bundleId ?? "", firebaseAppId: firebaseAppId("ios") };
    }
    this.streamMap.set(input.propertyId, [...this.dataStreams(input.propertyId), stream]);
    return stream;
  }

  removeDataStream(propertyId: string, id: string): boolean {
    const list = this.dataStreams(propertyId);
    const next = list.filter((s) => s.id !== id);
    this.streamMap.set(propertyId, next);
    return next.length !== list.length;
  }

  private seedProperty(seed: SeedProperty): void {
    const { keyEvents, stream, customDimensions, customMetrics, retention, ...rest } = seed;
    const property: WorldProperty = { ...rest, deleted: false, updateTime: rest.createTime };
    this.propertyMap.set(property.id, property);
    this.keyEventMap.set(property.id, []);
    this.streamMap.set(property.id, []);
    this.addDataStream({
      propertyId: property.id,
      type: "WEB_DATA_STREAM",
      displayName: stream.displayName,
      defaultUri: stream.defaultUri,
      createTime: rest.createTime,
    });
    for (const [eventName, countingMethod] of keyEvents) {
      this.addKeyEvent({ propertyId: property.id, eventName, countingMethod, createTime: rest.createTime });
    }
    for (const dimension of customDimensions ?? [])
      this.customDimensions.add({ ...dimension, propertyId: property.id });
    for (const metric of customMetrics ?? []) this.customMetrics.add({ ...metric, propertyId: property.id });
    if (retention) this.retention.set(property.id, { ...retention });
  }
}
