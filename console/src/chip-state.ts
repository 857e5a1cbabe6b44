/**
 * A connection's state in one word on its card (trial s5, finding 8: no "Connected" before a test):
 * Connected when the latest test or read through it worked, Needs attention when the latest one failed
 * (or it is not set up: the card says so itself), "Set up, not tested yet" when nothing has been tried
 * since this server started (trial s7, finding 12: a grey "Not tested" beside a green "Connected" for the
 * same situation read as two rules; a card whose chip is Connected through a read, not a Test, says so on
 * its last test's line). The latest decides: a test that failed and a property list read after it that worked
 * mean the connection works now (issue 28: the chip stayed on Needs attention). Marketo's calls answered since
 * the server started count as reads (trial s10, finding 5: "Set up, not tested yet" after 21 calls).
 */
export type ChipState = "connected" | "attention" | "untested";

export const CHIP_WORDS: Record<ChipState, string> = {
  connected: "Connected",
  attention: "Needs attention",
  untested: "Set up, not tested yet",
};

/** A test or read through the connection: whether it worked, and when the page learned it (its own clock). */
export interface Try {
  ok: boolean;
  at: number;
}

/** The state from what is known: the latest try (a failure, when two are as late); none is "not tested". */
export function chipState(tries: readonly (Try | undefined)[]): ChipState {
  let latest: Try | undefined;
  for (const one of tries) {
    if (!one) continue;
    if (!latest || one.at > latest.at || (one.at === latest.at && !one.ok)) latest = one;
  }
  if (!latest) return "untested";
  return latest.ok ? "connected" : "attention";
}
