import { chromium, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { LANGUAGE_TABLE, SOURCE_LANGUAGE } from '../src/lib/i18n/language-table';
import { CHROMIUM } from './chromium';

// `npx tsx scripts/screenshots.ts [studioUrl]`: screenshots of each screen, light and dark, desktop and
// phone, into docs/screenshots/ (with `npm start` running). For looking at, not for asserting.

const studio = process.argv[2] ?? 'http://127.0.0.1:4173';
const out = 'docs/screenshots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch(CHROMIUM);

async function connect(page: Page) {
  await page.goto(studio);
  await page.getByLabel('Sandbox demo key').selectOption('personal');
  await page.getByRole('button', { name: 'Connect' }).click();
  // The account button, on every width (on a phone the catalog is a sheet, its tabs hidden).
  await page.getByRole('button', { name: /^Account: / }).waitFor();
}

async function shoot(
  name: string,
  colorScheme: 'light' | 'dark',
  viewport: { width: number; height: number },
  steps: (page: Page) => Promise<void>,
  { serviceWorkers = 'allow' }: { serviceWorkers?: 'allow' | 'block' } = {},
) {
  const context = await browser.newContext({ colorScheme, viewport, deviceScaleFactor: 1, serviceWorkers });
  const page = await context.newPage();
  await steps(page);
  await page.waitForTimeout(800);
  await page.screenshot({ path: `${out}/${name}-${colorScheme}.png`, fullPage: false });
  await context.close();
}

const desktop = { width: 1280, height: 860 };

/** A photo-like PNG to upload: a sky gradient over a dark ground. */
const photo = async () => ({
  name: 'harbour.png',
  mimeType: 'image/png',
  buffer: await sharp({
    create: { width: 960, height: 640, channels: 3, background: { r: 40, g: 70, b: 110 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="960" height="640"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f59e0b"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs><rect width="960" height="400" fill="url(#g)"/><circle cx="700" cy="300" r="70" fill="#fde68a"/><rect y="400" width="960" height="240" fill="#1e293b"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer(),
});

async function openEditForm(page: Page) {
  await connect(page);
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption('image/edit-image');
  await page
    .getByRole('button', { name: /Inpaint/ })
    .first()
    .click();
  await page.getByLabel('Prompt', { exact: true }).fill('Replace the sky with a starry night');
  const source = page.getByRole('group', { name: 'Source image' });
  await source.getByLabel('Upload file', { exact: true }).setInputFiles(await photo());
  await source.getByText('is ready.').waitFor();
}
const phone = { width: 390, height: 844 };

/** Three pictures made, then the Gallery opened with every tile's picture loaded. */
async function openGalleryWithPictures(page: Page) {
  await connect(page);
  await page
    .getByRole('button', { name: /Lumen Canvas/ })
    .first()
    .click();
  const prompts = ['A lighthouse on a cliff at dusk', 'A bowl of ramen, top view', 'A red fox in fresh snow'];
  for (const prompt of prompts) {
    await page.getByLabel('Prompt', { exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Queued: see History.' }).first().waitFor();
  }
  await page.getByRole('button', { name: 'Gallery', exact: true }).click();
  const tiles = page.getByRole('main', { name: 'Gallery' }).getByTestId('gallery-tile');
  await tiles.nth(prompts.length - 1).waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    (count) => {
      const images = [...document.querySelectorAll('[data-testid="gallery-tile"] img')];
      return images.length >= count && images.every((img) => (img as HTMLImageElement).naturalWidth > 0);
    },
    prompts.length,
    { timeout: 60_000 },
  );
}

for (const scheme of ['light', 'dark'] as const) {
  await shoot('connect', scheme, desktop, async (page) => {
    await page.goto(studio);
    await page.getByLabel('API key').waitFor();
  });
  await shoot('model-form', scheme, desktop, async (page) => {
    await connect(page);
    await page
      .getByRole('button', { name: /Lumen Canvas/ })
      .first()
      .click();
    await page.getByLabel('Prompt', { exact: true }).fill('A red fox curled up in fresh snow, morning light');
  });
  await shoot('templates', scheme, desktop, async (page) => {
    await connect(page);
    await page.getByRole('tab', { name: 'Templates' }).click();
  });
  await shoot('mask-painter', scheme, desktop, async (page) => {
    await openEditForm(page);
    await page.getByRole('button', { name: 'Paint mask' }).click();
    const canvas = page.getByLabel('Mask painting area');
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.2);
    await page.mouse.down();
    for (const [x, y] of [
      [0.9, 0.2],
      [0.9, 0.4],
      [0.1, 0.4],
      [0.1, 0.3],
      [0.8, 0.3],
    ] as const)
      await page.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 10 });
    await page.mouse.up();
  });
  await shoot('describe-image', scheme, desktop, async (page) => {
    await connect(page);
    await page
      .getByRole('button', { name: /Lumen Canvas/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Describe image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Describe image' });
    await dialog.getByLabel('Upload file', { exact: true }).setInputFiles(await photo());
    await dialog.getByText('is ready.').waitFor();
    await dialog.getByRole('button', { name: 'Describe', exact: true }).click();
    await dialog.getByRole('region', { name: 'Description' }).waitFor();
  });
}
for (const scheme of ['light', 'dark'] as const) {
  await shoot('gallery', scheme, desktop, openGalleryWithPictures);
  await shoot('viewer', scheme, desktop, async (page) => {
    await openGalleryWithPictures(page);
    await page
      .getByRole('main', { name: 'Gallery' })
      .getByTestId('gallery-tile')
      .first()
      .getByRole('button')
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Viewer' }).waitFor();
  });
}
// Made at desktop width (on a phone the catalog is a sheet), then looked at on a phone.
await shoot('gallery-phone', 'light', desktop, async (page) => {
  await openGalleryWithPictures(page);
  await page.setViewportSize(phone);
});
await shoot('compare', 'light', { width: 1440, height: 1000 }, async (page) => {
  await connect(page);
  await page.getByRole('button', { name: /^Compare/ }).click();
  const add = page.getByRole('combobox', { name: 'Add model' });
  for (const label of ['Lumen Canvas · v2', 'Aurora XL · Aurora XL 1.0', 'Pop Diffusion · Pop 1'])
    await add.selectOption({ label });
  await page.getByLabel('Prompt 1', { exact: true }).fill('A lighthouse on a cliff at dusk');
  await page.getByRole('button', { name: 'Add prompt' }).click();
  await page.getByLabel('Prompt 2', { exact: true }).fill('A bowl of ramen, top view');
  await page.getByRole('button', { name: /^Run all \(/ }).click();
  await page.locator('[data-cell-state="succeeded"]').nth(5).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Favourite' }).first().click();
  await page.getByRole('table').scrollIntoViewIfNeeded();
});
await shoot('edit-form', 'light', desktop, async (page) => {
  await openEditForm(page);
  await page.getByRole('group', { name: 'Mask' }).scrollIntoViewIfNeeded();
});
await shoot('phone', 'light', phone, async (page) => {
  await connect(page);
});
// The studio's frame while a stored key reconnects with no service worker serving the code
// (src/app/reconnecting-shell.tsx): the studio's script is held, so the frame stays.
const reconnecting = async (page: Page) => {
  await page.goto(studio);
  await page.evaluate(() => localStorage.setItem('media-studio:api-key', 'held'));
  await page.route(/\/assets\/index-[^/]+\.js$/, () => undefined);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.locator('#reconnecting').getByRole('status').waitFor();
};
for (const scheme of ['light', 'dark'] as const)
  await shoot('reconnecting', scheme, desktop, reconnecting, { serviceWorkers: 'block' });
await shoot('reconnecting-phone', 'light', phone, reconnecting, { serviceWorkers: 'block' });
// Each language's studio but English (src/lib/i18n/language-table.ts): connected in English, then the
// language chosen and the page reloaded (the key stays for the tab), a form open. CJK and Arabic need
// their fonts on the machine (Debian: fonts-noto-cjk, fonts-noto-core).
for (const language of LANGUAGE_TABLE.map((row) => row.tag).filter((tag) => tag !== SOURCE_LANGUAGE)) {
  await shoot(`language-${language}`, 'light', desktop, async (page) => {
    await connect(page);
    await page.evaluate((tag) => localStorage.setItem('media-studio:language', tag), language);
    await page.reload();
    await page.locator('html:not([data-language-pending])').waitFor();
    await page
      .getByRole('button', { name: /Lumen Canvas/ })
      .first()
      .click();
    await page.getByRole('textbox').first().waitFor();
  });
}
await browser.close();
console.log(`screenshots in ${out}/`);
