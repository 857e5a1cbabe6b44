import type { Cluster } from "ioredis";
import { NetworkError } from "../errors.js";

/** The most readiness waits for one master: /readyz gives each check 2 s, and it must say what is wrong. */
const NODE_ANSWER_MS = 1_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer")), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether a Redis Cluster is whole, in words for /readyz: every master this client knows answers, and
 * the cluster says `cluster_state:ok` (CLUSTER INFO, https://redis.io/docs/latest/commands/cluster-info/).
 * A PING of the cluster alone reaches one node: with a master stopped, the others still answer, and the
 * calls whose keys hash to the stopped master's slots fail. A master stopped (SIGSTOP, a partition) is
 * seen at once here; the other masters say `cluster_state:fail` only once they mark it failed
 * (cluster-node-timeout). Rejects with a NetworkError whose `details.readiness` says what is wrong: how
 * many masters answer and the state the others report, never a node's address.
 */
export async function checkClusterWhole(cluster: Cluster): Promise<void> {
  const masters = cluster.nodes("master");
  const infos = await Promise.allSettled(
    masters.map((node) => within(node.cluster("INFO") as Promise<string>, NODE_ANSWER_MS)),
  );
  const answered = infos.flatMap((info) => (info.status === "fulfilled" ? [String(info.value)] : []));
  const states = new Set(answered.map((info) => /cluster_state:(\w+)/.exec(info)?.[1] ?? "unknown"));
  const silent = masters.length - answered.length;
  if (masters.length > 0 && silent === 0 && states.size === 1 && states.has("ok")) return;
  const words = [
    masters.length === 0 ? "no master known" : `${answered.length} of ${masters.length} masters answer`,
    ...(states.size > 0 ? [`cluster_state ${[...states].sort().join("/")}`] : []),
  ].join(", ");
  throw new NetworkError(`The Redis Cluster is not whole: ${words}.`, {
    hint: "Bring the stopped masters back (or let their replicas take over); calls whose keys live on them fail until then.",
    details: { readiness: words },
    retryable: true,
  });
}
