import { SANDBOX_BASE_URL, expect, test } from './fixtures';

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
