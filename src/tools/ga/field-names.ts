/**
 * The names a request uses, checked against the property's field list before any report quota is spent.
 * The connector keeps that list a while (a property's fields change rarely), so a custom dimension made a
 * moment ago may be missing from it: before a name is refused, the list is read again (the connector does
 * so at most once per 30 s per property), and the refusal, if any, is made on the list as it is now.
 */
import type { ConnectorOf } from "../../connections/registry.js";
import { FieldCatalog, type NameProblem, throwNameProblems } from "./field-catalog.js";

type Trusted = ConstructorParameters<typeof FieldCatalog>[1];

/** The property's catalog once every name `problemsIn` checks is in it; else a ValidationError naming them. */
export async function checkedCatalog(
  ga: ConnectorOf<"google">,
  propertyId: string,
  signal: AbortSignal | undefined,
  problemsIn: (catalog: FieldCatalog) => NameProblem[],
  trusted: Trusted = {},
): Promise<FieldCatalog> {
  let catalog = new FieldCatalog(await ga.getMetadata(propertyId, signal), trusted);
  let problems = problemsIn(catalog);
  if (problems.length > 0) {
    const fresh = await ga.refreshMetadata(propertyId, signal);
    if (fresh) {
      catalog = new FieldCatalog(fresh, trusted);
      problems = problemsIn(catalog);
    }
  }
  throwNameProblems(problems, catalog.realtime);
  return catalog;
}
