/**
 * Turns data set slices into "facts": the unit the report engine filters and groups. Three grains,
 * chosen per request so session metrics are not multiplied by the number of events:
 * - session grain (one fact per slice) when no event- or item-scoped field is used;
 * - event grain (slice × event) when eventName, isKeyEvent or a page dimension is used;
 * - item grain (slice × purchased item) when an item-scoped field is used.
 */
import { COUNTRIES, type DataProfile, DEVICES, ITEMS, PAGES, TRAFFIC } from "./catalog-values.js";
import { customDimensionValue, isCustomField } from "./custom-fields.js";
import type { EventStat, ItemStat, Slice } from "./dataset.js";
import { calendarDimension } from "./dates.js";
import { type Base, emptyBase, type NamedKeyEvents, type Scope } from "./fields.js";
import { generatedDimension, isReturning } from "./generators.js";
import { DIMENSION_BY_NAME, METRIC_BY_NAME } from "./schema-catalog.js";

export interface Fact {
  /** Calendar day (core reports) or minutes ago (realtime), what date/minute ranges select on. */
  readonly at: number;
  dimension(name: string): string;
  readonly base: Base;
  /**
   * The sessions and people the fact counts (its slice): facts with the same unit share them, so a row
   * counts them once (report.ts DISTINCT). Without one, the fact is its own.
   */
  readonly unit?: object;
}

export type Grain = "session" | "event" | "item";

const NOT_SET = "(not set)";

/** The finest grain any used field needs (dimensions, metrics and filter fields together). */
export function grainFor(
  fields: Iterable<string>,
  scopeOfCustom: (name: string) => Scope | undefined,
): Grain {
  let grain: Grain = "session";
  for (const field of fields) {
    const scope: Scope | undefined =
      DIMENSION_BY_NAME.get(field)?.scope ?? METRIC_BY_NAME.get(field)?.scope ?? scopeOfCustom(field);
    if (scope === "item") return "item";
    if (scope === "event") grain = "event";
  }
  return grain;
}

class SliceFact implements Fact {
  readonly at: number;
  readonly unit: object;
  constructor(
    protected readonly slice: Slice,
    protected readonly profile: DataProfile,
    readonly base: Base,
    protected readonly event?: EventStat,
    protected readonly keyEvents?: ReadonlySet<string>,
    protected readonly item?: ItemStat,
    /** First day of the earliest requested range, for the nth* dimensions. */
    protected readonly origin = slice.day,
  ) {
    this.at = slice.day;
    this.unit = slice;
  }

  dimension(name: string): string {
    const s = this.slice;
    const page = PAGES[s.page];
    const traffic = TRAFFIC[s.traffic];
    const country = COUNTRIES[s.country];
    switch (name) {
      case "country":
        return country?.name ?? NOT_SET;
      case "countryId":
        return country?.id ?? NOT_SET;
      case "continent":
        return country?.continent ?? NOT_SET;
      case "sessionSource":
        return traffic?.source ?? NOT_SET;
      case "sessionMedium":
        return traffic?.medium ?? NOT_SET;
      case "sessionSourceMedium":
        return traffic ? `${traffic.source} / ${traffic.medium}` : NOT_SET;
      case "sessionCampaignName":
        return traffic?.campaign ?? NOT_SET;
      case "sessionDefaultChannelGroup":
        return traffic?.channelGroup ?? NOT_SET;
      case "deviceCategory":
        return DEVICES[s.device] ?? NOT_SET;
      case "platform":
        return "web";
      case "hostName":
        return this.profile.hostName;
      case "pagePath":
        return page?.path ?? NOT_SET;
      case "pageTitle":
      case "unifiedScreenName":
        return page?.title ?? NOT_SET;
      case "eventName":
        return this.event?.name ?? NOT_SET;
      case "isKeyEvent":
        return this.event && this.keyEvents?.has(this.event.name) ? "true" : "false";
      case "itemName":
        return (this.item && ITEMS[this.item.item]?.name) ?? NOT_SET;
      case "itemCategory":
        return (this.item && ITEMS[this.item.item]?.category) ?? NOT_SET;
      default:
        if (isCustomField(name)) return customDimensionValue(name, s, this.event, this.item);
        return (
          calendarDimension(name, s.day) ??
          generatedDimension(name, {
            slice: s,
            profile: this.profile,
            event: this.event,
            item: this.item,
            origin: this.origin,
          })
        );
    }
  }
}

function sessionBase(slice: Slice, keyEvents: ReadonlySet<string>, named: NamedKeyEvents): Base {
  const base = emptyBase(named);
  base.sessions = slice.sessions;
  base.engagedSessions = slice.engagedSessions;
  base.totalUsers = slice.totalUsers;
  base.activeUsers = slice.activeUsers;
  base.newUsers = isReturning(slice) ? 0 : slice.totalUsers;
  base.engagementSeconds = slice.engagementSeconds;
  for (const e of slice.events) {
    base.eventCount += e.count;
    base.revenueUsd += e.revenueUsd;
    addEventCounts(base, e, keyEvents, named);
  }
  // Sessions (users) with a key event: at least the largest key event's, at most all of them.
  base.keyEventSessions = Math.min(slice.sessions, base.keyEventSessions);
  base.keyEventUsers = Math.min(slice.totalUsers, base.keyEventUsers);
  return base;
}

/** The counts an event adds to its row, by what the event is (schema: "counts the 'x' event"). */
function addEventCounts(
  base: Base,
  e: EventStat,
  keyEvents: ReadonlySet<string>,
  named: NamedKeyEvents,
): void {
  if (e.name === "page_view") base.screenPageViews += e.count;
  if (e.name === "add_to_cart") base.addToCarts += e.count;
  if (e.name === "begin_checkout") base.checkouts += e.count;
  if (e.name === "view_item") base.itemViewEvents += e.count;
  if (e.name === "scroll") base.scrolledUsers += e.users;
  if (e.name === "purchase") {
    base.transactions += e.count;
    base.purchasers += e.users;
    // Most purchasers of a small shop buy once: first-time buyers are a fixed share of purchasers.
    base.firstTimePurchasers += Math.round(e.users * FIRST_TIME_SHARE);
  }
  if (keyEvents.has(e.name)) {
    base.keyEvents += e.count;
    base.keyEventSessions += e.sessions;
    base.keyEventUsers += e.users;
    const at = named.get(e.name);
    if (at !== undefined) {
      const counts = base.perKeyEvent;
      counts[3 * at] = (counts[3 * at] ?? 0) + e.count;
      counts[3 * at + 1] = (counts[3 * at + 1] ?? 0) + e.sessions;
      counts[3 * at + 2] = (counts[3 * at + 2] ?? 0) + e.users;
    }
  }
}

const FIRST_TIME_SHARE = 0.7;

/** Session counts of an event row are "sessions (users) in which this event fired". */
function eventBase(slice: Slice, e: EventStat, keyEvents: ReadonlySet<string>, named: NamedKeyEvents): Base {
  const base = emptyBase(named);
  base.eventCount = e.count;
  base.sessions = e.sessions;
  base.engagedSessions = Math.min(e.sessions, slice.engagedSessions);
  base.totalUsers = e.users;
  base.activeUsers = Math.min(e.users, slice.activeUsers);
  base.newUsers = isReturning(slice) ? 0 : e.users;
  base.engagementSeconds = e.name === "user_engagement" ? slice.engagementSeconds : 0;
  base.revenueUsd = e.revenueUsd;
  addEventCounts(base, e, keyEvents, named);
  return base;
}

function itemBase(item: ItemStat, named: NamedKeyEvents): Base {
  const base = emptyBase(named);
  base.itemsPurchased = item.quantity;
  base.itemRevenueUsd = item.revenueUsd;
  return base;
}

export function factsOf(
  slices: readonly Slice[],
  grain: Grain,
  profile: DataProfile,
  keyEvents: ReadonlySet<string>,
  origin = slices[0]?.day ?? 0,
  named: NamedKeyEvents = new Map(),
): Fact[] {
  const facts: Fact[] = [];
  for (const slice of slices) {
    if (grain === "session") {
      facts.push(
        new SliceFact(
          slice,
          profile,
          sessionBase(slice, keyEvents, named),
          undefined,
          keyEvents,
          undefined,
          origin,
        ),
      );
    } else if (grain === "event") {
      for (const e of slice.events) {
        facts.push(
          new SliceFact(
            slice,
            profile,
            eventBase(slice, e, keyEvents, named),
            e,
            keyEvents,
            undefined,
            origin,
          ),
        );
      }
    } else {
      for (const item of slice.items) {
        facts.push(new SliceFact(slice, profile, itemBase(item, named), undefined, keyEvents, item, origin));
      }
    }
  }
  return facts;
}
