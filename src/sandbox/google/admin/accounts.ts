/**
 * Accounts and account summaries: only what the caller holds a role on is visible. PATCH changes the
 * display name and region (updateMask required, snake_case); DELETE moves the account to the trash can
 * and answers Empty (analyticsadmin v1beta accounts.delete): it is then `deleted: true`, left out of
 * lists unless showDeleted=true, and can no longer be changed. Its properties go to the trash with it
 * ("the account and all child resources (eg: Properties …) will be permanently purged", accounts.delete;
 * https://support.google.com/analytics/answer/6154772), and it takes no new ones.
 */
import { invalidArgument, parseJsonObject } from "../http.js";
import type { WorldAccount } from "../model.js";
import type { TokenOwner } from "../types.js";
import { type AdminRequest, authorize, iso, requireAccountRole, requireLiveAccount } from "./context.js";
import { listBody, paginate, showDeleted } from "./paging.js";
import { trashProperty } from "./properties.js";
import { optionalString, parseUpdateMask, rejectUnknownFields, requireNonEmpty } from "./validate.js";

const ACCOUNT_FIELDS = [
  "name",
  "createTime",
  "updateTime",
  "displayName",
  "regionCode",
  "deleted",
  "gmpOrganization",
];

function accountJson(account: WorldAccount): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: `accounts/${account.id}`,
    createTime: account.createTime,
    updateTime: account.updateTime,
    displayName: account.displayName,
    regionCode: account.regionCode,
  };
  // proto3 JSON omits false booleans, so `deleted` appears only on trashed accounts.
  if (account.deleted) json.deleted = true;
  return json;
}

function visibleAccounts(r: AdminRequest, caller: TokenOwner, withDeleted = false): WorldAccount[] {
  return r.ctx.world
    .accounts()
    .filter((a) => r.ctx.world.roleOf(caller.email, a.id) !== undefined && (withDeleted || !a.deleted));
}

export function listAccounts(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "ListAccounts", false);
  const withDeleted = showDeleted(r.url);
  const page = paginate(visibleAccounts(r, caller, withDeleted), r.url, `accounts|${withDeleted}`);
  return listBody("accounts", { ...page, items: page.items.map(accountJson) });
}

export function getAccount(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "GetAccount", false);
  return accountJson(requireAccountRole(r.ctx, caller, r.params.account ?? "", "viewer"));
}

export function listAccountSummaries(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "ListAccountSummaries", false);
  const summaries = visibleAccounts(r, caller).map((account) => {
    const properties = r.ctx.world
      .propertiesOf(account.id)
      .filter((p) => !p.deleted)
      .map((p) => ({
        property: `properties/${p.id}`,
        displayName: p.displayName,
        propertyType: "PROPERTY_TYPE_ORDINARY",
        parent: `accounts/${account.id}`,
      }));
    const summary: Record<string, unknown> = {
      name: `accountSummaries/${account.id}`,
      account: `accounts/${account.id}`,
      displayName: account.displayName,
    };
    if (properties.length > 0) summary.propertySummaries = properties;
    return summary;
  });
  const page = paginate(summaries, r.url, "accountSummaries");
  return listBody("accountSummaries", page);
}

export function patchAccount(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "UpdateAccount", true);
  const account = requireLiveAccount(r.ctx, caller, r.params.account ?? "", "administrator");
  const mask = parseUpdateMask(
    r.url,
    ["display_name", "region_code"],
    ["name", "create_time", "update_time", "deleted", "gmp_organization"],
  );
  const json = parseJsonObject(r.body);
  rejectUnknownFields(json, ACCOUNT_FIELDS, "account");
  const displayName = mask.has("display_name")
    ? requireNonEmpty(
        optionalString(json, "displayName", "account"),
        "displayName",
        "give the account a name.",
      )
    : account.displayName;
  const regionCode = mask.has("region_code")
    ? (optionalString(json, "regionCode", "account") ?? "")
    : account.regionCode;
  // "Country of business. Must be a Unicode CLDR region code" (two letters, e.g. "US").
  if (!/^[A-Z]{2}$/.test(regionCode)) {
    throw invalidArgument(
      `regionCode "${regionCode}" is not a Unicode CLDR region code such as "US" or "FR".`,
    );
  }
  account.displayName = displayName;
  account.regionCode = regionCode;
  account.updateTime = iso(r.ctx.now());
  return accountJson(account);
}

export function deleteAccount(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r, "DeleteAccount", true);
  const account = requireLiveAccount(r.ctx, caller, r.params.account ?? "", "administrator");
  account.deleted = true;
  const now = r.ctx.now();
  // A property trashed earlier keeps its own deleteTime and expireTime.
  for (const property of r.ctx.world.propertiesOf(account.id))
    if (!property.deleted) trashProperty(property, now);
  return {};
}
