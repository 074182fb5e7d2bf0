import type { CDPSession, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './axe-helpers';
import { historyFile, importHistory, seedImages } from './gallery-helpers';
import { TASK_TIMEOUT, generate, uniquePrompt } from './task-helpers';

// The phone layout (docs/phone.md): below 640 px three destinations in a bar at the bottom, the catalog as
// a sheet over the form, the quote above Generate; touch: tap, long press, swipe, pinch.

// Screenshots to look at (Playwright empties test-results/ at each run: PHONE_SHOTS can put them elsewhere).
const SHOTS = process.env.PHONE_SHOTS ?? 'test-results/phone-shots';

const destinations = (page: Page) => page.getByRole('navigation', { name: 'Destinations' });
const destination = (page: Page, name: 'Create' | 'Results' | 'Compare') =>
  destinations(page).getByRole('button', { name, exact: true });

/** The one destination marked as the current page, by name. */
const currentDestination = (page: Page) =>
  destinations(page)
    .locator('[aria-current="page"]')
    .evaluateAll((els) => els.map((e) => e.textContent?.trim()));

const noSideScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const width of [360, 390, 430]) {
  test(`at ${width} px: the three destinations, the catalog sheet, the quote above Generate; axe light and dark`, async ({
    studio,
    sandbox,
    page,
  }) => {
    test.slow();
    await page.setViewportSize({ width, height: 800 });
    await studio.start('personal');

    // The bar sits at the bottom of the screen, across it, with Create current.
    const bar = (await destinations(page).boundingBox())!;
    expect(Math.round(bar.y + bar.height)).toBe(800);
    expect(Math.round(bar.width)).toBe(width);
    expect(await currentDestination(page)).toEqual(['Create']);
    // The catalog is not laid out above the form: it waits in a sheet, and the header leaves Gallery
    // and Compare to the bar.
    await expect(studio.catalog).toBeHidden();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Gallery' })).toBeHidden();
    expect(await noSideScroll(page)).toBe(true);
    await expectNoSeriousViolations(page, 'phone create, nothing picked', { shotsDir: SHOTS });

    await page.getByRole('button', { name: 'Choose model', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: 'Choose a model' });
    await expect(sheet.getByRole('navigation', { name: 'Catalog' })).toBeVisible();
    const sheetBox = (await sheet.boundingBox())!;
    expect(Math.round(sheetBox.y + sheetBox.height)).toBe(800);
    await expectNoSeriousViolations(page, 'phone catalog sheet', { shotsDir: SHOTS });
    await studio.category.selectOption('image/default');
    await studio.card('Lumen Canvas', studio.panel('Models')).click();
    // A pick closes the sheet and shows its form.
    await expect(sheet).toBeHidden();
    await expect(studio.form('Lumen Canvas')).toBeVisible();

    await studio.prompt.fill('A lighthouse at dusk');
    await expect(studio.quote.getByTestId('quote-credits')).toBeVisible();
    await expect(studio.quote.getByText('updating')).toBeHidden();
    const generateButton = page.getByRole('button', { name: 'Generate', exact: true });
    await generateButton.scrollIntoViewIfNeeded();
    // The price is read where Generate is pressed: right above it, both on the screen at once, and
    // neither under the bar.
    const quoteBox = (await studio.quote.boundingBox())!;
    const generateBox = (await generateButton.boundingBox())!;
    expect(quoteBox.y + quoteBox.height).toBeLessThanOrEqual(generateBox.y);
    expect(quoteBox.y).toBeGreaterThanOrEqual(0);
    expect(generateBox.y + generateBox.height).toBeLessThanOrEqual(bar.y);
    expect(await noSideScroll(page)).toBe(true);
    await expectNoSeriousViolations(page, 'phone create, a model form', { shotsDir: SHOTS });

    const tasks = await seedImages(sandbox, 2);
    await importHistory(page, historyFile(tasks));
    await destination(page, 'Results').click();
    await expect(page.getByRole('main', { name: 'Gallery' }).getByTestId('gallery-tile')).toHaveCount(3);
    expect(await currentDestination(page)).toEqual(['Results']);
    expect(await noSideScroll(page)).toBe(true);
    await expectNoSeriousViolations(page, 'phone results', { shotsDir: SHOTS });

    await destination(page, 'Compare').click();
    await expect(page.getByRole('region', { name: 'Compare', exact: true })).toBeVisible();
    expect(await currentDestination(page)).toEqual(['Compare']);
    expect(await noSideScroll(page)).toBe(true);
    await expectNoSeriousViolations(page, 'phone compare', { shotsDir: SHOTS });

    // Back to Create: the form as it was left.
    await destination(page, 'Create').click();
    await expect(studio.prompt).toHaveValue('A lighthouse at dusk');
  });
}

test('at 640 px and wider the desktop layout is unchanged: no bar, the catalog beside the form', async ({
  studio,
  page,
}) => {
  for (const width of [640, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 640) await studio.start('personal');
    await expect(studio.catalog).toBeVisible();
    await expect(destinations(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Choose model' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Gallery' })).toBeVisible();
    await expect(page.getByRole('complementary').getByRole('region', { name: 'Quote' })).toBeVisible();
  }
});

/** Real touch input through the DevTools protocol (Chromium turns it into touch and pointer events). */
async function touch(
  cdp: CDPSession,
  type: 'touchStart' | 'touchMove' | 'touchEnd',
  points: Array<[number, number]>,
) {
  await cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map(([x, y], id) => ({ x, y, id, radiusX: 4, radiusY: 4, force: 1 })),
  });
}

async function centreOf(locator: Locator): Promise<[number, number]> {
  const box = (await locator.boundingBox())!;
  return [box.x + box.width / 2, box.y + box.height / 2];
}

/** A one-finger drag from `from` by `dx`, in steps, as a finger moves. */
async function swipe(cdp: CDPSession, [x, y]: [number, number], dx: number) {
  await touch(cdp, 'touchStart', [[x, y]]);
  for (let i = 1; i <= 6; i++) await touch(cdp, 'touchMove', [[x + (dx * i) / 6, y]]);
  await touch(cdp, 'touchEnd', []);
}

test.describe('driven by touch', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('tap to make an image, long press to select, swipe through the Viewer, pinch to zoom', async ({
    studio,
    sandbox,
    page,
    history,
  }) => {
    test.slow();
    await studio.goto();
    await studio.apiKey.tap();
    await studio.apiKey.fill(studio.keyOf('personal'));
    await studio.connectButton.tap();
    await expect(studio.accountButton).toBeVisible();

    // Create, by taps: the sheet, a category, a model; the prompt; Generate.
    await page.getByRole('button', { name: 'Choose model', exact: true }).tap();
    await studio.category.selectOption('image/default');
    await studio.card('Lumen Canvas', studio.panel('Models')).tap();
    await expect(studio.form('Lumen Canvas')).toBeVisible();
    const prompt = uniquePrompt('a lighthouse by touch');
    await studio.prompt.tap();
    await generate(studio, prompt);
    await history.expectStatus(history.card(prompt), 'succeeded', TASK_TIMEOUT);

    const tasks = await seedImages(sandbox, 3);
    await importHistory(page, historyFile(tasks));
    await destination(page, 'Results').tap();
    const gallery = page.getByRole('main', { name: 'Gallery' });
    const tiles = gallery.getByTestId('gallery-tile');
    await expect(tiles).toHaveCount(5);

    // A long press selects the tile (and does not open it); the finger is still down when it does.
    const cdp = await page.context().newCDPSession(page);
    const first = tiles.first();
    const point = await centreOf(first);
    await touch(cdp, 'touchStart', [point]);
    await expect(gallery.getByRole('toolbar', { name: 'Selection' })).toBeVisible();
    await touch(cdp, 'touchEnd', []);
    await expect(gallery.getByTestId('selection-count')).toHaveText('1 selected');
    await expect(first.getByRole('checkbox', { name: 'Select' })).toBeChecked();
    await expect(page.getByRole('dialog', { name: 'Viewer' })).toHaveCount(0);

    // A tap opens the Viewer; swipes turn to the next output and back.
    await first.getByRole('button').first().tap();
    const viewer = page.getByRole('dialog', { name: 'Viewer' });
    const position = viewer.getByTestId('viewer-position');
    await expect(position).toHaveText('1 of 5');
    const stage = viewer.getByTestId('viewer-stage');
    const [sx, sy] = await centreOf(stage);
    await swipe(cdp, [sx + 120, sy], -240);
    await expect(position).toHaveText('2 of 5');
    await swipe(cdp, [sx - 120, sy], 240);
    await expect(position).toHaveText('1 of 5');

    // Two fingers apart: the image zooms in; a finger then pans it, and no longer turns the output.
    const zoom = viewer.getByTestId('zoom-level');
    await expect(zoom).toHaveText(/%$/);
    const before = parseInt((await zoom.textContent()) ?? '0', 10);
    await touch(cdp, 'touchStart', [
      [sx - 20, sy],
      [sx + 20, sy],
    ]);
    for (let i = 1; i <= 8; i++)
      await touch(cdp, 'touchMove', [
        [sx - 20 - i * 15, sy],
        [sx + 20 + i * 15, sy],
      ]);
    await touch(cdp, 'touchEnd', []);
    await expect
      .poll(async () => parseInt((await zoom.textContent()) ?? '0', 10))
      .toBeGreaterThan(before * 1.5);
    await swipe(cdp, [sx + 60, sy], -120);
    await expect(position).toHaveText('1 of 5');
  });
});
