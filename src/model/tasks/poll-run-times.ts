// How long runs take, as the poll schedule learns it (poll-schedule.ts): recent samples per model of a
// run (start to finish) and of a task that found a slot free (creation to finish), their medians, and
// how often a first poll at its prediction finds the task unfinished. Kept across reloads (poll-learning.ts).

/** Learned run and latency times: the median of this many recent samples per model. */
const SAMPLES = 9;

/** The samples as kept across reloads, in seconds, by model ('' for all). */
export interface RunTimeSamples {
  runSamples: Record<string, number[]>;
  latencySamples: Record<string, number[]>;
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] ?? null) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

export class RunTimes {
  private readonly runSamples = new Map<string, number[]>();
  private readonly latencySamples = new Map<string, number[]>();
  private readonly medians = new Map<Map<string, number[]>, Map<string, number | null>>();
  /** How often a first poll at its prediction found the task unfinished (a moving average). */
  missRate = 0.1;

  constructor(learned?: RunTimeSamples | null) {
    if (!learned) return;
    for (const [model, xs] of Object.entries(learned.runSamples))
      this.runSamples.set(model, xs.slice(-SAMPLES));
    for (const [model, xs] of Object.entries(learned.latencySamples))
      this.latencySamples.set(model, xs.slice(-SAMPLES));
  }

  /** The learned run time of a model's task (seconds; any model's for ''), or null before any was seen. */
  run(model: string): number | null {
    return this.medianOf(this.runSamples, model);
  }

  /** The learned creation-to-finish time of a model's task that found a slot free (seconds), or null. */
  latency(model: string): number | null {
    return this.medianOf(this.latencySamples, model);
  }

  sampleRun(model: string, seconds: number): void {
    this.sample(this.runSamples, model, seconds);
  }

  sampleLatency(model: string, seconds: number): void {
    this.sample(this.latencySamples, model, seconds);
  }

  learnMiss(missed: boolean): void {
    this.missRate = this.missRate * 0.85 + (missed ? 0.15 : 0);
  }

  samples(): RunTimeSamples {
    return {
      runSamples: Object.fromEntries(this.runSamples),
      latencySamples: Object.fromEntries(this.latencySamples),
    };
  }

  /** The median of a model's samples, kept until a new sample (a prediction asks it for every task). */
  private medianOf(map: Map<string, number[]>, model: string): number | null {
    let cache = this.medians.get(map);
    if (!cache) this.medians.set(map, (cache = new Map()));
    let value = cache.get(model);
    if (value === undefined) cache.set(model, (value = median(map.get(model) ?? [])));
    return value;
  }

  /** A sample counts for its model and for all models (''); only the last SAMPLES are kept. */
  private sample(map: Map<string, number[]>, model: string, seconds: number): void {
    this.medians.get(map)?.clear();
    for (const key of new Set([model, ''])) {
      const xs = map.get(key) ?? [];
      xs.push(seconds);
      map.set(key, xs.slice(-SAMPLES));
    }
  }
}
