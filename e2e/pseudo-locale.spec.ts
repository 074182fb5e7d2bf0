import { expect, test } from './fixtures';
import { untranslatedWords } from './untranslated';

// The pseudo-locale (docs/i18n.md): every message accented and 40 % longer. Each screen checked here
// shows no English word that did not come from a catalog, at the widths of the looks tests.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('media-studio:language', 'pseudo'));
});

for (const width of [360, 1600]) {
  test(`the connect screen at ${width} px comes from the catalogs, nothing cut or overflowing`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.locator('#connect-title')).toHaveText('~~~Ćōńńēćţ ţō ţĥē ÀƤĨ~~~');
    expect(await untranslatedWords(page)).toEqual([]);
    // Longer words still fit: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
