import { StoreLostError } from "../errors.js";
import type { CredentialStore } from "./store-core.js";

/** A store that can tell which documents it has seen are gone (the Redis store). */
interface TracksDocuments {
  missingDocuments(): Promise<string[]>;
}

function tracksDocuments(store: CredentialStore): store is CredentialStore & TracksDocuments {
  return typeof (store as Partial<TracksDocuments>).missingDocuments === "function";
}

/**
 * What readiness means for the credential store: it opens as a request would (the key, the file or
 * Redis, the workspace's document), and no workspace whose credentials this process has seen has lost
 * them since. A Redis that comes back empty answers PING and reads as "nothing configured", so without
 * the second check a load balancer kept sending every call to a replica that could only fail it.
 */
export async function credentialStoreReady(store: CredentialStore, workspace: string): Promise<void> {
  await store.read(workspace);
  if (!tracksDocuments(store)) return;
  const missing = await store.missingDocuments();
  if (missing.length === 0) return;
  throw new StoreLostError(
    `The credential store no longer holds the documents of ${missing.length} workspace(s) this server has used: ${missing.slice(0, 5).join(", ")}.`,
    {
      hint: "Redis lost its data (a restart without persistence, a flush, a failover): configure the workspaces again, or restore Redis.",
    },
  );
}
