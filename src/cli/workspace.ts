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
