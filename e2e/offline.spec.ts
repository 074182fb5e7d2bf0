import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { precompressFile } from '../scripts/precompress';
import type { Page } from '@playwright/test';
import { expect, test, type Studio } from './fixtures';
import { historyFile, importHistory, seedImages } from './gallery-helpers';
import { disconnect, uniquePrompt } from './task-helpers';
import { storedRecords } from './stored';

// The offline app shell (docs/offline.md): a service worker precaches the built studio; it never keeps an
// API answer or anything that carries a key; a new build waits for "Reload to update".

/** Once the page's service worker is activated, its precache is complete. */
const workerReady = (page: Page) =>
  expect
    .poll(
      () =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return registration.active?.state;
        }),
      { timeout: 20_000 },
    )
    .toBe('activated');

/** Every request held in the page's Cache Storage, with what a key could ride on. */
const cachedRequests = (page: Page) =>
  page.evaluate(async () => {
    const out: Array<{ cache: string; url: string; authorization: string | null }> = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        out.push({ cache: name, url: request.url, authorization: request.headers.get('authorization') });
    }
    return out;
  });

const tile = (page: Page, prompt: string) =>
  page
    .getByRole('main', { name: 'Gallery' })
    .getByTestId('gallery-tile')
    .filter({ has: page.getByRole('button', { name: new RegExp(`^${prompt}`) }) })
    .first();

test('once loaded, the studio opens again without a network: its history, gallery and kept copies', async ({
  studio,
  sandbox,
  page,
  context,
  history,
}) => {
  test.slow();
  await studio.start('personal');
  const tasks = await seedImages(sandbox, 2);
  await importHistory(page, historyFile(tasks));
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await tile(page, 'gallery tile 1').getByRole('button', { name: 'Star' }).click();
  await expect(page.getByRole('region', { name: 'Storage on this device' })).toContainText(
    'Kept on this device: 1 starred output',
  );
  await workerReady(page);

  await context.setOffline(true);
  await page.reload();
  // The studio, connected with the account last seen, and the history of this device.
  await expect(page.getByRole('main', { name: 'Gallery' })).toBeVisible();
  await expect(studio.accountButton).toBeVisible();
  await expect(page.getByRole('main', { name: 'Gallery' }).getByTestId('gallery-tile')).toHaveCount(3);
  // The kept copies are read from this device too (the picture itself may come from the browser's cache).
  await expect(page.getByRole('region', { name: 'Storage on this device' })).toContainText(
    'Kept on this device: 1 starred output',
  );
  const image = tile(page, 'gallery tile 1').locator('img');
  await expect.poll(() => image.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  await expect(history.card('gallery tile 2')).toBeVisible();
  // The service cannot be reached, and the studio says so rather than showing nothing.
  await expect(page.getByRole('status', { name: 'Connection' })).toContainText("Can't reach the service", {
    timeout: 20_000,
  });
  await context.setOffline(false);
});

test('the service worker keeps the app shell only: no API answer, no config, nothing with a key', async ({
  studio,
  page,
  context,
}) => {
  await studio.start('personal');
  // Calls of every kind first: the account, the catalog, a quote.
  await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('A lighthouse at dusk');
  await expect(studio.quote.getByTestId('quote-credits')).toBeVisible({ timeout: 15_000 });
  await workerReady(page);
  await context.setOffline(true);
  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  await context.setOffline(false);

  const cached = await cachedRequests(page);
  const origin = new URL(page.url()).origin;
  const paths = cached.map((c) => new URL(c.url).pathname);
  // The shell is there: the page, its scripts and styles, the manifest.
  expect(paths).toContain('/index.html');
  expect(paths.some((p) => /^\/assets\/.+\.js$/.test(p))).toBe(true);
  expect(paths.some((p) => /^\/assets\/.+\.css$/.test(p))).toBe(true);
  expect(paths).toContain('/manifest.webmanifest');
  // ...and nothing else: only this origin's files, none of the API's paths, no config, no key.
  expect(cached.filter((c) => new URL(c.url).origin !== origin)).toEqual([]);
  expect(paths.filter((p) => /^\/(proxy|v1|api|sync|__sandbox)(\/|$)|config\.json/.test(p))).toEqual([]);
  expect(cached.filter((c) => c.authorization !== null)).toEqual([]);
  const key = studio.keyOf('personal');
  expect(cached.filter((c) => c.url.includes(key))).toEqual([]);
});

test('a new build is offered with "Reload to update", never swapped in under a form being filled', async ({
  studio,
  page,
}) => {
  test.slow();
  await studio.start('personal');
  await workerReady(page);
  // A new build: the served worker changes (as a new build's precache list would change it). The
  // worker's own script is fetched by the browser, not the page, so the file itself is changed, with the
  // compressed copies the server sends (scripts/precompress.ts), as a build writes them.
  const worker = join(process.cwd(), 'dist', 'sw.js');
  const copies = [worker, `${worker}.br`, `${worker}.gz`];
  const built = copies.map((file) => (existsSync(file) ? readFileSync(file) : null));
  writeFileSync(worker, `${built[0]!.toString()}\n// a new build\n`);
  precompressFile(worker);
  try {
    await page.reload();
    await offeredUpdate(page, studio);
  } finally {
    copies.forEach((file, i) => (built[i] ? writeFileSync(file, built[i]) : rmSync(file, { force: true })));
  }
});

async function offeredUpdate(page: Page, studio: Studio) {
  await expect(studio.accountButton).toBeVisible();
  await studio.openModel('Lumen Canvas');
  const prompt = uniquePrompt('a form being filled');
  await studio.prompt.fill(prompt);

  const offer = page.getByRole('status', { name: 'Studio update' });
  const reload = offer.getByRole('button', { name: 'Reload to update' });
  await expect(reload).toBeVisible({ timeout: 30_000 });
  // Offered, not applied: the form and what was typed are still there, the new worker waits.
  await expect(studio.prompt).toHaveValue(prompt);
  expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)).toBe(
    true,
  );

  await Promise.all([page.waitForEvent('load'), reload.click()]);
  await expect(studio.accountButton).toBeVisible();
  // The new version is in charge, and nothing waits any more.
  await expect
    .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting))
    .toBe(false);
  await expect(reload).toHaveCount(0);
}

test('offline, the catalog, the form and its draft open again from this device, and say from when', async ({
  studio,
  page,
  context,
  history,
}) => {
  test.slow();
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  const prompt = uniquePrompt('typed before going offline');
  await studio.prompt.fill(prompt);
  await workerReady(page);

  await context.setOffline(true);
  await page.reload();
  await expect(studio.accountButton).toBeVisible();
  // The catalog as this connection last saw it, marked as such...
  await expect(page.getByRole('status', { name: 'Offline catalog' })).toContainText('Offline: catalog from');
  await expect(studio.card('Lumen Canvas', studio.panel('Models'))).toBeVisible();
  // ...the form of the model that was open, and what was typed in it.
  await expect(studio.form('Lumen Canvas')).toBeVisible();
  await expect(studio.prompt).toHaveValue(prompt);
  // Generate stays possible: the submit waits in the outbox and is sent once the network is back.
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await context.setOffline(false);
  await expect(history.card(prompt)).toBeVisible({ timeout: 60_000 });
});

/** The catalog answers kept in the page's IndexedDB, as stored. */
const keptCatalog = (page: Page) => storedRecords(page, 'catalog');

test('the kept catalog holds no key, and Disconnect removes it', async ({ studio, page }) => {
  await studio.start('personal');
  await studio.openModel('Lumen Canvas');
  await expect.poll(async () => (await keptCatalog(page)).length).toBeGreaterThan(0);
  expect(JSON.stringify(await keptCatalog(page))).not.toContain(studio.keyOf('personal'));

  await disconnect(studio);
  await expect.poll(async () => (await keptCatalog(page)).length).toBe(0);
});
