import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  PLAY_IN_PAGE,
  playArgs,
  serveMediaSamples,
  writeMediaSamples,
  type PlayResult,
} from '../e2e-browsers/media-samples';

// Chromium's part of "the outputs of both ffmpeg builds play in all three engines"; Firefox and WebKit
// play the same samples in npm run test:browsers.
test('video and audio made by the system ffmpeg and the bundled one play in Chromium', async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'media-samples-'));
  const samples = await writeMediaSamples(dir);
  const { origin, server } = await serveMediaSamples(dir);
  try {
    await page.goto(`${origin}/`);
    const results = await page.evaluate<PlayResult[]>(
      `(${PLAY_IN_PAGE})(${JSON.stringify(playArgs(origin, samples))})`,
    );
    expect(results.map((r) => `${r.name}: ${r.ok ? 'plays' : r.detail}`)).toEqual(
      samples.map((s) => `${s.name}: plays`),
    );
  } finally {
    server.close();
  }
});
