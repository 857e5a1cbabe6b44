/**
 * A connection's state in one word on its card (trial s5, finding 8: no "Connected" before a test):
 * Connected when a test or a read through it worked, Needs attention when one failed or it is not set
 * up, Not tested when nothing has been tried since this server started.
 */
export type ChipState = "connected" | "attention" | "untested";

export const CHIP_WORDS: Record<ChipState, string> = {
  connected: "Connected",
  attention: "Needs attention",
  untested: "Not tested",
};

/** The state from what is known: a failure wins, then a success; neither is "not tested". */
export function chipState(tries: readonly (boolean | undefined)[]): ChipState {
  if (tries.includes(false)) return "attention";
  return tries.includes(true) ? "connected" : "untested";
}
