import sharp from 'sharp';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { css, label, role, text, type BrowserPage, type Facts, type Target } from './page';
import type { SandboxClient } from './sandbox-client';

// The studio's main journeys (product-notes §3), written once for every browser: connect with the personal
// demo key, a model form and its live quote, generate and see the image, an upload, the history
// after a reload, and the result in the Gallery and its Viewer. Found by role, label and text with the names of product-notes §5, as the Playwright tests do.

export interface JourneyContext {
  page: BrowserPage;
  sandbox: SandboxClient;
  /** A folder for the files the journey uploads. */
  tmpDir: string;
  /** Runs one named step, printing it and its outcome. */
  step: (name: string, run: () => Promise<void>) => Promise<void>;
}

/** "1,234 credits" / "1 credit", as the studio writes credits. */
const creditsText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'credit' : 'credits'}`;

const fail = (message: string): never => {
  throw new Error(message);
};

const loaded = (f: Facts) => (f.naturalWidth ?? 0) > 0 || `not decoded (src ${f.src})`;

/** A real PNG of the given size (a gradient), written to `path`. */
async function writePng(path: string, width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = Math.round((x / width) * 255);
      pixels[i + 1] = Math.round((y / height) * 200);
      pixels[i + 2] = 180;
    }
  await writeFile(
    path,
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

const HEADING: Target = [role('heading', 'Media Studio')];
const ACCOUNT: Target = [role('button', /^Account: /)];
const MODELS: Target = [role('tabpanel', 'Models')];
const QUOTE: Target = [role('region', 'Quote')];
const GALLERY: Target = [role('main', 'Gallery')];
const HISTORY_CARDS: Target = [role('region', 'History'), role('list', 'Tasks')];

const card = (prompt: string): Target => [
  ...HISTORY_CARDS,
  role('listitem', undefined, { has: text(prompt) }),
];

export async function mainJourneys({ page, sandbox, tmpDir, step }: JourneyContext): Promise<void> {
  const prompt = `lighthouse ${Date.now().toString(36).slice(-6)}`;
  let quoted = 0;

  await step('the connect screen; axe finds no serious violation', async () => {
    await page.goto('/');
    await page.expect(HEADING);
    await page.expect([label('Base URL')], (f) => f.value === sandbox.baseUrl || `Base URL is ${f.value}`);
    await page.expectNoSeriousViolations('the connect screen');
  });

  await step('connect with the personal demo key', async () => {
    await page.fill([label('API key')], sandbox.key('personal'));
    await page.click([role('button', 'Connect')]);
    await page.expect(ACCOUNT, (f) => /Personal/.test(f.name) || `named ${f.name}`);
  });

  await step('a model form and its live quote', async () => {
    await page.click([role('tab', 'Models')]);
    await page.select([role('combobox', 'Category')], 'image/default');
    await page.click([...MODELS, role('button', undefined, { has: text('Lumen Canvas') })]);
    await page.expect([role('form', 'Lumen Canvas')]);
    await page.fill([role('textbox', 'Prompt')], prompt);
    // Settled: credits shown and no longer marked as updating.
    const credits = [...QUOTE, css('[data-testid="quote-credits"]')];
    await page.expect(credits, (f) => /^[\d,.]+ credits?$/.test(f.text) || `shows "${f.text}"`);
    await page.expectNone([...QUOTE, text('updating')]);
    // The exact body the form would send (from "Copy request"), priced by the sandbox: the same credits.
    await page.click([role('button', 'Copy request')]);
    const dialog = [role('dialog', 'Copy request')];
    const { facts } = await page.expect([...dialog, css('[data-testid="request-curl"]')]);
    const raw = /--data-raw '([\s\S]*)'\s*$/.exec(facts.text)?.[1] ?? fail(`no body in ${facts.text}`);
    const body = JSON.parse(raw.replaceAll(`'\\''`, `'`)) as { params?: { prompt?: string } };
    if (body.params?.prompt !== prompt) fail(`the request's prompt is ${body.params?.prompt}`);
    await page.click([...dialog, role('button', 'Close')]);
    await page.expectNone(dialog);
    quoted = await sandbox.quote(body);
    await page.expect(
      credits,
      (f) => f.text === creditsText(quoted) || `shows "${f.text}", POST /quote ${quoted}`,
    );
  });

  await step('axe finds no serious violation on the form and its quote', () =>
    page.expectNoSeriousViolations('a model form with its quote'),
  );

  await step('generate, and see the image in the History', async () => {
    const before = await sandbox.balance();
    await page.click([role('button', 'Generate')]);
    await page.expect([role('status', undefined, { has: text('Queued: see History.') })]);
    await page.expect(
      [...card(prompt), role('heading'), role('button')],
      (f) => f.description[0] === 'succeeded' || `status "${f.description[0]}"`,
      30_000,
    );
    const { facts } = await page.expect([...card(prompt), role('img', prompt)], loaded);
    if (!facts.src?.startsWith(`${sandbox.origin}/cdn/`))
      fail(`the image is not from the sandbox: ${facts.src}`);
    const media = await sandbox.media(facts.src!);
    if (media.status !== 200 || !media.type.startsWith('image/'))
      fail(`${facts.src} answers ${media.status} ${media.type}`);
    const after = await sandbox.balance();
    if (before - after !== quoted) fail(`charged ${before - after} credits, quoted ${quoted}`);
  });

  await step('upload an image into a model form', async () => {
    const file = join(tmpDir, 'photo.png');
    await writePng(file, 320, 200);
    await page.click([...MODELS, role('button', undefined, { has: text('Upscale Pro') })]);
    const group = [role('form', 'Upscale Pro'), role('group', 'Image to upscale')];
    await page.upload([...group, label('Upload file', { hidden: true })], [file]);
    await page.expect([...group, role('status')], (f) => f.text.includes('photo.png is ready.') || f.text);
    await page.expect([...group, role('img', 'Preview of Image to upscale')], loaded);
    const { facts } = await page.expect([...group, role('textbox', 'Image to upscale')], (f) =>
      f.value?.startsWith(`${sandbox.origin}/cdn/uploads/`) ? true : `value ${f.value}`,
    );
    const served = await sandbox.media(facts.value!);
    if (served.status !== 200 || served.type !== 'image/png')
      fail(`the upload answers ${served.status} ${served.type}`);
    const size = await sharp(served.bytes).metadata();
    if (size.width !== 320 || size.height !== 200) fail(`the upload is ${size.width}x${size.height}`);
  });

  await step('the History after a reload', async () => {
    await page.reload();
    await page.expect(HEADING);
    await page.expect(ACCOUNT);
    await page.expect(
      [...card(prompt), role('heading'), role('button')],
      (f) => f.description[0] === 'succeeded' || `status "${f.description[0]}"`,
    );
    await page.expect([...card(prompt), role('img', prompt)], loaded);
  });

  await step('axe finds no serious violation with the upload and the History', () =>
    page.expectNoSeriousViolations('the History after a reload'),
  );

  await step('the Gallery: the tile, the Viewer, a star; axe finds no serious violation', async () => {
    await page.click([role('button', 'Gallery')]);
    const tile = [...GALLERY, css('[data-testid="gallery-tile"]', { has: role('button', prompt) })];
    await page.expect([...tile, css('img')], loaded);
    await page.expectNoSeriousViolations('the Gallery');
    await page.click([...tile, role('button', prompt)]);
    const viewer = [role('dialog', 'Viewer')];
    await page.expect([...viewer, role('img', prompt)], loaded);
    const star = [...viewer, role('button', 'Star')];
    await page.expect(star, (f) => f.pressed === 'false' || `aria-pressed ${f.pressed}`);
    await page.click(star);
    await page.expect(star, (f) => f.pressed === 'true' || `aria-pressed ${f.pressed}`);
    await page.expectNoSeriousViolations('the Viewer');
    await page.driver.press('Escape');
    await page.expectNone(viewer);
    // The star is kept: the tile shows it pressed.
    await page.expect(
      [...tile, role('button', 'Star')],
      (f) => f.pressed === 'true' || `aria-pressed ${f.pressed}`,
    );
  });

  await step('search: suggestions, a chip, a tag from the Viewer and a saved search; axe', async () => {
    const box = [...GALLERY, role('combobox', 'Search prompts')];
    const tile = [...GALLERY, css('[data-testid="gallery-tile"]', { has: role('button', prompt) })];
    await page.fill(box, 'sta');
    await page.expect([...GALLERY, role('listbox', 'Suggestions'), role('option', /^status:/)]);
    await page.expectNoSeriousViolations('the search suggestions');
    // Each term is a chip that removes it (WebKitWebDriver's clear() sets the value without the input
    // event React listens to, so the box is emptied the way a person does it).
    await page.driver.press('Escape');
    await page.click([...GALLERY, role('button', 'Remove sta')]);
    await page.expect(box, (f) => f.value === '' || `value ${JSON.stringify(f.value)}`);
    await page.fill(box, 'status:succeeded');
    await page.expect([...GALLERY, role('list', 'Search terms'), text('status:succeeded')]);
    await page.expect(tile);
    await page.click([...tile, role('button', prompt)]);
    const viewer = [role('dialog', 'Viewer')];
    await page.click([...viewer, role('button', 'Add tag')]);
    await page.fill([...viewer, role('textbox', 'New tag')], 'journey');
    await page.driver.press('Enter');
    await page.expect([...viewer, role('list', 'Tags'), text('journey')]);
    await page.driver.press('Escape');
    await page.driver.press('Escape');
    await page.expectNone(viewer);
    await page.click([...GALLERY, role('button', 'Remove status:succeeded')]);
    await page.expect(box, (f) => f.value === '' || `value ${JSON.stringify(f.value)}`);
    await page.fill(box, 'tag:journey');
    await page.expect(tile);
    await page.click([...GALLERY, role('button', 'Save search')]);
    await page.fill([...GALLERY, role('textbox', 'Name of the search')], 'Journeys');
    await page.driver.press('Enter');
    await page.expect([...GALLERY, role('list', 'Saved searches'), role('button', /^Journeys/)], (f) =>
      /^Journeys\s*1$/.test(f.text) ? true : `reads "${f.text}"`,
    );
    await page.expectNoSeriousViolations('a chip, a tag and a saved search');
    await page.click([role('button', 'Gallery')]);
    await page.expectNone(GALLERY);
  });
}

/**
 * Keyboard only (product-notes §3 "Everywhere"): connect, open a model, type its prompt, generate, open the
 * result and close it again with Tab, Enter, Escape and typing alone.
 */
export async function keyboardJourney({ page, sandbox, step }: JourneyContext): Promise<void> {
  const prompt = `paper boat ${Date.now().toString(36).slice(-6)}`;

  await step('keyboard: connect', async () => {
    // A fresh tab: no key kept from the journeys before.
    await page.evaluate('() => { sessionStorage.clear(); localStorage.clear(); }');
    await page.goto('/');
    await page.tabTo([label('API key')]);
    await page.driver.typeKeys(sandbox.key('personal'));
    await page.driver.press('Enter');
    await page.expect(ACCOUNT);
  });

  await step('keyboard: open a model and type its prompt', async () => {
    await page.tabTo([role('tab', 'Models')]);
    const lumen = [...MODELS, role('button', undefined, { has: text('Lumen Canvas') })];
    await page.tabTo(lumen);
    await page.driver.press('Enter');
    await page.expect([role('form', 'Lumen Canvas')]);
    await page.tabTo([role('textbox', 'Prompt')]);
    await page.driver.typeKeys(prompt);
    await page.expect([role('textbox', 'Prompt')], (f) => f.value === prompt || `value ${f.value}`);
  });

  await step('keyboard: generate, open the result, Escape back to it', async () => {
    await page.tabTo([role('button', 'Generate')]);
    await page.driver.press('Enter');
    const opener = [...card(prompt), role('heading'), role('button')];
    await page.expect(
      opener,
      (f) => f.description[0] === 'succeeded' || `status "${f.description[0]}"`,
      30_000,
    );
    await page.tabTo(opener);
    await page.driver.press('Enter');
    const detail = [role('dialog', 'Lumen Canvas')];
    await page.expect([...detail, role('img', prompt)], loaded);
    await page.driver.press('Escape');
    await page.expectNone(detail);
    await page.expectFocused(opener);
  });
}
