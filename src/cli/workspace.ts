import type { LostDocument, WorkspaceSecrets } from "../auth/credential-store.js";
import { type AnyRoom, CONNECTION_KINDS, CONNECTION_ROOMS } from "../connections/registry.js";
import { DEFAULT_WORKSPACE, Workspace, type WorkspaceOptions } from "../workspace.js";

/**
 * Runs one CLI command with a workspace and always closes it: with REDIS_URL set, an open Redis
 * connection would otherwise keep a finished command from exiting.
 */
export async function withWorkspace<T>(
  name: string | undefined,
  command: (workspace: Workspace) => Promise<T>,
  base: Omit<WorkspaceOptions, "name"> = {},
): Promise<T> {
  const workspace = new Workspace({ ...base, name: name ?? DEFAULT_WORKSPACE });
  try {
    return await command(workspace);
  } finally {
    await workspace.close();
  }
}

/** What a workspace's store holds, each room's in its words ("Marketo", ...), in registry order. */
const STORED = CONNECTION_KINDS.map((kind) => (CONNECTION_ROOMS[kind] as AnyRoom).cli.stored);

/** Says, on stderr, that a workspace started over from an empty store and where the old one is. */
export function reportLost(workspace: string, lost: Pick<LostDocument, "reason" | "why" | "keptAt">): void {
  const undo =
    lost.reason === "wrong_key"
      ? `To undo, restore the key it was written with and move ${lost.keptAt} back.`
      : "Configure them again.";
  process.stderr.write(
    `warning: the credential store of workspace "${workspace}" could not be opened (${lost.why}); it is kept at ` +
      `${lost.keptAt}. The workspace starts over from an empty store: the other connections it held ` +
      `(${STORED.join(", ")}) are lost. ${undo}\n`,
  );
}

/**
 * For the commands that must work on a store that cannot be opened (remove, configure --force):
 * applies the change, starting over from an empty document when the old one is unreadable.
 */
export async function updateOrStartOver(
  workspace: Workspace,
  change: (current: WorkspaceSecrets) => WorkspaceSecrets,
): Promise<WorkspaceSecrets> {
  const store = workspace.store;
  if (!store.updateOrStartOver) return store.update(workspace.name, change);
  const { secrets, lost } = await store.updateOrStartOver(workspace.name, change);
  if (lost) reportLost(workspace.name, lost);
  return secrets;
}
