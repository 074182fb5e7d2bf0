import { describe, expect, it } from 'vitest';
import { renderMedia } from './render';

describe('renderMedia', () => {
  it('dispatches every kind to its generator', async () => {
    const seed = 'dispatch';
    const prompt = 'dispatch';
    const results = await Promise.all([
      renderMedia({ kind: 'image', seed, prompt, width: 64, height: 64, format: 'jpeg' }),
      renderMedia({ kind: 'svg', seed, prompt, width: 64, height: 64 }),
      renderMedia({ kind: 'video', seed, prompt, width: 64, height: 64, seconds: 1, format: 'webm' }),
      renderMedia({ kind: 'audio', seed, prompt, seconds: 1, style: 'music', format: 'mp3' }),
    ]);
    expect(results.map((result) => result.contentType)).toEqual([
      'image/jpeg',
      'image/svg+xml',
      'video/webm',
      'audio/mpeg',
    ]);
    expect(results.map((result) => result.thumbnail !== undefined)).toEqual([false, false, true, false]);
  });
});
