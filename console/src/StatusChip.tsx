/** A connection card's state as a chip (console/src/chip-state.ts). */
import { CHIP_WORDS, type ChipState } from "./chip-state.ts";

export { type ChipState, chipState } from "./chip-state.ts";

export function StatusChip({ state }: { state: ChipState }) {
  return (
    <span className={`chip chip-${state}`} data-testid="status-chip">
      {CHIP_WORDS[state]}
    </span>
  );
}
