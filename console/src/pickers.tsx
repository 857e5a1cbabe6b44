/**
 * The GA fields filled from the connected Google account, plugged in through the form library's
 * `ui:field`: the property and the Analytics account as selects (GET /console/api/google/summaries, the
 * account's accountSummaries), metric and dimension names with autocomplete and the chosen one's
 * description (GET /console/api/google/metadata, the property's metadata). The form passes the chosen
 * account and property in its formContext. When the lists cannot be read, a text box takes the value.
 */
import type { FieldProps } from "@rjsf/utils";
import { useEffect, useState } from "react";
import { api } from "./api.ts";

interface Choices {
  accounts: { account: string; displayName: string; properties: { id: string; displayName: string }[] }[];
}
interface FieldChoice {
  apiName: string;
  uiName: string;
  description: string;
}
interface Fields {
  metrics: FieldChoice[];
  dimensions: FieldChoice[];
}
export interface PickerContext {
  account?: string;
  property?: string;
}

// One request per account (and per account and property), shared by every field that shows it.
const loaded = new Map<string, Promise<unknown>>();
function useLoaded<T>(path: string | undefined): { value?: T; failed?: string } {
  const [state, setState] = useState<{ value?: T; failed?: string }>({});
  useEffect(() => {
    if (!path) return;
    let live = true;
    let pending = loaded.get(path) as Promise<T> | undefined;
    if (!pending) {
      pending = api<T>("GET", path);
      loaded.set(path, pending);
      pending.catch(() => loaded.delete(path));
    }
    pending.then(
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
      {schema.description ? <p className="field-description">{schema.description}</p> : null}
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
  useEffect(() => {
    if (first !== undefined && (formData === undefined || formData === "")) onChange(first, fieldPathId.path);
  }, [first, formData, onChange, fieldPathId]);
}

/** The GA4 property: a select of the properties the chosen Google account can see. */
export function PropertyField(props: FieldProps) {
  const { account } = context(props);
  const { value, failed } = useLoaded<Choices>(`/console/api/google/summaries?${query(account)}`);
  const groups = value?.accounts.filter((group) => group.properties.length > 0) ?? [];
  useFirstChoice(props, groups[0]?.properties[0]?.id);
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

/** One metric or dimension name, with the property's names offered as the person types. */
export function FieldNameField(props: FieldProps) {
  const { account, property } = context(props);
  const kind = props.uiSchema?.["ui:options"]?.kind === "dimension" ? "dimensions" : "metrics";
  const path = property
    ? `/console/api/google/metadata?${query(account)}&property=${encodeURIComponent(property)}`
    : undefined;
  const { value } = useLoaded<Fields>(path);
  const names = value?.[kind] ?? [];
  const id = props.fieldPathId.$id;
  const index = Number(/_(\d+)$/.exec(id)?.[1] ?? 0);
  const chosen = names.find((choice) => choice.apiName === props.formData);
  return (
    <div className="picker">
      <label htmlFor={id} className="control-label">
        {props.schema.title ?? props.name} {index + 1}
      </label>
      <input
        id={id}
        type="text"
        className="form-control"
        list={`${id}-names`}
        autoComplete="off"
        value={typeof props.formData === "string" ? props.formData : ""}
        disabled={props.disabled || props.readonly}
        onChange={(event) => props.onChange(event.target.value || undefined, props.fieldPathId.path)}
      />
      <datalist id={`${id}-names`}>
        {names.map((choice) => (
          <option key={choice.apiName} value={choice.apiName}>
            {choice.uiName}
          </option>
        ))}
      </datalist>
      {chosen ? (
        <p className="field-note" data-testid={`${id}-about`}>
          <b>{chosen.uiName}</b>: {chosen.description}
        </p>
      ) : null}
    </div>
  );
}
