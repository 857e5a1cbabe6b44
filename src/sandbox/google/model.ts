/**
 * The records of the Google sandbox world (accounts, properties and their sub-resources), shared by the
 * world, its seed and the Admin API handlers. A leaf module: it imports nothing, so the seed and the
 * world can both use it without importing each other.
 */
import type { SandboxProperty } from "./types.js";

export interface WorldAccount {
  id: string;
  displayName: string;
  regionCode: string;
  createTime: string;
  updateTime: string;
  /** Set by DELETE: the account is in the trash can (soft-deleted). */
  deleted?: boolean;
}

export interface WorldProperty extends SandboxProperty {
  updateTime: string;
  deleteTime?: string;
  expireTime?: string;
}

export type CountingMethod = "ONCE_PER_EVENT" | "ONCE_PER_SESSION";

export interface WorldKeyEvent {
  id: string;
  propertyId: string;
  eventName: string;
  countingMethod: CountingMethod;
  defaultValue?: { numericValue: number; currencyCode: string };
  createTime: string;
  custom: boolean;
  deletable: boolean;
}

export type DataStreamType = "WEB_DATA_STREAM" | "ANDROID_APP_DATA_STREAM" | "IOS_APP_DATA_STREAM";

export interface WorldDataStream {
  id: string;
  propertyId: string;
  type: DataStreamType;
  displayName?: string;
  createTime: string;
  updateTime: string;
  webStreamData?: { measurementId: string; defaultUri?: string };
  androidAppStreamData?: { packageName: string; firebaseAppId: string };
  iosAppStreamData?: { bundleId: string; firebaseAppId: string };
}

export type DimensionScope = "EVENT" | "USER" | "ITEM";

export interface WorldCustomDimension {
  id: string;
  propertyId: string;
  parameterName: string;
  displayName: string;
  description?: string;
  scope: DimensionScope;
  disallowAdsPersonalization?: boolean;
}

export type MeasurementUnit =
  | "STANDARD"
  | "CURRENCY"
  | "FEET"
  | "METERS"
  | "KILOMETERS"
  | "MILES"
  | "MILLISECONDS"
  | "SECONDS"
  | "MINUTES"
  | "HOURS";

export type RestrictedMetricType = "COST_DATA" | "REVENUE_DATA";

export interface WorldCustomMetric {
  id: string;
  propertyId: string;
  parameterName: string;
  displayName: string;
  description?: string;
  measurementUnit: MeasurementUnit;
  scope: "EVENT";
  restrictedMetricType?: RestrictedMetricType[];
}

export type RetentionDuration =
  | "TWO_MONTHS"
  | "FOURTEEN_MONTHS"
  | "TWENTY_SIX_MONTHS"
  | "THIRTY_EIGHT_MONTHS"
  | "FIFTY_MONTHS";

export interface DataRetention {
  eventDataRetention: RetentionDuration;
  userDataRetention: RetentionDuration;
  resetUserDataOnNewActivity: boolean;
}

export interface WorldMeasurementProtocolSecret {
  id: string;
  propertyId: string;
  streamId: string;
  displayName: string;
  secretValue: string;
}

export interface WorldGoogleAdsLink {
  id: string;
  propertyId: string;
  customerId: string;
  adsPersonalizationEnabled: boolean;
  creatorEmailAddress: string;
  createTime: string;
  updateTime: string;
}

export interface WorldFirebaseLink {
  id: string;
  propertyId: string;
  /** "projects/{project number}" */
  project: string;
  createTime: string;
}

export interface DataSharingSettings {
  sharingWithGoogleSupportEnabled: boolean;
  sharingWithGoogleAssignedSalesEnabled: boolean;
  sharingWithGoogleAnySalesEnabled: boolean;
  sharingWithGoogleProductsEnabled: boolean;
  sharingWithOthersEnabled: boolean;
}

/** One Admin API write, as searchChangeHistoryEvents reports it. */
export interface WorldChange {
  id: string;
  accountId: string;
  propertyId?: string;
  changeTime: string;
  actorEmail: string;
  action: "CREATED" | "UPDATED" | "DELETED";
  resource: string;
  /** ChangeHistoryResource member name (property, dataStream, googleAdsLink, ...) and the resource JSON. */
  after?: { type: string; json: Record<string, unknown> };
}

/** One read of reporting data through the Data API (runAccessReport). */
export interface WorldAccess {
  email: string;
  propertyId: string;
  at: number;
  realtime: boolean;
}
