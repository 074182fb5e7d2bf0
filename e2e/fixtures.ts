import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { WORKER_SLOT, sandboxPort } from './ports';
import { History, type TaskStatus } from './task-helpers';

// Shared fixtures: the sandbox is reset before every test (an automatic fixture), and its demo keys
// and control API are at hand. Page objects are small fixtures that find things by role and label
// (Tests), with the accessible names of product-notes §5.
export const SANDBOX_ORIGIN = `http://127.0.0.1:${sandboxPort(WORKER_SLOT)}`;
export const SANDBOX_BASE_URL = `${SANDBOX_ORIGIN}/v1`;

/** The 13 type x subType pairs of api-notes §1, in the spec's order. */
export const CATEGORIES = [
  'image/default',
  'image/edit-image',
  'image/image-svg',
  'video/text-ref',
  'video/motion-control',
  'video/first-last-frame',
  'video/audio-lipsync',
  'video/extend-video',
  'video/video-edit',
  'audio/text-to-speech',
  'audio/voice-clone',
  'audio/sound-effect',
  'audio/music',
] as const;

export type DemoKeyName =
  | 'personal'
  | 'personal2'
  | 'team'
  | 'team2'
  | 'capped'
  | 'broke'
  | 'expiring'
  | 'arrears'
  | 'expired'
  | 'revoked'
  | 'banned'
  | 'unbound';

export interface ParamDef {
  id: string;
  type: string;
  displayName?: string;
  required?: boolean;
  default?: unknown;
  options?: Array<string | { value: string | number | boolean; label?: string }>;
  enumValues?: string[];
}

export interface CatalogModel {
  id: string;
  name: string;
  type: string;
  subType: string;
  promptRequired: boolean;
  params: ParamDef[];
  versions: Array<{ id: string; name: string }>;
  brand: { name: string };
  tags: string[];
}

/** An AI tool or a template, as GET /ai-tools and GET /templates list them. */
export interface CatalogEntry {
  slug: string;
  name: string;
  summary?: string;
  tags: string[];
  coverUrl?: string;
  official?: boolean;
  params: ParamDef[];
}

export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  keyName?: string;
  /** POST /v1/tasks that made a task: its id and its prompt (cut at 200 characters). */
  created?: { taskId: string; prompt: string };
}

export interface SandboxTask {
  taskId: string;
  status: TaskStatus;
  outputs: Array<{ url: string; thumbnailUrl?: string }>;
  error: { code: string; message: string } | null;
  creditsCharged: number | null;
}

export interface SandboxMe {
  key: { label: string; creditsSpentToday: number; dailyCreditCap: number | null };
  user?: { creditBalance?: number } | null;
  team?: { creditBalance?: number } | null;
}

/** A fault the sandbox injects into its next answers (POST /__sandbox/faults). */
export interface Fault {
  method?: string;
  path?: string;
  count?: number;
  status?: number;
  retryAfter?: number;
  delayMs?: number;
  drop?: 'before' | 'after';
  /** The answer's body instead of the sandbox's own. */
  body?: unknown;
}

/** A field's label: its displayName, or its id when it has none (product-notes §5). */
export const labelOf = (def: ParamDef): string => def.displayName?.trim() || def.id;

/** The sandbox's API and control API, called straight from the test (never through the page): the
 * catalog, quotes, tasks, balances, the request log and injected faults. */
export class Sandbox {
  constructor(
    private readonly request: APIRequestContext,
    readonly keys: Record<string, string>,
  ) {}

  private auth(keyName: DemoKeyName = 'personal') {
    const key = this.keys[keyName];
    if (!key) throw new Error(`No demo key named ${keyName}`);
    return { Authorization: `Bearer ${key}` };
  }

  async models(category: string, keyName: DemoKeyName = 'personal'): Promise<CatalogModel[]> {
    const [type, subtype] = category.split('/');
    const res = await this.request.get(`${SANDBOX_BASE_URL}/models`, {
      params: { type: type!, subtype: subtype! },
      headers: this.auth(keyName),
    });
    expect(res.status(), `GET /models?type=${type}&subtype=${subtype}`).toBe(200);
    return ((await res.json()) as { models: CatalogModel[] }).models;
  }

  async aiTools(type?: 'image' | 'video'): Promise<CatalogEntry[]> {
    const res = await this.request.get(`${SANDBOX_BASE_URL}/ai-tools`, {
      ...(type ? { params: { type } } : {}),
      headers: this.auth(),
    });
    expect(res.status(), 'GET /ai-tools').toBe(200);
    return ((await res.json()) as { aiTools: CatalogEntry[] }).aiTools;
  }

  async templates(): Promise<CatalogEntry[]> {
    const res = await this.request.get(`${SANDBOX_BASE_URL}/templates`, { headers: this.auth() });
    expect(res.status(), 'GET /templates').toBe(200);
    return ((await res.json()) as { templates: CatalogEntry[] }).templates;
  }

  async quote(body: unknown, keyName: DemoKeyName = 'personal'): Promise<{ credits: number }> {
    const res = await this.request.post(`${SANDBOX_BASE_URL}/quote`, {
      data: body,
      headers: this.auth(keyName),
    });
    expect(res.status(), `POST /quote ${JSON.stringify(body)}`).toBe(200);
    return (await res.json()) as { credits: number };
  }

  /** What the sandbox quotes for the studio's open form, once the studio's Quote region shows the same. */
  async agreedQuote(studio: Studio): Promise<number> {
    const { credits } = await this.quote(await studio.requestBody());
    await expect(studio.quote.getByTestId('quote-credits')).toHaveText(creditsText(credits));
    return credits;
  }

  /** Runs a task to its end through the API (not the page); answers the finished task. */
  async runTask(
    body: unknown,
    keyName: DemoKeyName = 'personal',
  ): Promise<{ taskId: string; status: string }> {
    const res = await this.request.post(`${SANDBOX_BASE_URL}/tasks`, {
      data: body,
      headers: { ...this.auth(keyName), 'Idempotency-Key': `e2e-${Date.now()}-${Math.random()}` },
    });
    expect(res.status(), 'POST /tasks').toBeLessThan(300);
    const { taskId } = (await res.json()) as { taskId: string };
    let task = { taskId, status: 'queued' };
    await expect
      .poll(
        async () => {
          const r = await this.request.get(`${SANDBOX_BASE_URL}/tasks/${taskId}`, {
            headers: this.auth(keyName),
          });
          task = (await r.json()) as typeof task;
          return task.status;
        },
        { timeout: 15_000, intervals: [250] },
      )
      .toMatch(/^(succeeded|failed|cancelled)$/);
    return task;
  }

  async requests(): Promise<LoggedRequest[]> {
    const res = await this.request.get(`${SANDBOX_ORIGIN}/__sandbox/requests`);
    expect(res.ok()).toBe(true);
    return (await res.json()) as LoggedRequest[];
  }

  /** GET /me for the key: its spend today, and the balance of its user or team. */
  async me(keyName: DemoKeyName = 'personal'): Promise<SandboxMe> {
    const res = await this.request.get(`${SANDBOX_BASE_URL}/me`, { headers: this.auth(keyName) });
    expect(res.status(), 'GET /me').toBe(200);
    return (await res.json()) as SandboxMe;
  }

  /** The credits the key's owner has: the user's balance, or the team's for a team key. */
  async balance(keyName: DemoKeyName = 'personal'): Promise<number> {
    const me = await this.me(keyName);
    const balance = me.team?.creditBalance ?? me.user?.creditBalance;
    expect(typeof balance, 'GET /me has a balance').toBe('number');
    return balance!;
  }

  async task(taskId: string, keyName: DemoKeyName = 'personal'): Promise<SandboxTask> {
    const res = await this.request.get(`${SANDBOX_BASE_URL}/tasks/${taskId}`, {
      headers: this.auth(keyName),
    });
    expect(res.status(), `GET /tasks/${taskId}`).toBe(200);
    return (await res.json()) as SandboxTask;
  }

  /** Injects a fault into the sandbox's next answers (POST /__sandbox/faults). */
  async fault(fault: Fault): Promise<void> {
    const res = await this.request.post(`${SANDBOX_ORIGIN}/__sandbox/faults`, { data: fault });
    expect(res.ok(), `POST /__sandbox/faults ${JSON.stringify(fault)}`).toBe(true);
  }

  /** Refuses every connection for `durationMs` (POST /__sandbox/outage); the sandbox keeps its state. */
  async outage(durationMs: number): Promise<void> {
    const res = await this.request.post(`${SANDBOX_ORIGIN}/__sandbox/outage`, { data: { durationMs } });
    expect(res.ok(), 'POST /__sandbox/outage').toBe(true);
  }

  /** Waits until the sandbox answers again (after an outage). */
  async waitUntilUp(timeout = 30_000): Promise<void> {
    await expect
      .poll(
        async () =>
          (await this.request.get(`${SANDBOX_ORIGIN}/__sandbox/keys`).catch(() => null))?.ok() ?? false,
        { timeout, message: 'the sandbox answers again' },
      )
      .toBe(true);
  }

  /** The Content-Type the CDN serves an output with (essence only, lower case). */
  async contentType(url: string): Promise<string> {
    const res = await this.request.get(url);
    expect(res.status(), `GET ${url}`).toBe(200);
    return (res.headers()['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  }
}

/** The studio, driven as a person would: by role and label. */
export class Studio {
  constructor(
    readonly page: Page,
    private readonly keys: Record<string, string>,
  ) {}

  keyOf(name: DemoKeyName): string {
    const key = this.keys[name];
    if (!key) throw new Error(`No demo key named ${name}`);
    return key;
  }

  get baseUrl() {
    return this.page.getByLabel('Base URL', { exact: true });
  }
  get apiKey() {
    return this.page.getByLabel('API key', { exact: true });
  }
  get remember() {
    return this.page.getByRole('checkbox', { name: /Remember this key on this device/ });
  }
  get connectButton() {
    return this.page.getByRole('button', { name: 'Connect', exact: true });
  }
  /** The header's account button (its name is "Account: <key label> <balance>"). */
  get accountButton() {
    return this.page.getByRole('button', { name: /^Account: / });
  }
  get catalog() {
    return this.page.getByRole('navigation', { name: 'Catalog' });
  }
  get search() {
    return this.page.getByRole('searchbox', { name: 'Search catalog' });
  }
  get category() {
    return this.page.getByRole('combobox', { name: 'Category', exact: true });
  }
  get prompt() {
    return this.page.getByRole('textbox', { name: 'Prompt', exact: true });
  }
  get quote() {
    return this.page.getByRole('region', { name: 'Quote', exact: true });
  }
  get copyRequestButton() {
    return this.page.getByRole('button', { name: 'Copy request', exact: true });
  }

  tab(name: 'Models' | 'AI tools' | 'Templates') {
    return this.page.getByRole('tab', { name, exact: true });
  }
  panel(name: 'Models' | 'AI tools' | 'Templates') {
    return this.page.getByRole('tabpanel', { name, exact: true });
  }

  /** The open form, named by its title (the model, tool or template name). */
  form(name?: string | RegExp) {
    return name === undefined
      ? this.page.getByRole('region', { name: 'Form' }).getByRole('form')
      : this.page.getByRole('form', { name, exact: true });
  }

  /** The catalog card (a button) whose name, as its own line of text, is exactly `name`. */
  card(name: string, within: Locator = this.catalog) {
    return within
      .getByRole('listitem')
      .filter({ has: this.page.getByText(name, { exact: true }) })
      .getByRole('button');
  }

  async goto(path = '/') {
    await this.page.goto(path);
    await expect(this.page.getByRole('heading', { name: 'Media Studio' })).toBeVisible();
    // The page loads the studio's script after its first paint (scripts/first-paint.ts), maybe after the
    // load event: wait until React holds the root (it sets its container key on it), so a choice made
    // next is React's to see (an event before then is one React never hears).
    await this.page.waitForFunction(() =>
      Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer$')),
    );
  }

  /** Opens the studio and connects with the demo key: where most tests begin. */
  async start(keyName: DemoKeyName = 'personal', options: { remember?: boolean } = {}) {
    await this.goto();
    await this.connect(keyName, options);
  }

  /** Types the key into "API key" (the Base URL is prefilled) and connects; waits for the account button. */
  async connect(keyName: DemoKeyName, { remember = false }: { remember?: boolean } = {}) {
    await this.fillKey(this.keyOf(keyName), { remember });
    await expect(this.accountButton).toBeVisible();
  }

  /** Fills the connect form and presses Connect, without waiting for the outcome. */
  async fillKey(key: string, { remember = false }: { remember?: boolean } = {}) {
    await expect(this.baseUrl).toHaveValue(/^https?:\/\//);
    await this.apiKey.fill(key);
    if (remember) await this.remember.check();
    await this.connectButton.click();
  }

  async openAccount() {
    await this.accountButton.click();
    const dialog = this.page.getByRole('dialog', { name: 'Account' });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** On a phone the catalog is a sheet over the form, opened with "Choose model" (docs/phone.md). */
  async showCatalog() {
    const choose = this.page.getByRole('button', { name: 'Choose model', exact: true });
    if (await choose.isVisible()) await choose.click();
    await expect(this.catalog).toBeVisible();
  }

  async chooseCategory(category: string) {
    await this.showCatalog();
    await this.tab('Models').click();
    await this.category.selectOption(category);
  }

  /** Opens a model from the Models tab (in the given category) and waits for its form. */
  async openModel(name: string, category: string = 'image/default') {
    await this.chooseCategory(category);
    await this.card(name, this.panel('Models')).click();
    await expect(this.form(name)).toBeVisible();
    return this.form(name);
  }

  async openTool(name: string) {
    await this.showCatalog();
    await this.tab('AI tools').click();
    await this.card(name, this.panel('AI tools')).click();
    await expect(this.form(name)).toBeVisible();
    return this.form(name);
  }

  async openTemplate(name: string) {
    await this.showCatalog();
    await this.tab('Templates').click();
    await this.card(name, this.panel('Templates')).click();
    await expect(this.form(name)).toBeVisible();
    return this.form(name);
  }

  /** The exact POST /tasks body the form would send, read from "Copy request" (its curl --data-raw). */
  async requestBody(): Promise<Record<string, unknown>> {
    await this.copyRequestButton.click();
    const dialog = this.page.getByRole('dialog', { name: 'Copy request' });
    const curl = (await dialog.getByTestId('request-curl').textContent()) ?? '';
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    const quoted = /--data-raw '([\s\S]*)'\s*$/.exec(curl)?.[1];
    expect(quoted, 'the curl command carries a body').toBeDefined();
    return JSON.parse(quoted!.replaceAll(`'\\''`, `'`)) as Record<string, unknown>;
  }

  /** The credits the Quote region shows once it is settled (not marked as updating). */
  async quotedCredits(): Promise<string> {
    await expect(this.quote.getByText('updating')).toBeHidden();
    return (await this.quote.getByTestId('quote-credits').textContent()) ?? '';
  }
}

/** "1,234 credits" / "1 credit", as the studio writes credits. */
export const creditsText = (n: number) => {
  const rounded = Number.isInteger(n) ? n : Math.round(n * 100) / 100;
  return `${rounded.toLocaleString('en-US')} ${rounded === 1 ? 'credit' : 'credits'}`;
};

interface Fixtures {
  resetSandbox: void;
  demoKeys: Record<string, string>;
  sandbox: Sandbox;
  studio: Studio;
  history: History;
}

export const test = base.extend<Fixtures>({
  resetSandbox: [
    async ({ request }, use) => {
      // A test that simulated an outage (POST /__sandbox/outage) may end before it is over: wait it out.
      await expect
        .poll(
          async () =>
            (await request.post(`${SANDBOX_ORIGIN}/__sandbox/reset`).catch(() => null))?.ok() ?? false,
          { timeout: 45_000, message: 'the sandbox answers POST /__sandbox/reset' },
        )
        .toBe(true);
      await use();
    },
    { auto: true },
  ],
  demoKeys: async ({ request }, use) => {
    const res = await request.get(`${SANDBOX_ORIGIN}/__sandbox/keys`);
    const list = (await res.json()) as Array<{ name: string; key: string }>;
    await use(Object.fromEntries(list.map((k) => [k.name, k.key])));
  },
  sandbox: async ({ request, demoKeys }, use) => {
    await use(new Sandbox(request, demoKeys));
  },
  studio: async ({ page, demoKeys }, use) => {
    await use(new Studio(page, demoKeys));
  },
  history: async ({ page }, use) => {
    await use(new History(page));
  },
});

export { expect };
