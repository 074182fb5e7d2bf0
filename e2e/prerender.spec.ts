import type { Page } from '@playwright/test';
import { SANDBOX_BASE_URL, expect, test, type Studio } from './fixtures';
import { expectNoSeriousViolations } from './axe-helpers';
import { connectScreenSeen, watchConnectScreen } from './connect-helpers';

// The connect screen is in the built index.html (prerendered at build time), painted before
// any JavaScript runs, and then taken over by React (hydrated: the same nodes, no mismatch).

test.describe('the prerendered connect screen', () => {
  test('is in index.html as served, with its heading and fields, and no key', async ({ studio, request }) => {
    const html = await (await request.get('/')).text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).toContain('Connect to the API');
    expect(root).toMatch(/<label[^>]*>API key<\/label>/);
    expect(root).toMatch(/<input[^>]*type="password"/);
    // The fields have no name: a submit before the JavaScript runs could never put the key in a URL.
    expect(root).not.toMatch(/<input[^>]*\bname=/);
    for (const name of ['personal', 'team', 'broke'] as const) expect(html).not.toContain(studio.keyOf(name));
  });

  for (const scheme of ['light', 'dark'] as const)
    test(`is painted without JavaScript, in the ${scheme} scheme`, async ({ browser, baseURL }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, colorScheme: scheme, baseURL });
      try {
        const page = await context.newPage();
        await page.goto('/');
        await expect(page.getByRole('heading', { name: 'Connect to the API' })).toBeVisible();
        await expect(page.getByLabel('API key', { exact: true })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeVisible();
        // The theme is CSS (prefers-color-scheme): the prerendered page has its colours before any script.
        // Chromium gives the background in lab(): its first number is the lightness, 0-100.
        const background = await page
          .locator('#root > div')
          .evaluate((el) => getComputedStyle(el).backgroundColor);
        const lightness = Number(/^(?:lab|oklch)\(([\d.]+)/.exec(background)?.[1]);
        if (scheme === 'dark') expect(lightness, background).toBeLessThan(15);
        else expect(lightness, background).toBeGreaterThan(90);
      } finally {
        await context.close();
      }
    });

  test('is hydrated: the same nodes, no hydration error, and the form works', async ({ studio, page }) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    // A failed hydration makes React render the root afresh: the prerendered form would be replaced.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const form = document.querySelector('#root form');
        (window as unknown as { prerenderedForm: Element | null }).prerenderedForm = form;
      });
    });
    await studio.goto();
    // Hydrated and configured: the Base URL of /config.json and the sandbox's demo keys.
    await expect(studio.baseUrl).toHaveValue(SANDBOX_BASE_URL);
    await expect(page.getByRole('combobox', { name: 'Sandbox demo key' })).toBeEnabled();
    expect(
      await page.evaluate(() => {
        const kept = (window as unknown as { prerenderedForm: Element | null }).prerenderedForm;
        return !!kept && kept.isConnected && kept === document.querySelector('#root form');
      }),
      'the prerendered form is the one on the page',
    ).toBe(true);
    await studio.connect('personal');
    expect(problems.filter((p) => /hydrat|did not match|server rendered/i.test(p))).toEqual([]);
  });

  test('keeps a key typed before the JavaScript took over', async ({ studio, page }) => {
    // The page's JavaScript waits until the key is typed into the prerendered form.
    let release!: () => void;
    const typed = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    await studio.apiKey.fill(studio.keyOf('personal'));
    release();
    await expect(studio.baseUrl).toHaveValue(SANDBOX_BASE_URL);
    await studio.connectButton.click();
    await expect(studio.accountButton).toBeVisible();
  });
});

// A stored key on a visit whose code no service worker serves (a first visit of this browser profile's
// cache, or a worker the browser dropped): the studio's frame is prerendered too, and shown at once
// while the code arrives and the key is checked, not a blank page (public/before-paint.js).
test.describe('the studio’s frame while a stored key reconnects without the code at hand', () => {
  test.use({ serviceWorkers: 'block' });

  /** Stores the key, holds the entry script until `release`, and reloads; records every frame in which the connect form could be seen. */
  async function reloadHeld(studio: Studio, page: Page, stored: Record<string, string> = {}) {
    await studio.goto();
    await page.evaluate(
      (entries) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      },
      {
        'media-studio:api-key': studio.keyOf('personal'),
        'media-studio:base-url': SANDBOX_BASE_URL,
        ...stored,
      },
    );
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await watchConnectScreen(page);
    await page.reload({ waitUntil: 'commit' });
    return release;
  }

  test('is shown before the studio’s code runs, then gives way to the studio; the connect screen is never seen', async ({
    studio,
    page,
  }) => {
    const release = await reloadHeld(studio, page);
    const shell = page.locator('#reconnecting');
    await expect(shell.getByRole('status')).toHaveText('Reconnecting…');
    await expect(shell.getByRole('heading', { name: 'Media Studio' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-reconnecting', 'shell');
    await expectNoSeriousViolations(page, 'the studio’s frame while a stored key reconnects');
    release();
    await expect(studio.accountButton).toContainText('5,000 credits');
    await expect(shell).toBeHidden();
    await expect(page.locator('html')).not.toHaveAttribute('data-reconnecting');
    expect(await connectScreenSeen(page)).toEqual([]);
  });

  test('in another language, shows the frame without its English words', async ({ studio, page }) => {
    const release = await reloadHeld(studio, page, { 'media-studio:language': 'ja' });
    const shell = page.locator('#reconnecting');
    await expect(shell.getByRole('heading', { name: 'Media Studio' })).toBeVisible();
    await expect(shell.locator('[data-shell-words]')).toBeHidden();
    const spinner = shell.locator('svg.animate-spin');
    await expect(spinner).toBeVisible();
    // Centred: the hidden words take no space beside it.
    const box = (await spinner.boundingBox())!;
    const width = page.viewportSize()!.width;
    expect(Math.abs(box.x + box.width / 2 - width / 2)).toBeLessThanOrEqual(2);
    release();
    await expect(shell).toBeHidden();
    await expect(page.getByRole('button', { name: /5,000/ })).toBeVisible();
  });
});
