/**
 * Run by `npm start` or `npm run sandbox`, this process is the child of the `sh -c` npm runs the script
 * in. Ctrl-C reaches the whole process group, but a SIGTERM sent to npm alone (a process supervisor,
 * `kill <pid>`) ends npm without passing it on (https://github.com/npm/cli/issues/6684), so the server
 * would run on, orphaned, holding its port. Under npm only, the process therefore watches its parent and
 * stops as on SIGTERM when the parent is gone (its parent id changes once it is re-parented). Elsewhere
 * nothing is watched: a server started directly may outlive its shell on purpose (nohup, a supervisor).
 */

/** How often the parent is checked: a stop within about a second of npm's. */
const CHECK_MS = 1_000;

export function stopWhenNpmParentExits(stop: () => void, env: NodeJS.ProcessEnv = process.env): void {
  if (!env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, CHECK_MS);
  // The check never keeps the process alive on its own.
  timer.unref();
}
