/**
 * The shape every collection under a property shares (keyEvents, conversionEvents, customDimensions,
 * customMetrics, dataStreams, googleAdsLinks, firebaseLinks): list (paged, AIP-158), get, and delete or
 * archive, each authorizing the RPC (viewer to read, editor to change) before it looks the resource up,
 * and a 404 NOT_FOUND for an id the property does not hold. A kind says where its items are and how one
 * looks on the wire; its create and patch keep their own field rules.
 */
import { notFound, parseJsonObject } from "../http.js";
import type { WorldProperty } from "../model.js";
import type { GoogleWorld } from "../world.js";
import { type AdminRequest, authorize, requireProperty } from "./context.js";
import { listBody, paginate } from "./paging.js";
import { rejectUnknownFields } from "./validate.js";

type Handler = (r: AdminRequest) => Record<string, unknown>;

export interface PropertyResourceKind<T extends { id: string }> {
  /** The collection in paths, list bodies and page tokens: "customDimensions". */
  collection: string;
  /** The RPC nouns, singular and plural: ["CustomDimension", "CustomDimensions"]. */
  rpc: readonly [string, string];
  /** The path parameter that names one: "customDimension". */
  param: string;
  items(world: GoogleWorld, propertyId: string): readonly T[];
  json(item: T): Record<string, unknown>;
}

export class PropertyResources<T extends { id: string }> {
  constructor(readonly kind: PropertyResourceKind<T>) {}

  /** The caller's property for `rpc`: viewer to read, editor to change. */
  property(r: AdminRequest, rpc: string, write: boolean): WorldProperty {
    const caller = authorize(r, rpc, write);
    return requireProperty(r.ctx, caller, r.params.property ?? "", write ? "editor" : "viewer");
  }

  /** The resource the path names in the property; 404 otherwise. */
  find(r: AdminRequest, propertyId: string): T {
    const id = r.params[this.kind.param];
    const found = this.kind.items(r.ctx.world, propertyId).find((item) => item.id === id);
    if (!found) throw notFound();
    return found;
  }

  readonly list: Handler = (r) => {
    const { collection, rpc } = this.kind;
    const property = this.property(r, `List${rpc[1]}`, false);
    const page = paginate(this.kind.items(r.ctx.world, property.id), r.url, `${collection}|${property.id}`);
    return listBody(collection, { ...page, items: page.items.map((item) => this.kind.json(item)) });
  };

  readonly get: Handler = (r) =>
    this.kind.json(this.find(r, this.property(r, `Get${this.kind.rpc[0]}`, false).id));

  /**
   * Delete (`Delete<Kind>`, no body) or archive (`rpc` given with the request message `bodyName`, which
   * must be empty): `remove` drops the item once `check` (a refusal, thrown) lets it go. Answers `{}`.
   */
  removal(
    remove: (world: GoogleWorld, propertyId: string, item: T) => void,
    options: { rpc?: string; bodyName?: string; check?: (item: T) => void } = {},
  ): Handler {
    return (r) => {
      const caller = authorize(r, options.rpc ?? `Delete${this.kind.rpc[0]}`, true);
      if (options.bodyName) rejectUnknownFields(parseJsonObject(r.body), [], options.bodyName);
      const property = requireProperty(r.ctx, caller, r.params.property ?? "", "editor");
      const item = this.find(r, property.id);
      options.check?.(item);
      remove(r.ctx.world, property.id, item);
      return {};
    };
  }
}
