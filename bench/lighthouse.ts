import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM } from '../scripts/chromium';
import type { Figure } from './results-file';
import type { Ports } from './studio-bench';

// Lighthouse (issue 7) on the built studio against its sandbox, with Debian's Chromium: performance,
// accessibility and best practices, for the first screen (connect) and for the connected studio with a
// model form open. Lighthouse drives a tab of a Chromium that Playwright started with a debugging port;
// for the connected page the key is remembered in that profile first (disableStorageReset keeps it).
// Scores are Lighthouse's 0-100; targets 95 / 100 / 100.

const DEBUG_PORT = 9339;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const TARGETS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
};

type Scores = Record<(typeof CATEGORIES)[number], number | null> & { failing: string[] };

async function audit(url: string, preset: 'mobile' | 'desktop'): Promise<Scores> {
  const result = await lighthouse(
    url,
    {
      port: DEBUG_PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableStorageReset: true,
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [
      c,
      lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100),
    ]),
  ) as Record<(typeof CATEGORIES)[number], number | null>;
  // What cost points, to read beside the figures.
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((a): a is NonNullable<typeof a> => !!a && a.score !== null && a.score < 0.9)
      .map((a) => `${c}: ${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`),
  );
  return { ...scores, failing };
}

function figures(name: string, scores: Scores): Record<string, Figure> {
  const out: Record<string, Figure> = {};
  for (const c of CATEGORIES) {
    const value = scores[c];
    out[`${name}.${c}`] = {
      value,
      unit: 'score',
      target: `>= ${TARGETS[c]}`,
      ok: value === null ? null : value >= TARGETS[c],
      ...(scores.failing.some((f) => f.startsWith(`${c}:`))
        ? {
            note: scores.failing
              .filter((f) => f.startsWith(`${c}:`))
              .map((f) => f.slice(c.length + 2))
              .join(', '),
          }
        : {}),
    };
  }
  return out;
}

export async function lighthouseScores(ports: Ports, apiKey: string): Promise<Record<string, Figure>> {
  const profile = mkdtempSync(join(tmpdir(), 'studio-lh-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...CHROMIUM,
    headless: true,
    args: [...CHROMIUM.args, `--remote-debugging-port=${DEBUG_PORT}`],
  });
  try {
    const out: Record<string, Figure> = {};
    // The first screen, as a new visitor sees it.
    for (const preset of ['desktop', 'mobile'] as const)
      Object.assign(out, figures(`connect.${preset}`, await audit(`${ports.studio}/`, preset)));

    // The connected studio: the key remembered in this profile, a model form open from the URL.
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(ports.studio);
    await page.getByLabel('API key', { exact: true }).fill(apiKey);
    await page.getByLabel('Remember this key on this device').check();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('tab', { name: 'Models' }).waitFor();
    const studioUrl = `${ports.studio}/?model=lumen-canvas&version=lumen-canvas-v2`;
    for (const preset of ['desktop', 'mobile'] as const)
      Object.assign(out, figures(`studio.${preset}`, await audit(studioUrl, preset)));
    return out;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
