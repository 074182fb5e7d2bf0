// Each scale figure is the median of three runs with its range (docs/benchmarks.md), so it never passes, or
// fails, by luck. The machine may be shared: the range says how much it moved.

import { loadavg } from 'node:os';

export const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The median of the runs' values and their range, e.g. "812-940". */
export function spread(xs: readonly number[]): { value: number; range: string } {
  const r = (x: number) => Math.round(x);
  return { value: r(median(xs)), range: `${r(Math.min(...xs))}-${r(Math.max(...xs))}` };
}

/**
 * The history size of the scale benches: BENCH_HISTORY_TASKS (docs/benchmarks.md "history": 50,000 tasks,
 * 4 outputs each).
 */
export const HISTORY_TASKS = Number(process.env.BENCH_HISTORY_TASKS ?? 50_000);

/** The machine's 1-minute load average now, to one decimal: recorded beside each run's figures. */
export function loadAverage(): number {
  return Math.round(loadavg()[0]! * 10) / 10;
}

/** "load 1.2-3.4" (the 1-minute load average at the end of each run), for a figure's note. */
export function loadRange(loads: readonly number[]): string {
  return `load average ${Math.min(...loads)}-${Math.max(...loads)} (2 cores)`;
}
