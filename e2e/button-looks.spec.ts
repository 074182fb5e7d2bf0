import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { dropFiles, dropZoneOf, png } from './media-helpers';
import { History, generate, uniquePrompt } from './task-helpers';

// Three class overrides used to lose to the Button's own classes (cn only joins
// strings, and Tailwind's stylesheet order decides), so they never showed. Measured as rendered.

test.beforeEach(async ({ studio }) => {
  await studio.goto();
  await studio.connect('personal');
});

/** axe's contrast check of the favourite button (amber text on the board), in the current scheme. */
const contrastViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).include('[aria-pressed="true"]').withRules(['color-contrast']).analyze())
    .violations;

const sizeOf = async (button: Locator) => {
  const box = await button.boundingBox();
  return box && { width: Math.round(box.width), height: Math.round(box.height) };
};

/** The colour a class gives in this page's stylesheet, read from a probe element. */
const colourOfClass = (page: Page, className: string) =>
  page.evaluate((cls) => {
    const probe = document.createElement('span');
    probe.className = cls;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, className);

test("the image list's remove and move buttons are 28 by 28 px", async ({ studio }) => {
  const form = await studio.openModel('Lumen Canvas', 'image/default');
  const group = form.getByRole('group', { name: 'Style references' });
  await dropFiles(dropZoneOf(group), [await png(40, 40, 'a.png'), await png(50, 50, 'b.png')]);
  await expect(group.getByText('2 of 4 files')).toBeAttached();
  for (const name of [
    'Remove Style references 1',
    'Move Style references 1 later',
    'Move Style references 2 earlier',
  ])
    expect(await sizeOf(group.getByRole('button', { name })), name).toEqual({ width: 28, height: 28 });
});

test('a favourite on a compare board is amber, light and dark', async ({ page }) => {
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = page.getByRole('region', { name: 'Compare', exact: true });
  await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label: 'Pop Diffusion · Pop 1' });
  await board.getByLabel('Prompt 1', { exact: true }).fill('a red kite');
  const favourite = board
    .getByRole('group', { name: 'Pop Diffusion Pop 1, prompt 1' })
    .getByRole('button', { name: 'Favourite' });
  const off = await favourite.evaluate((b) => getComputedStyle(b).color);
  await favourite.click();
  await expect(favourite).toHaveAttribute('aria-pressed', 'true');
  const amber = await colourOfClass(page, 'text-amber-700');
  expect(amber).not.toBe(off);
  await expect(favourite).toHaveCSS('color', amber);
  expect(await contrastViolations(page)).toEqual([]);

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(favourite).toHaveCSS('color', await colourOfClass(page, 'text-amber-400'));
  expect(await contrastViolations(page)).toEqual([]);
});

test("the history's Clear filters is a square icon button as tall as the filters", async ({
  studio,
  page,
}) => {
  await studio.openModel('Lumen Canvas', 'image/default');
  await generate(studio, uniquePrompt('a harbour at dawn'));
  const history = new History(page);
  await history.region.getByRole('combobox', { name: 'Search prompts' }).fill('harbour');
  const clear = history.region.getByRole('button', { name: 'Clear filters' });
  // Before: 44 x 36, md's 14 px padding beside the 16 px icon (the px-2 given to it never applied).
  expect(await sizeOf(clear)).toEqual({ width: 36, height: 36 });
  const model = await sizeOf(history.region.getByRole('combobox', { name: 'Model' }));
  expect(model?.height).toBe(36);
  const icon = await clear.locator('svg').boundingBox();
  const box = await clear.boundingBox();
  expect(Math.round(icon!.x - box!.x)).toBe(10);
});

test('no tab or header label is cut short, from phone to wide desktop', async ({ page }) => {
  await expect(page.getByRole('tab', { name: 'Templates' })).toBeVisible();
  // Text that overflows its box (an ellipsis or a clip) in the catalog's tabs and the header's buttons.
  // Labels for screen readers only (a 1 px box by design) are not drawn: they are left out.
  const clipped = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[role="tab"], header button')].flatMap((control) =>
        [control, ...control.querySelectorAll('*')]
          .filter((el) => el.checkVisibility() && el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1)
          .map(() => control.textContent?.trim() ?? ''),
      ),
    );
  // The header in one line: its title (when shown) does not wrap, nothing is taller than the header.
  const headerWraps = () =>
    page.evaluate(() => {
      const header = document.querySelector('header')!;
      const title = header.querySelector('h1')!;
      const lines = title.clientWidth > 1 ? title.getClientRects().length : 0;
      return title.clientWidth > 1 && (lines > 1 || title.offsetHeight > 30);
    });
  for (const width of [360, 390, 430, 768, 1024, 1280, 1600]) {
    await page.setViewportSize({ width, height: 860 });
    expect(await clipped(), `labels cut short at ${width} px`).toEqual([]);
    expect(await headerWraps(), `the header's title wraps at ${width} px`).toBe(false);
  }
});

test('from 1024 px the form is the widest of the three columns', async ({ studio, page }) => {
  await studio.openModel('Lumen Canvas');
  const widthOf = async (name: string, role: 'navigation' | 'region' | 'complementary') =>
    (await page.getByRole(role, { name, exact: true }).boundingBox())!.width;
  for (const width of [1024, 1152, 1280, 1600]) {
    await page.setViewportSize({ width, height: 860 });
    const form = await widthOf('Form', 'region');
    const catalog = await widthOf('Catalog', 'navigation');
    expect(form, `at ${width} px: form ${form} px, catalog ${catalog} px`).toBeGreaterThanOrEqual(catalog);
  }
});

test("a running batch's History cards keep their badges, forecast and version inside the card", async ({
  studio,
  page,
}) => {
  await studio.openModel('Pop Diffusion');
  await studio.prompt.fill(`a {red|blue|green} kite over the sea ${uniquePrompt('k')}`);
  await page.getByRole('checkbox', { name: 'Variations' }).check();
  // A batch is sent once its price is shown.
  await expect(studio.quote.getByTestId('quote-batch-total')).toBeVisible();
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  const cards = new History(page).region.getByTestId('task-card');
  await expect(cards.getByTestId('task-forecast')).toHaveCount(3);
  // Anything drawn past a card's right edge (a badge pushed out of its row is cut by the card).
  const outside = await cards.evaluateAll((all) =>
    all.flatMap((card) => {
      const edge = card.getBoundingClientRect().right;
      return [...card.querySelectorAll('*')]
        .filter((el) => el.checkVisibility() && el.clientWidth > 1)
        .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
        .map((el) => el.textContent?.trim() ?? el.tagName);
    }),
  );
  expect(outside).toEqual([]);
});
