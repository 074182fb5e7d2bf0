import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { popMeta, runPop } from './gallery-helpers';
import { POP } from './pop-model';

// Ten times the history: a large history file shows its import's progress, and after a
// reload (the newest page first, the older pages read in the background) the History's and the
// Gallery's filters and sort still see every task. Speed is the bench's (bench/gallery-bench.ts).

const COUNT = 1500;

/** COUNT tasks, newest first: every third failed (no output), two models, one real output URL. */
function bigHistory(url: string) {
  const now = Date.now();
  return {
    format: 'media-studio-history',
    version: 1,
    exportedAt: new Date(now).toISOString(),
    tasks: Array.from({ length: COUNT }, (_, i) => {
      const failed = i % 3 === 1;
      const prompt = `scale prompt ${i}`;
      return {
        taskId: `task_scale_${i}`,
        request: { ...POP, params: { prompt } },
        meta: i % 5 === 0 ? { ...popMeta, title: 'Other Model' } : popMeta,
        status: failed ? 'failed' : 'succeeded',
        outputs: failed ? [] : [{ url }],
        error: failed ? { code: 'generation_failed', message: 'It broke.' } : null,
        creditsCharged: 2,
        createdAt: now - i * 60_000,
        completedAt: now - i * 60_000 + 4_000,
      };
    }),
  };
}

/** Records every state of a progress bar while it is in the page: its name and values. */
async function watchProgressBars(page: Page) {
  await page.evaluate(() => {
    const seen: Array<{ label: string | null; now: string | null }> = [];
    (window as unknown as { __bars: typeof seen }).__bars = seen;
    const record = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"]'))
        seen.push({ label: bar.getAttribute('aria-label'), now: bar.getAttribute('aria-valuenow') });
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { __bars: Array<{ label: string | null; now: string | null }> }).__bars,
    );
}

test('a large history file shows its progress; after a reload the filters and sort see every task', async ({
  studio,
  sandbox,
  page,
}) => {
  const { url } = await runPop(sandbox, 'the one real output');
  await studio.goto();
  await studio.connect('personal');
  const bars = await watchProgressBars(page);
  await page.getByLabel('Import history file').setInputFiles({
    name: 'history.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bigHistory(url))),
  });
  await expect(page.getByText(`Imported ${COUNT} tasks (0 skipped)`)).toBeVisible();
  // The bar was there while the tasks were written, named, and moved on; it is gone once done.
  const states = await bars();
  expect(states.length).toBeGreaterThan(0);
  expect(new Set(states.map((s) => s.label))).toEqual(new Set(['Importing history']));
  expect(states.some((s) => Number(s.now) > 0 && Number(s.now) <= 100)).toBe(true);
  await expect(page.getByRole('progressbar', { name: 'Importing history' })).toHaveCount(0);

  await page.reload();
  const history = page.getByRole('region', { name: 'History', exact: true });
  const count = history.getByTestId('history-count');
  await expect(count).toHaveText('1,500 tasks');
  await expect(count).toHaveAttribute('data-complete', 'true');
  // Filters over the whole history, older pages included.
  await history.getByRole('combobox', { name: 'Status' }).selectOption('failed');
  await expect(count).toHaveText('500 of 1,500 tasks');
  await history.getByRole('combobox', { name: 'Status' }).selectOption('all');
  await expect(history.getByRole('combobox', { name: 'Model' }).getByRole('option')).toHaveText([
    'All models',
    'Other Model (300)',
    'Pop Diffusion (1200)',
  ]);
  await history.getByRole('combobox', { name: 'Search prompts' }).fill('scale prompt 1498');
  await expect(count).toHaveText('1 of 1,500 tasks');
  await expect(history.getByRole('listitem').filter({ hasText: 'scale prompt 1498' })).toHaveCount(1);

  // The gallery: every task a tile (a failed one without output too), the oldest first when asked.
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const gallery = page.getByRole('main', { name: 'Gallery' });
  await expect(gallery.getByTestId('gallery-count')).toHaveText('1,500 outputs');
  await gallery.getByRole('combobox', { name: 'Sort' }).selectOption('oldest');
  await expect(gallery.locator('[data-role="open"]').first()).toHaveAttribute(
    'aria-label',
    'scale prompt 1499',
  );
  await gallery.getByRole('combobox', { name: 'Search prompts' }).fill('149');
  // 149, 1149 and 1490-1499 (a failed one's tile too).
  await expect(gallery.getByTestId('gallery-count')).toHaveText('12 of 1,500 outputs');
});
