/**
 * The seeded data set. Per property and calendar day it holds a dozen or so aggregated "session slices"
 * (country × source/medium × device × page), each with its session/user counts, the events fired in it
 * and, for shops, the items bought. That is ~15 slices × ~10 events a day, so a 400-day property stays
 * at a few tens of thousands of event rows, generated lazily per day and cached.
 *
 * Each day is a pure function of (seed, propertyId, day): a report never depends on what was asked
 * before, and moving the clock only shifts the 400-day window.
 */
import {
  COUNTRIES,
  type DataProfile,
  DEVICE_WEIGHTS,
  type EventSpec,
  ITEMS,
  PAGES,
  profileOf,
  TRAFFIC,
} from "./catalog-values.js";
import { zonedNow } from "./dates.js";
import { createRng, type Rng } from "./prng.js";

/** Days of history relative to "today" in the property's time zone (today included). */
export const HISTORY_DAYS = 400;
export const DEFAULT_SEED = 7;
const DAY_MS = 86_400_000;

export interface EventStat {
  name: string;
  count: number;
  sessions: number;
  users: number;
  newUsers: number;
  revenueUsd: number;
}

export interface ItemStat {
  item: number; // index in ITEMS
  quantity: number;
  revenueUsd: number;
}

export interface Slice {
  day: number;
  country: number;
  traffic: number;
  device: number;
  page: number;
  sessions: number;
  engagedSessions: number;
  totalUsers: number;
  activeUsers: number;
  newUsers: number;
  engagementSeconds: number;
  events: EventStat[];
  items: ItemStat[];
}

const COUNTRY_WEIGHTS = COUNTRIES.map((c) => c.weight);
const TRAFFIC_WEIGHTS = TRAFFIC.map((t) => t.weight);
const PAGE_WEIGHTS = PAGES.map((p) => p.weight);
const between = (rng: Rng, low: number, high: number): number => low + rng.next() * (high - low);
const cents = (value: number): number => Math.round(value * 100) / 100;

function purchaseItems(rng: Rng, purchases: number): { items: ItemStat[]; revenueUsd: number } {
  const items: ItemStat[] = [];
  let revenueUsd = 0;
  for (let p = 0; p < purchases; p++) {
    const lines = rng.int(1, 2);
    for (let l = 0; l < lines; l++) {
      const item = rng.weighted([5, 2, 2, 4, 3, 1]);
      const quantity = rng.int(1, 3);
      const revenue = cents(quantity * (ITEMS[item]?.priceUsd ?? 0));
      revenueUsd += revenue;
      const line = items.find((i) => i.item === item);
      if (line) {
        line.quantity += quantity;
        line.revenueUsd = cents(line.revenueUsd + revenue);
      } else items.push({ item, quantity, revenueUsd: revenue });
    }
  }
  return { items, revenueUsd: cents(revenueUsd) };
}

function customEvent(rng: Rng, spec: EventSpec, slice: Slice): EventStat | undefined {
  const sessions = Math.min(slice.sessions, Math.round(slice.sessions * spec.reach * between(rng, 0.6, 1.4)));
  if (sessions === 0) return undefined;
  const users = Math.min(slice.totalUsers, sessions);
  return {
    name: spec.name,
    count: Math.max(sessions, Math.round(sessions * spec.perSession * between(rng, 0.85, 1.15))),
    sessions,
    users,
    newUsers: Math.min(slice.newUsers, Math.round((users * slice.newUsers) / slice.totalUsers)),
    revenueUsd: 0,
  };
}

function buildSlice(rng: Rng, day: number, sessions: number, profile: DataProfile): Slice {
  const totalUsers = Math.max(1, Math.round(sessions * between(rng, 0.72, 0.95)));
  const newUsers = Math.round(totalUsers * between(rng, 0.25, 0.6));
  const engagedSessions = Math.round(sessions * between(rng, 0.45, 0.75));
  const slice: Slice = {
    day,
    country: rng.weighted(COUNTRY_WEIGHTS),
    traffic: rng.weighted(TRAFFIC_WEIGHTS),
    device: rng.weighted(DEVICE_WEIGHTS),
    page: rng.weighted(PAGE_WEIGHTS),
    sessions,
    engagedSessions,
    totalUsers,
    activeUsers: Math.max(1, Math.min(totalUsers, Math.round(totalUsers * between(rng, 0.82, 0.97)))),
    newUsers,
    engagementSeconds: Math.round(engagedSessions * between(rng, 35, 170)),
    events: [],
    items: [],
  };
  const auto = (name: string, count: number, sess: number, users: number, fresh: number): void => {
    if (count > 0) slice.events.push({ name, count, sessions: sess, users, newUsers: fresh, revenueUsd: 0 });
  };
  auto("session_start", sessions, sessions, totalUsers, newUsers);
  auto("first_visit", newUsers, newUsers, newUsers, newUsers);
  auto("page_view", Math.round(sessions * between(rng, 1.4, 3.8)), sessions, totalUsers, newUsers);
  const engagedUsers = Math.min(totalUsers, engagedSessions);
  auto(
    "user_engagement",
    Math.round(engagedSessions * between(rng, 1, 2.2)),
    engagedSessions,
    engagedUsers,
    0,
  );
  for (const spec of profile.events) {
    const stat = customEvent(rng, spec, slice);
    if (stat) slice.events.push(stat);
  }
  attachRevenue(rng, slice);
  return slice;
}

function attachRevenue(rng: Rng, slice: Slice): void {
  const purchase = slice.events.find((e) => e.name === "purchase");
  if (!purchase) return;
  const { items, revenueUsd } = purchaseItems(rng, purchase.count);
  purchase.revenueUsd = revenueUsd;
  slice.items = items;
}

/** Seasonality: fewer sessions at weekends, a gentle yearly wave. */
function dayVolume(rng: Rng, day: number, profile: DataProfile): number {
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const weekend = weekday === 0 || weekday === 6 ? 0.72 : 1;
  const yearly = 1 + 0.15 * Math.sin((2 * Math.PI * day) / 365.25);
  return Math.max(10, Math.round(profile.dailySessions * weekend * yearly * between(rng, 0.88, 1.12)));
}

export function generateDay(seed: number, propertyId: string, day: number): Slice[] {
  const profile = profileOf(propertyId);
  if (profile.dailySessions === 0) return [];
  const rng = createRng(seed, propertyId, day);
  const total = dayVolume(rng, day, profile);
  const shares = Array.from({ length: rng.int(10, 18) }, () => between(rng, 0.2, 1) ** 2);
  const shareSum = shares.reduce((a, b) => a + b, 0);
  const slices = shares.map((share) =>
    buildSlice(rng, day, Math.max(1, Math.round((total * share) / shareSum)), profile),
  );
  // Every event of the profile is collected every day (at least once), so which events a property
  // collects never depends on the seed: see collectedEventNames.
  const busiest = slices.reduce((a, b) => (b.sessions > a.sessions ? b : a));
  for (const spec of profile.events) {
    if (slices.some((s) => s.events.some((e) => e.name === spec.name))) continue;
    busiest.events.push({ name: spec.name, count: 1, sessions: 1, users: 1, newUsers: 0, revenueUsd: 0 });
    if (spec.name === "purchase") attachRevenue(rng, busiest);
  }
  return slices;
}

/** Today's data is partial: scale the full day by the share of the local day already elapsed. */
function partialDay(slices: readonly Slice[], elapsed: number): Slice[] {
  const scale = (n: number): number => Math.floor(n * elapsed);
  const out: Slice[] = [];
  for (const s of slices) {
    const sessions = scale(s.sessions);
    if (sessions === 0) continue;
    const events = s.events
      .map((e) => ({ ...e, count: scale(e.count), sessions: scale(e.sessions), users: scale(e.users) }))
      .map((e) => ({ ...e, newUsers: scale(e.newUsers), revenueUsd: 0 }))
      .filter((e) => e.count > 0);
    const purchase = events.find((e) => e.name === "purchase");
    const items = purchase
      ? s.items
          .map((i) => ({ ...i, quantity: scale(i.quantity), revenueUsd: cents(i.revenueUsd * elapsed) }))
          .filter((i) => i.quantity > 0)
      : [];
    // Revenue stays the sum of its line items, as on full days.
    if (purchase) purchase.revenueUsd = cents(items.reduce((sum, i) => sum + i.revenueUsd, 0));
    const totalUsers = Math.max(1, scale(s.totalUsers));
    out.push({
      ...s,
      sessions,
      engagedSessions: scale(s.engagedSessions),
      totalUsers,
      activeUsers: Math.min(totalUsers, Math.max(1, scale(s.activeUsers))),
      newUsers: scale(s.newUsers),
      engagementSeconds: scale(s.engagementSeconds),
      events,
      items,
    });
  }
  return out;
}

const MAX_CACHED_DAYS = 4 * HISTORY_DAYS;

/** Lazily generated, cached days of every property for one seed. */
export class Dataset {
  private readonly cache = new Map<string, Slice[]>();

  constructor(readonly seed: number) {}

  /** Full-day slices (no time-zone logic, no window): the cache key is the calendar day. */
  day(propertyId: string, day: number): Slice[] {
    const key = `${propertyId}:${day}`;
    let slices = this.cache.get(key);
    if (!slices) {
      if (this.cache.size >= MAX_CACHED_DAYS) this.cache.clear();
      slices = generateDay(this.seed, propertyId, day);
      this.cache.set(key, slices);
    }
    return slices;
  }

  /** The slices visible for `day` at `nowMs`: inside the history window, today partial, future empty. */
  visible(propertyId: string, day: number, nowMs: number, timeZone: string): Slice[] {
    const today = zonedNow(nowMs, timeZone);
    if (day > today.day || day <= today.day - HISTORY_DAYS) return [];
    const slices = this.day(propertyId, day);
    return day === today.day ? partialDay(slices, today.elapsed) : slices;
  }
}

const defaultDataset = new Dataset(DEFAULT_SEED);

/**
 * When a property with data was created, as the Admin API states it (Property.createTime): the start of the
 * first day of its history window, in its time zone, so that no report finds data before it (a real
 * property holds none from before its creation). It moves with the clock, as the window does; undefined
 * for a property without data (created ones), whose own createTime stands.
 */
export function historyStartTime(propertyId: string, timeZone: string, nowMs: number): string | undefined {
  if (profileOf(propertyId).kind === "none") return undefined;
  const first = zonedNow(nowMs, timeZone).day - HISTORY_DAYS + 1;
  // The zone's offset at that day's UTC midnight: local minutes there minus UTC minutes.
  const utcMidnight = first * DAY_MS;
  const local = zonedNow(utcMidnight, timeZone);
  const offsetMs = Math.round((local.day - first + local.elapsed) * 1440) * 60_000;
  return new Date(utcMidnight - offsetMs).toISOString();
}

/**
 * Event names with at least one event in the last `sinceDaysAgo` days (today included, UTC days) for
 * the Admin side's "an event must be collected before it can be a key event" rule. Profiles make
 * the answer independent of the seed; see generateDay.
 */
export function collectedEventNames(propertyId: string, sinceDaysAgo: number, now: number): string[] {
  const today = zonedNow(now, "UTC").day;
  const names = new Set<string>();
  const span = Math.min(Math.max(0, Math.floor(sinceDaysAgo)), HISTORY_DAYS - 1);
  for (let day = today - span; day <= today; day++) {
    for (const slice of defaultDataset.visible(propertyId, day, now, "UTC")) {
      for (const event of slice.events) names.add(event.name);
    }
  }
  return [...names].sort();
}
