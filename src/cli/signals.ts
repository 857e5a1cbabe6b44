/**
 * The CLI's signal handling. `first` runs on the first of the signals; a second one ends the process
 * as the signal would (a second Ctrl-C stops a stuck cleanup).
 *
 * `on`, not `once`: the credential store's file lock loads proper-lockfile on its first write, and with it
 * signal-exit, whose listener re-raises the signal when it is the last listener left
 * (https://github.com/tapjs/signal-exit/blob/v3.0.7/index.js#L109-L135). A `once` listener is removed
 * before it runs, so signal-exit, loaded after it, would kill the process before the cleanup finished.
 */
export function onSignals(signals: readonly NodeJS.Signals[], first: (signal: NodeJS.Signals) => void): void {
  let seen = false;
  const listener = (signal: NodeJS.Signals) => {
    if (!seen) {
      seen = true;
      first(signal);
      return;
    }
    for (const each of signals) process.off(each, listener);
    process.kill(process.pid, signal);
  };
  for (const each of signals) process.on(each, listener);
}
