import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { png, withBlockMark } from './media-helpers';

// Accessibility (PRODUCT 3 "Everywhere": keyboard-only use works; dark mode follows the system):
// axe finds no serious or critical violation on the main screens, in light and in dark. Each screen is
// checked in both schemes: switching prefers-color-scheme restyles the page in place.

const SCHEMES = ['light', 'dark'] as const;

/** The page's own background, to be sure the scheme asked for is the one drawn. */
const backgroundIsDark = (page: Page) =>
  page.evaluate(() => {
    const shell = document.querySelector('#root > div') ?? document.body;
    // Painted on a canvas to read it as sRGB, whatever the colour space Tailwind wrote it in (oklch).
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.fillStyle = getComputedStyle(shell).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r = 255, g = 255, b = 255] = ctx.getImageData(0, 0, 1, 1).data;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  });

async function expectNoSeriousViolations(page: Page, screen: string) {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expect.poll(() => backgroundIsDark(page)).toBe(colorScheme === 'dark');
    // Colours fade between schemes (transition-colors): axe must measure the end state, not a frame of it.
    // (A transition cancelled meanwhile rejects `finished`: that is an end too.)
    // Transitions inside a closed <details> are never rendered, so they never finish: those are left out.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => {
            const target = (a.effect as KeyframeEffect | null)?.target;
            return !target?.closest('details:not([open])');
          })
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
      }));
    expect(serious, `${screen} (${colorScheme}): serious or critical axe violations`).toEqual([]);
  }
}

test('the connect screen, with an error shown', async ({ studio, page }) => {
  await studio.goto();
  await expectNoSeriousViolations(page, 'connect screen');
  await studio.fillKey(studio.keyOf('revoked'));
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoSeriousViolations(page, 'connect screen with an error');
});

test('a model form with its quote, the Copy request dialog and the account dialog', async ({
  studio,
  page,
}) => {
  await studio.goto();
  await studio.connect('capped');
  await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('A lighthouse at dusk');
  await expect(studio.quote.getByTestId('quote-credits')).toBeVisible();
  await expect(studio.quote.getByText('updating')).toBeHidden();
  await expectNoSeriousViolations(page, 'catalog with a model form open');

  await studio.copyRequestButton.click();
  const copy = page.getByRole('dialog', { name: 'Copy request' });
  await expect(copy).toBeVisible();
  await expectNoSeriousViolations(page, 'Copy request dialog');
  await page.keyboard.press('Escape');
  await expect(copy).toBeHidden();

  await studio.openAccount();
  await expectNoSeriousViolations(page, 'account dialog');
});

test('the AI tools and Templates tabs, with an item open', async ({ studio, page }) => {
  await studio.goto();
  await studio.connect('personal');
  await studio.openTool('Style transfer');
  await expectNoSeriousViolations(page, 'AI tools tab');

  await studio.openTemplate('Neon city poster');
  await expectNoSeriousViolations(page, 'Templates tab');
});

test('media fields: ready, blocked, the library, the mask painter and Describe image', async ({
  studio,
  page,
}) => {
  await studio.goto();
  await studio.connect('personal');
  const form = await studio.openModel('Inpaint', 'image/edit-image');
  const source = form.getByRole('group', { name: 'Source image' });
  await source.getByLabel('Upload file', { exact: true }).setInputFiles(await png(320, 240, 'room.png'));
  await expect(source.getByRole('status')).toContainText('room.png is ready.');
  const mask = form.getByRole('group', { name: 'Mask' });
  await mask.getByLabel('Upload file', { exact: true }).setInputFiles(withBlockMark(await png(32, 32)));
  await expect(mask.getByRole('status')).toContainText('blocked');
  await expectNoSeriousViolations(page, 'edit form with an upload ready and one blocked');

  await mask.getByRole('button', { name: 'From library' }).click();
  const library = page.getByRole('dialog', { name: 'Library: images' });
  await expect(library.getByRole('button', { name: /^Use room\.png/ })).toBeVisible();
  await expectNoSeriousViolations(page, 'library dialog');
  await page.keyboard.press('Escape');

  await mask.getByRole('button', { name: 'Paint mask' }).click();
  const painter = page.getByRole('dialog', { name: 'Paint Mask' });
  await expect(painter.getByLabel('Mask painting area')).toBeVisible();
  await expectNoSeriousViolations(page, 'mask painter');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Describe image' }).click();
  await expect(page.getByRole('dialog', { name: 'Describe image' })).toBeVisible();
  await expectNoSeriousViolations(page, 'Describe image dialog');
});

test('a compare board with results', async ({ studio, page }) => {
  await studio.goto();
  await studio.connect('personal');
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  const add = board.getByRole('combobox', { name: 'Add model' });
  for (const label of ['Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
    await add.selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill('A quiet harbour at dawn');
  await board.getByRole('button', { name: /^Run all \(/ }).click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
  await expectNoSeriousViolations(page, 'compare board');
});
