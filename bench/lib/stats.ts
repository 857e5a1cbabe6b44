/** Statistics of the bench: medians of interleaved repeats, each a ratio to a floor measured in the same run. */

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** The p-th percentile (0..1) of a sample, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** One repeat's figure for each side. */
export interface Pair {
  ours: number;
  floor: number;
}

/**
 * Runs `repeats` pairs, alternating which side goes first (ours-floor, floor-ours, …) so drift in the
 * machine's load falls on both sides alike. Each repeat gives a ratio ours / floor.
 */
export async function interleaved(
  repeats: number,
  ours: () => Promise<number>,
  floor: () => Promise<number>,
): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i < repeats; i++) {
    if (i % 2 === 0) {
      const o = await ours();
      const f = await floor();
      pairs.push({ ours: o, floor: f });
    } else {
      const f = await floor();
      const o = await ours();
      pairs.push({ ours: o, floor: f });
    }
  }
  return pairs;
}

/** What a row of the table reports. */
export interface Row {
  name: string;
  /** Unit of `ours` and `floor` (ms, records/s, MB, %…). */
  unit: string;
  ours: Spread;
  floor: Spread;
  /** ours / floor per repeat (×), or the share of the floor reached (%). */
  ratio: Spread;
  ratioUnit: "×" | "%";
  /** The goal on the ratio's median, e.g. "≤ 1.15×" or "≥ 97%". */
  goal: string;
  met: boolean;
  /** What the floor is (raw fetch, the SDK's minimal server, one window per wave of a burst). */
  floorName: string;
  note?: string;
}

export function ratioRow(
  base: Omit<Row, "ours" | "floor" | "ratio" | "ratioUnit" | "met" | "goal">,
  pairs: readonly Pair[],
  maxRatio: number,
): Row {
  return {
    ...base,
    ours: spread(pairs.map((p) => p.ours)),
    floor: spread(pairs.map((p) => p.floor)),
    ratio: spread(pairs.map((p) => p.ours / p.floor)),
    ratioUnit: "×",
    goal: `≤ ${maxRatio.toFixed(2)}×`,
    met: spread(pairs.map((p) => p.ours / p.floor)).median <= maxRatio,
  };
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

export function formatSpread(s: Spread, digits = 2): string {
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}

/** The table as Markdown: what docs/benchmarks.md records. */
export function markdownTable(rows: readonly Row[]): string {
  const lines = [
    "| what | ours, median (min–max) | floor, median (min–max) | ratio, median (min–max) | goal | met |",
    "|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const digits = row.unit === "ms" ? (row.ours.median >= 100 ? 0 : 2) : row.unit === "MB" ? 1 : 0;
    const ratio = row.ratioUnit === "%" ? `${formatSpread(row.ratio, 1)} %` : `${formatSpread(row.ratio)}×`;
    lines.push(
      `| ${row.name}${row.note ? ` (${row.note})` : ""} | ${formatSpread(row.ours, digits)} ${row.unit} | ${row.floorName}: ${formatSpread(row.floor, digits)} ${row.unit} | ${ratio} | ${row.goal} | ${row.met ? "yes" : "**no**"} |`,
    );
  }
  return lines.join("\n");
}
