import { describe, expect, it } from 'vitest';
import { renderAudio } from './audio';
import { SAMPLE_RATE, synthesize } from './audio-synth';
import { probeMedia } from './probe';
import type { AudioSpec } from '../core/media-types';

const spec = (overrides: Partial<AudioSpec> = {}): AudioSpec => ({
  kind: 'audio',
  seed: 'tts-model|v1|Hello there, how are you today?',
  prompt: 'Hello there, how are you today?',
  seconds: 4,
  style: 'speech',
  format: 'wav',
  ...overrides,
});

/** Root-mean-square level of 50 ms windows: the shape of the sound over time. */
function envelope(samples: Float32Array): number[] {
  const window = Math.round(0.05 * SAMPLE_RATE);
  const levels: number[] = [];
  for (let start = 0; start + window <= samples.length; start += window) {
    let sum = 0;
    for (let i = start; i < start + window; i++) sum += (samples[i] ?? 0) ** 2;
    levels.push(Math.sqrt(sum / window));
  }
  return levels;
}

describe('renderAudio', () => {
  it('writes a 16-bit mono PCM WAV of exactly the asked length', async () => {
    const out = await renderAudio(spec({ seconds: 2.5 }));
    expect(out.contentType).toBe('audio/wav');
    const wav = out.bytes;
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1,
      1,
      SAMPLE_RATE,
      16,
    ]);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(2.5 * SAMPLE_RATE * 2);
    const probe = await probeMedia(wav, 'audio/wav');
    expect(Math.abs((probe.durationSec ?? 0) - 2.5)).toBeLessThanOrEqual(0.1);
  });

  it.each(['speech', 'music', 'sfx'] as const)('is deterministic and seed-dependent (%s)', async (style) => {
    const [a, again, b] = await Promise.all([
      renderAudio(spec({ style })),
      renderAudio(spec({ style })),
      renderAudio(spec({ style, seed: 'another seed' })),
    ]);
    expect(again.bytes.equals(a.bytes)).toBe(true);
    expect(b.bytes.equals(a.bytes)).toBe(false);
  });

  it('is not silent, never clips, and the styles sound different', () => {
    const shapes = (['speech', 'music', 'sfx'] as const).map((style) => {
      const samples = synthesize(style, 'seed', 'one two three, four five.', 4);
      const peak = samples.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
      expect(peak).toBeGreaterThan(0.5);
      expect(peak).toBeLessThanOrEqual(1);
      return envelope(samples);
    });
    // Speech pauses between words: some windows are near-silent, unlike music.
    const quiet = (levels: number[]): number => levels.filter((level) => level < 0.01).length / levels.length;
    expect(quiet(shapes[0] ?? [])).toBeGreaterThan(0.15);
    expect(quiet(shapes[1] ?? [])).toBeLessThan(0.05);
  });

  it('paces speech by the prompt: more words, more syllables in the same time', () => {
    const syllables = (prompt: string): number => {
      const levels = envelope(synthesize('speech', 'seed', prompt, 6));
      return levels.filter((level, i) => level >= 0.01 && (levels[i - 1] ?? 0) < 0.01).length;
    };
    expect(syllables('Hi.')).toBeLessThan(syllables('the quick brown fox jumps over the lazy dog'));
  });

  it('transcodes to MP3 of the asked length', async () => {
    const out = await renderAudio(spec({ format: 'mp3', style: 'music', seconds: 5 }));
    expect(out.contentType).toBe('audio/mpeg');
    const id3 = out.bytes.toString('ascii', 0, 3) === 'ID3';
    const frameSync = out.bytes[0] === 0xff && ((out.bytes[1] ?? 0) & 0xe0) === 0xe0;
    expect(id3 || frameSync).toBe(true);
    const probe = await probeMedia(out.bytes, out.contentType);
    expect(Math.abs((probe.durationSec ?? 0) - 5)).toBeLessThanOrEqual(0.1);
  });

  it('transcodes to Ogg Vorbis of the asked length', async () => {
    const out = await renderAudio(spec({ format: 'ogg', style: 'sfx', seconds: 3 }));
    expect(out.contentType).toBe('audio/ogg');
    expect(out.bytes.toString('ascii', 0, 4)).toBe('OggS');
    expect(out.bytes.includes('vorbis')).toBe(true);
    const probe = await probeMedia(out.bytes, out.contentType);
    expect(Math.abs((probe.durationSec ?? 0) - 3)).toBeLessThanOrEqual(0.1);
    expect(
      (await renderAudio(spec({ format: 'ogg', style: 'sfx', seconds: 3 }))).bytes.equals(out.bytes),
    ).toBe(true);
  });
});
