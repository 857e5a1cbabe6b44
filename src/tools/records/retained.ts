/** The records count_by counted, kept beside its count rows when keep_counted asks (records/compute.ts). */
import { itemBytes } from "../../json-size.js";
import type { FullResultsOffer } from "../types.js";

type Row = Record<string, unknown>;

/** keep_counted: a compute with count_by keeps the records it counts, where results are kept (compute-answer.ts). */
export function keepCounted(
  asked: boolean | undefined,
  ctx: { fullResults?: FullResultsOffer | undefined },
  compute: { spec: { countBy?: readonly string[] }; retained: Retained | undefined } | undefined,
): void {
  if (asked && ctx.fullResults && compute?.spec.countBy)
    compute.retained ??= new Retained(ctx.fullResults.maxBytes);
}

/** Records held up to a size as JSON; past it, none (a part would pass for the whole). */
export class Retained {
  rows: Row[] | undefined = [];
  #bytes = 0;
  readonly #max: number;
  constructor(max: number) {
    this.#max = max;
  }
  add(record: Readonly<Row>): void {
    if (!this.rows) return;
    // UTF-8 bytes, as the kept result measures them (review s53, 9: characters let non-ASCII records pass, then fail).
    this.#bytes += itemBytes(record);
    if (this.#bytes > this.#max) this.rows = undefined;
    else this.rows.push(record as Row);
  }
}
