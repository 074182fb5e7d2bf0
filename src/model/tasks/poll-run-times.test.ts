import { describe, expect, it } from 'vitest';
import { RunTimes } from './poll-run-times';

describe('RunTimes', () => {
  it('knows nothing before a sample', () => {
    const times = new RunTimes();
    expect(times.run('m')).toBeNull();
    expect(times.latency('m')).toBeNull();
  });

  it('answers the median of a model, and counts each sample for all models too', () => {
    const times = new RunTimes();
    for (const s of [4, 10, 6]) times.sampleRun('m', s);
    times.sampleRun('other', 100);
    expect(times.run('m')).toBe(6);
    expect(times.run('')).toBe(8);
  });

  it('keeps only the last nine samples per model', () => {
    const times = new RunTimes();
    for (let s = 1; s <= 20; s++) times.sampleLatency('m', s);
    expect(times.samples().latencySamples.m).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(times.latency('m')).toBe(16);
  });

  it('takes up what an earlier session learned, trimmed to the last nine', () => {
    const times = new RunTimes({
      runSamples: { m: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      latencySamples: {},
    });
    expect(times.samples().runSamples.m).toHaveLength(9);
    expect(times.run('m')).toBe(7);
  });

  it('moves the miss rate towards how often first polls miss', () => {
    const times = new RunTimes();
    const start = times.missRate;
    times.learnMiss(true);
    expect(times.missRate).toBeGreaterThan(start);
    for (let i = 0; i < 30; i++) times.learnMiss(false);
    expect(times.missRate).toBeLessThan(0.01);
  });
});
