/**
 * The GA fields filled from the connected Google account, plugged in through the form library's
 * `ui:field`: the property and the Analytics account as selects (GET /console/api/google/summaries, the
 * account's accountSummaries), metrics and dimensions picked by their UI names, grouped by category, with
 * the chosen one's description (GET /console/api/google/metadata, the property's metadata). The form passes the chosen
 * account and property in its formContext. When the lists cannot be read, a text box takes the value.
 * A funnel's steps are picked from the events the property collects (GET /console/api/google/events).
 */
import { errorId, type FieldProps } from "@rjsf/utils";
import { useEffect, useMemo, useState } from "react";
import { eventWords } from "../../../src/tools/ga/event-words.ts";
import { withFieldWords } from "../../../src/tools/ga/field-search-words.ts";
import { api } from "../api.ts";
import { type Choice, Combobox } from "../Combobox.tsx";
import { describedAs } from "../field-words.ts";
import { openingProperty } from "./AnalyticsProperties.tsx";

interface Choices {
  accounts: { account: string; displayName: string; properties: { id: string; displayName: string }[] }[];
}
interface FieldChoice {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  type?: string;
}
export interface Fields {
  metrics: FieldChoice[];
  dimensions: FieldChoice[];
  /** The days each period preset covers today in the property's time zone, as the report resolves them. */
  presets?: PresetDays;
}
/** A preset's days, YYYY-MM-DD (src/console/google-pickers.ts). */
export type PresetDays = Record<string, { start_date: string; end_date: string }>;
export interface PickerContext {
  account?: string;
  property?: string;
  /** The report's periods: the funnel's event list counts events over the first one. */
  dateRanges?: unknown;
  /** The report's chosen metrics and dimensions (API names): Sort by offers them. */
  metrics?: unknown;
  dimensions?: unknown;
  /** The days each period preset covers for the chosen property (the period select shows them). */
  presetDays?: PresetDays;
  /**
   * Sets a top-level field to a default on the form's latest data, if it is still empty there. Through the form
   * library's onChange, a default that landed as an example was clicked replaced the example with the form's
   * older data (CI: "at least one metric is required" after an example, twice on Node 22).
   */
  chooseDefault?: (field: string, value: string) => void;
}

// One request per account (and per account and property), shared by every field that shows it.
const loaded = new Map<string, Promise<unknown>>();
function load<T>(path: string): Promise<T> {
  let pending = loaded.get(path) as Promise<T> | undefined;
  if (!pending) {
    pending = api<T>("GET", path);
    loaded.set(path, pending);
    pending.catch(() => loaded.delete(path));
  }
  return pending;
}
function useLoaded<T>(path: string | undefined): { value?: T; failed?: string } {
  const [state, setState] = useState<{ value?: T; failed?: string }>({});
  useEffect(() => {
    if (!path) return;
    let live = true;
    load<T>(path).then(
      (value) => live && setState({ value }),
      (error: Error) => live && setState({ failed: error.message }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return path ? state : {};
}

const context = (props: FieldProps): PickerContext => (props.registry.formContext ?? {}) as PickerContext;
const query = (account: string | undefined) => (account ? `account=${encodeURIComponent(account)}` : "");

function Described(props: FieldProps & { children: React.ReactNode; labelFor?: string }) {
  const { fieldPathId, schema, name } = props;
  return (
    <div className="picker">
      <label htmlFor={props.labelFor ?? fieldPathId.$id} className="control-label">
        {schema.title ?? name}
        {props.required ? <span className="required">*</span> : null}
      </label>
      {describedAs(props) ? <p className="field-description">{describedAs(props)}</p> : null}
      {props.children}
    </div>
  );
}

function TextBox(props: FieldProps & { note?: string }) {
  const { fieldPathId, formData, onChange, disabled, readonly, schema } = props;
  return (
    <>
      <input
        id={fieldPathId.$id}
        type="text"
        className="form-control"
        value={typeof formData === "string" ? formData : ""}
        placeholder={Array.isArray(schema.examples) ? String(schema.examples[0]) : undefined}
        disabled={disabled || readonly}
        onChange={(event) => onChange(event.target.value || undefined, fieldPathId.path)}
      />
      {props.note ? <p className="field-note">{props.note}</p> : null}
    </>
  );
}

/** Picks a value once the choices are known and none is chosen yet: the first one. */
function useFirstChoice(props: FieldProps, first: string | undefined): void {
  const { formData, onChange, fieldPathId } = props;
  const { chooseDefault } = context(props);
  useEffect(() => {
    if (first === undefined || (formData !== undefined && formData !== "")) return;
    const [field, ...inner] = fieldPathId.path;
    if (chooseDefault && typeof field === "string" && inner.length === 0) chooseDefault(field, first);
    else onChange(first, fieldPathId.path);
  }, [first, formData, onChange, fieldPathId, chooseDefault]);
}

/** The GA4 property: a select of the properties the chosen Google account can see. */
export function PropertyField(props: FieldProps) {
  const { account } = context(props);
  const { value, failed } = useLoaded<Choices>(`/console/api/google/summaries?${query(account)}`);
  const groups = value?.accounts.filter((group) => group.properties.length > 0) ?? [];
  useFirstChoice(props, openingProperty(value)?.id);
  if (failed || (value && groups.length === 0))
    return (
      <Described {...props}>
        <TextBox {...props} note={failed ? `Your properties could not be listed: ${failed}` : undefined} />
      </Described>
    );
  const chosen = typeof props.formData === "string" ? props.formData : "";
  const known = groups.some((group) => group.properties.some((property) => property.id === chosen));
  return (
    <Described {...props}>
      <select
        id={props.fieldPathId.$id}
        className="form-control"
        value={chosen}
        disabled={props.disabled || props.readonly || !value}
        onChange={(event) => props.onChange(event.target.value || undefined, props.fieldPathId.path)}
      >
        {value ? null : <option value="">Loading your properties…</option>}
        {chosen && !known ? <option value={chosen}>{chosen}</option> : null}
        {groups.map((group) => (
          <optgroup key={group.account} label={group.displayName}>
            {group.properties.map((property) => (
              <option key={property.id} value={property.id}>
                {property.displayName} ({property.id})
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </Described>
  );
}

/** The Analytics account a new property goes in: a select of the accounts the Google account can see. */
export function AnalyticsAccountField(props: FieldProps) {
  const { account } = context(props);
  const { value, failed } = useLoaded<Choices>(`/console/api/google/summaries?${query(account)}`);
  useFirstChoice(props, value?.accounts[0]?.account);
  if (failed || (value && value.accounts.length === 0))
    return (
      <Described {...props}>
        <TextBox {...props} note={failed ? `Your accounts could not be listed: ${failed}` : undefined} />
      </Described>
    );
  return (
    <Described {...props}>
      <select
        id={props.fieldPathId.$id}
        className="form-control"
        value={typeof props.formData === "string" ? props.formData : ""}
        disabled={props.disabled || props.readonly || !value}
        onChange={(event) => props.onChange(event.target.value || undefined, props.fieldPathId.path)}
      >
        {value ? null : <option value="">Loading your accounts…</option>}
        {value?.accounts.map((choice) => (
          <option key={choice.account} value={choice.account}>
            {choice.displayName} ({choice.account})
          </option>
        ))}
      </select>
    </Described>
  );
}

/**
 * The display names of the properties the Google account sees (id → name), from the Property picker's
 * read, for naming a report's property in its results; none while `wanted` is false (no report shown).
 */
export function usePropertyNames(account: string | undefined, wanted: boolean): Record<string, string> {
  const { value } = useLoaded<Choices>(
    wanted ? `/console/api/google/summaries?${query(account)}` : undefined,
  );
  return useMemo(
    () =>
      Object.fromEntries(
        (value?.accounts ?? []).flatMap((group) =>
          group.properties.map((property) => [property.id, property.displayName]),
        ),
      ),
    [value],
  );
}

const metadataPath = (account: string | undefined, property: string) =>
  `/console/api/google/metadata?${query(account)}&property=${encodeURIComponent(property)}`;

/** A property's metrics and dimensions (its metadata, read once per account and property), for a report's column titles. */
export function usePropertyFields(
  account: string | undefined,
  property: string | undefined,
): Fields | undefined {
  return useLoaded<Fields>(property ? metadataPath(account, property) : undefined).value;
}

/** The same fields for code outside a picker (a filter typed with their UI names), from the same read. */
export const propertyFields = (account: string | undefined, property: string): Promise<Fields> =>
  load<Fields>(metadataPath(account, property));

/** "Metric 1" for an item of a list (its id ends in its index), the field's title otherwise. */
function itemLabel(props: FieldProps, fallback: string): string {
  const named = props.uiSchema?.["ui:options"]?.title;
  const title = typeof named === "string" ? named : (props.schema.title ?? fallback);
  const index = /_(\d+)$/.exec(props.fieldPathId.$id)?.[1];
  return index === undefined ? title : `${title} ${Number(index) + 1}`;
}

/** What describes a picker's input: its error under it (the form library's id for it), when it has one. */
const errorIds = (props: FieldProps) =>
  props.rawErrors && props.rawErrors.length > 0 ? `${errorId(props.fieldPathId)}` : undefined;

/**
 * One metric or dimension: the property's own fields by their names in Google Analytics ("Sessions",
 * "Session default channel group"), grouped by category and found by either name; the form keeps the API
 * name. Where the property's fields cannot be listed, the same input takes a typed API name.
 */
export function FieldNameField(props: FieldProps) {
  const { account, property } = context(props);
  const kind = props.uiSchema?.["ui:options"]?.kind === "dimension" ? "dimensions" : "metrics";
  const { value } = useLoaded<Fields>(property ? metadataPath(account, property) : undefined);
  const names = value?.[kind];
  const choices = useMemo(
    () =>
      (names ?? []).map(
        (field): Choice =>
          withFieldWords({
            value: field.apiName,
            label: field.uiName,
            group: field.category || "Other",
            hover: field.apiName,
          }),
      ),
    [names],
  );
  const id = props.fieldPathId.$id;
  const chosen = names?.find((choice) => choice.apiName === props.formData);
  return (
    <div className="picker">
      <Combobox
        id={id}
        label={itemLabel(props, kind === "metrics" ? "Metric" : "Dimension")}
        choices={choices}
        value={typeof props.formData === "string" ? props.formData : undefined}
        onChange={(next) => props.onChange(next, props.fieldPathId.path)}
        disabled={props.disabled || props.readonly}
        placeholder={names ? `Type to find a ${kind === "metrics" ? "metric" : "dimension"}…` : undefined}
        describedBy={
          [errorIds(props), chosen ? `${id}-about` : undefined].filter(Boolean).join(" ") || undefined
        }
        invalid={errorIds(props) !== undefined}
      />
      {chosen ? (
        <p className="field-note" id={`${id}-about`} data-testid={`${id}-about`}>
          {/* The API name on hover only: the marketer reads the name GA shows (trial s9, finding 8). */}
          <b title={chosen.apiName}>{chosen.uiName}</b>: {chosen.description}
        </p>
      ) : null}
    </div>
  );
}

interface Events {
  events: { name: string; count: number }[];
  period: string;
}

/** The period of the form's first date range, as the event list's query asks it (the default: 28 days). */
export function periodQuery(ranges: unknown): string {
  const first = Array.isArray(ranges) ? ranges[0] : undefined;
  if (typeof first === "string") return `period=${encodeURIComponent(first)}`;
  if (first && typeof first === "object") {
    const { start_date: start, end_date: end } = first as Record<string, unknown>;
    if (typeof start === "string" && typeof end === "string")
      return `start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`;
  }
  return "period=last28days";
}

/**
 * One step of a funnel: an event the property collects, picked from those of the report's period with
 * their counts (GET /console/api/google/events, a report of eventName by eventCount), most frequent first.
 */
export function EventNameField(props: FieldProps) {
  const { account, property, dateRanges } = context(props);
  const path = property
    ? `/console/api/google/events?${query(account)}&property=${encodeURIComponent(property)}&${periodQuery(dateRanges)}`
    : undefined;
  const { value, failed } = useLoaded<Events>(path);
  const choices = useMemo(
    () =>
      (value?.events ?? []).map(
        (event): Choice => ({
          value: event.name,
          // "Add to cart (add_to_cart)": typing "cart" or the code finds it.
          label: eventWords(event.name),
          group: `Events collected, ${value?.period ?? ""}`,
          detail: `${event.count.toLocaleString()} events`,
        }),
      ),
    [value],
  );
  const id = props.fieldPathId.$id;
  return (
    <div className="picker">
      <Combobox
        id={id}
        label={itemLabel(props, "Step")}
        choices={choices}
        value={typeof props.formData === "string" ? props.formData : undefined}
        onChange={(next) => props.onChange(next, props.fieldPathId.path)}
        disabled={props.disabled || props.readonly}
        placeholder={value ? "Type to find an event…" : undefined}
        describedBy={errorIds(props)}
        invalid={errorIds(props) !== undefined}
      />
      {failed ? <p className="field-note">The property's events could not be listed: {failed}</p> : null}
    </div>
  );
}
