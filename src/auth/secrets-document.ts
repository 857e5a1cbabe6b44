/**
 * The stored document's types, with no imports: the store (store-core.ts), the rooms' parts list
 * (secrets-parts.ts) and each room's part (src/auth/<service>/stored.ts) all read them, and none of them
 * may import the others in a loop.
 */

/**
 * Everything secret a workspace holds, stored as one encrypted document. Each connection room adds its
 * own part by declaration merging (`src/connections/<service>/secrets.ts`), and its default and shape
 * check through SECRETS_PARTS (secrets-parts.ts), so a new service changes nothing here.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the connection rooms' declaration merging.
export interface WorkspaceSecrets {}

/** What a room's stored part contributes to every store. */
export interface SecretsPart {
  /** The part in a new workspace's document (merged into emptySecrets()). */
  empty(): Partial<WorkspaceSecrets>;
  /** Whether a decrypted document's part has the stored shape: a document where one has not is damaged. */
  valid(document: object): boolean;
  /** The opened document with this part copied or defaulted (applied in list order). */
  opened(secrets: WorkspaceSecrets): WorkspaceSecrets;
  /**
   * The CLI command that writes this part over a store that cannot be opened (keeping the old file
   * aside), with `flag` the workspace option or "": what a StoreUnreadableError offers to start over.
   */
  startOver?(flag: string): string;
}
