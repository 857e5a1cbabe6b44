import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "./free-port.js";

/** A redis-server of the test's own, on a free loopback port, that the test may freeze (SIGSTOP). */
export interface RedisProcess {
  url: string;
  /** Stops the process as a network partition looks: connections are accepted, nothing answers. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      if (/Ready to accept connections/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => signal("SIGSTOP"),
    thaw: () => signal("SIGCONT"),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        signal("SIGCONT");
        signal("SIGKILL");
      }),
  };
}
