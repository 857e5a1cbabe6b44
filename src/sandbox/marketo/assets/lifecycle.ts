/**
 * The lifecycle kit of the Asset API's versioned assets: emails, email templates, landing pages, forms
 * and snippets share it ("Emails, landing pages, snippets, forms, and their templates use a draft and
 * approval system", https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/assets
 * "Approval"). An asset has an approved version, a draft, or both; a kind says how its versions look
 * (`copy`, `json`), where the World keeps it (`store`) and what each operation answers.
 *
 * - Every update lands in the draft; an approved asset without one gets a draft copied from its
 *   approved version first: "Updates always apply to the draft and become live only after approval"
 *   (https://experienceleague.adobe.com/en/docs/marketo-developer/marketo/rest/assets/forms "Approval";
 *   landing-pages "Approval"; email-templates "Updating an approved version creates a new draft").
 *   The name is the asset's, shared by both versions (it is what byName finds; inferred).
 * - approveDraft makes the draft the approved version ("the draft replaces the live version and the
 *   draft state is cleared", assets "Approval"); 709 without a draft.
 * - unapprove turns the approved version into the draft and drops a pending one ("Unapproving removes
 *   the live version, returns the asset to a draft-only state, and discards any associated draft");
 *   709 when not approved.
 * - discardDraft drops the draft of an approved asset; 709 without a draft, or without an approved
 *   version ("You can delete a draft-only asset, but you cannot discard its draft").
 * - delete: "Except for forms, assets with approval and draft states must be unapproved before
 *   deletion" (assets "Delete"; landing-pages "Delete": "ensure that it is not approved"): 709.
 * - clone: a draft copied from the approved version, else from the draft ("If the source email has no
 *   approved version, the endpoint clones the draft version", emails "Clone"; snippets "Clone").
 *
 * What each operation answers is its Swagger response (asset.swagger.json): the record of the type
 * (ResponseOf<Type>Response) or its id (ResponseOfIdResponse), per kind in `answers`; discardDraft and
 * delete answer the id for every type. The 709 wording is inferred (error-codes.md: "business rule
 * violation").
 */

import {
  type ApiRequest,
  type HandlerContext,
  type HandlerResult,
  MarketoApiError,
  type World,
} from "../types.js";
import { required, toInt } from "../wire/params.js";
import { NO_ASSETS, offsetPage } from "./paging.js";

export type Status = "approved" | "draft";

/** What every kind's version holds (the description is versioned: every type's update request has it). */
export interface Version {
  description: string;
  updatedAt: number;
}

export interface VersionedAsset<V extends Version> {
  id: number;
  name: string;
  approved?: V;
  draft?: V;
}

/** An operation's answer: the whole record, or `[{id}]`. */
export type Answer = "record" | "id";

export interface AssetKind<A extends VersionedAsset<V>, V extends Version> {
  /** The noun of refusals: "Form", "Landing page". */
  noun: string;
  /** The Asset API path segment (`landingPage`), for the hints refusals give. */
  path: string;
  /** The World's list of this kind, edited in place. */
  store(world: World): A[];
  /** A copy of a version that shares nothing mutable with it. */
  copy(version: V): V;
  /** The record as the type's Swagger response shows it, seen at one version. */
  json(ctx: HandlerContext, asset: A, status: Status, version: V): Record<string, unknown>;
  /** What approveDraft and unapprove answer (the type's Swagger responses; no unapprove: none in it). */
  answers: { approve: Answer; unapprove?: Answer };
  /** Whether delete refuses an approved asset (all kinds but forms, assets "Delete"). */
  unapproveBeforeDelete: boolean;
  /** Names are unique within this key (emails: their program); absent: in the instance. */
  scope?(asset: A): number;
  /** Refusals of an asset other assets use, before unapprove or delete (thrown MarketoApiError). */
  inUse?: {
    unapprove?(ctx: HandlerContext, asset: A): void;
    delete?(ctx: HandlerContext, asset: A): void;
  };
}

/** `status=approved|draft`, or undefined when absent; 1003 otherwise. */
export function statusParam(params: URLSearchParams): Status | undefined {
  const raw = params.get("status");
  if (raw === null || raw === "") return undefined;
  if (raw !== "approved" && raw !== "draft")
    throw new MarketoApiError("1003", `Invalid value '${raw}' for status, must be approved or draft`);
  return raw;
}

/** The version a read sees: the requested one, else the approved one, else the draft. */
export function pick<V extends Version>(
  asset: VersionedAsset<V>,
  status: Status | undefined,
): { status: Status; v: V } | undefined {
  if (status !== "draft" && asset.approved) return { status: "approved", v: asset.approved };
  if (status !== "approved" && asset.draft) return { status: "draft", v: asset.draft };
  return undefined;
}

const idAnswer = (asset: { id: number }): HandlerResult => ({ result: [{ id: asset.id }] });

/** One kind's lifecycle: its reads, its edits and the five operations every versioned asset has. */
export class Lifecycle<A extends VersionedAsset<V>, V extends Version> {
  constructor(readonly kind: AssetKind<A, V>) {}

  find(ctx: HandlerContext, rawId: string | undefined): A | undefined {
    const id = toInt(rawId ?? "", "id");
    return this.kind.store(ctx.world).find((a) => a.id === id);
  }

  /** The asset, or 702 (the Asset API's "not found"). */
  get(ctx: HandlerContext, rawId: string | undefined): A {
    const asset = this.find(ctx, rawId);
    if (!asset) throw new MarketoApiError("702", `${this.kind.noun} ${rawId ?? ""} not found`);
    return asset;
  }

  /** The record at the version a plain read sees (approved, else draft). */
  current(ctx: HandlerContext, asset: A): HandlerResult {
    const seen = pick(asset, undefined);
    return seen ? { result: [this.kind.json(ctx, asset, seen.status, seen.v)] } : { result: [] };
  }

  /** The record at its newest version (the draft, else the approved one): what an update answers. */
  latest(ctx: HandlerContext, asset: A): HandlerResult {
    if (!asset.draft) return this.current(ctx, asset);
    return { result: [this.kind.json(ctx, asset, "draft", asset.draft)] };
  }

  /** The draft an update writes to: the existing one, else a copy of the approved version. */
  edit(asset: A, now: number, change: (draft: V) => void = () => {}): V {
    const draft = asset.draft ?? this.kind.copy(asset.approved as V);
    change(draft);
    draft.updatedAt = now;
    asset.draft = draft;
    return draft;
  }

  /** 709 when another asset of the kind has the name in the scope (`scope`: the new asset's key). */
  uniqueName(ctx: HandlerContext, name: string, except?: A, scope?: number): void {
    const key = this.kind.scope;
    const within = except && key ? key(except) : scope;
    const taken = this.kind
      .store(ctx.world)
      .some((a) => a !== except && a.name === name && (!key || key(a) === within));
    if (taken)
      throw new MarketoApiError(
        "709",
        `${this.kind.noun} name '${name}' is already in use${key ? ` in its folder` : ""}`,
      );
  }

  /** A `name` parameter renames the asset (both versions). */
  rename(ctx: HandlerContext, asset: A, params: URLSearchParams): void {
    const name = params.get("name");
    if (name === null || name === "" || name === asset.name) return;
    this.uniqueName(ctx, name, asset);
    asset.name = name;
  }

  /** The changes an update gives, written to the draft (none given: no draft is made). */
  revise(ctx: HandlerContext, asset: A, changes: Partial<V>): void {
    if (Object.keys(changes).length > 0) this.edit(asset, ctx.now(), (d) => Object.assign(d, changes));
  }

  /** The first version of a clone: a copy of the approved version, else of the draft; `description` may replace its own. */
  cloneVersion(source: A, now: number, params: URLSearchParams): V {
    const version = { ...this.kind.copy((source.approved ?? source.draft) as V), updatedAt: now };
    const description = params.get("description");
    if (description !== null) version.description = description;
    return version;
  }

  /** Stores a new asset and answers its record. */
  add(ctx: HandlerContext, asset: A): HandlerResult {
    this.kind.store(ctx.world).push(asset);
    return this.current(ctx, asset);
  }

  /** Browse, optionally narrowed (by folder, by update time), paged by offset/maxReturn. */
  browse(filter?: (req: ApiRequest, ctx: HandlerContext) => (asset: A, version: V) => boolean) {
    return (req: ApiRequest, ctx: HandlerContext): HandlerResult => {
      const status = statusParam(req.params);
      const keep = filter?.(req, ctx) ?? (() => true);
      const rows = this.kind.store(ctx.world).flatMap((asset) => {
        const seen = pick(asset, status);
        return seen && keep(asset, seen.v) ? [this.kind.json(ctx, asset, seen.status, seen.v)] : [];
      });
      return offsetPage(req, rows, (row) => row);
    };
  }

  private seenAt(ctx: HandlerContext, asset: A | undefined, req: ApiRequest): HandlerResult {
    const seen = asset && pick(asset, statusParam(req.params));
    return asset && seen
      ? { result: [this.kind.json(ctx, asset, seen.status, seen.v)] }
      : { warnings: [NO_ASSETS] };
  }

  readonly byId = (req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult =>
    this.seenAt(ctx, this.find(ctx, id), req);

  readonly byName = (req: ApiRequest, ctx: HandlerContext): HandlerResult => {
    const name = required(req.params, "name");
    return this.seenAt(
      ctx,
      this.kind.store(ctx.world).find((a) => a.name === name),
      req,
    );
  };

  readonly approve = (_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult => {
    const asset = this.get(ctx, id);
    if (!asset.draft)
      throw new MarketoApiError("709", `${this.kind.noun} ${asset.id} has no draft to approve`);
    asset.approved = { ...asset.draft, updatedAt: ctx.now() };
    asset.draft = undefined;
    return this.kind.answers.approve === "id" ? idAnswer(asset) : this.current(ctx, asset);
  };

  readonly unapprove = (_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult => {
    const asset = this.get(ctx, id);
    if (!asset.approved) throw new MarketoApiError("709", `${this.kind.noun} ${asset.id} is not approved`);
    this.kind.inUse?.unapprove?.(ctx, asset);
    asset.draft = { ...asset.approved, updatedAt: ctx.now() };
    asset.approved = undefined;
    return this.kind.answers.unapprove === "id" ? idAnswer(asset) : this.current(ctx, asset);
  };

  readonly discardDraft = (_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult => {
    const asset = this.get(ctx, id);
    const { noun, path } = this.kind;
    if (!asset.draft) throw new MarketoApiError("709", `${noun} ${asset.id} has no draft to discard`);
    if (!asset.approved)
      throw new MarketoApiError(
        "709",
        `${noun} ${asset.id} has only a draft, which cannot be discarded: delete it instead (${path}/${asset.id}/delete.json)`,
      );
    asset.draft = undefined;
    return idAnswer(asset);
  };

  readonly remove = (_req: ApiRequest, ctx: HandlerContext, [id]: string[]): HandlerResult => {
    const asset = this.get(ctx, id);
    const { noun, path } = this.kind;
    this.kind.inUse?.delete?.(ctx, asset);
    if (this.kind.unapproveBeforeDelete && asset.approved)
      throw new MarketoApiError(
        "709",
        `${noun} ${asset.id} is approved: unapprove it first (${path}/${asset.id}/unapprove.json), then delete it`,
      );
    const store = this.kind.store(ctx.world);
    store.splice(store.indexOf(asset), 1);
    return idAnswer(asset);
  };
}
