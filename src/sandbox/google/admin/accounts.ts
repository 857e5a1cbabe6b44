/** Accounts and account summaries: only what the caller holds a role on is visible. */
import type { TokenOwner } from "../types.js";
import type { WorldAccount } from "../world.js";
import { type AdminRequest, authorize, requireAccountRole } from "./context.js";
import { listBody, paginate, showDeleted } from "./paging.js";

function accountJson(account: WorldAccount): Record<string, unknown> {
  // `deleted` is false for every sandbox account, and proto3 JSON omits false booleans.
  return {
    name: `accounts/${account.id}`,
    createTime: account.createTime,
    updateTime: account.updateTime,
    displayName: account.displayName,
    regionCode: account.regionCode,
  };
}

function visibleAccounts(r: AdminRequest, caller: TokenOwner): WorldAccount[] {
  return r.ctx.world.accounts().filter((a) => r.ctx.world.roleOf(caller.email, a.id) !== undefined);
}

export function listAccounts(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r.ctx, r.req, "ListAccounts", false);
  const page = paginate(visibleAccounts(r, caller), r.url, `accounts|${showDeleted(r.url)}`);
  return listBody("accounts", { ...page, items: page.items.map(accountJson) });
}

export function getAccount(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r.ctx, r.req, "GetAccount", false);
  return accountJson(requireAccountRole(r.ctx, caller, r.params.account ?? "", "viewer"));
}

export function listAccountSummaries(r: AdminRequest): Record<string, unknown> {
  const caller = authorize(r.ctx, r.req, "ListAccountSummaries", false);
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
