import { expect, type Locator, type Page } from '@playwright/test';

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** What these helpers use of the studio fixture (fixtures.ts), named here so neither file imports the other. */
interface StudioPage {
  page: Page;
  prompt: Locator;
  apiKey: Locator;
  openAccount(): Promise<Locator>;
}

// Page objects for the task tests (product-notes §3 "Submit", "History and gallery"):
// the region "History", its cards and their detail view, found by role and label (product-notes §5).

/** Video and audio need ffmpeg in the sandbox; a generous bound that a healthy run never nears. */
export const TASK_TIMEOUT = 30_000;

/** A prompt no other test uses, so a card is found by its own text. */
export const uniquePrompt = (what: string) =>
  `${what} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The region "History" and its cards. */
export class History {
  readonly region: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: 'History', exact: true });
  }

  /** Every task card in the list (the cards in view: the list is virtualised). */
  get cards(): Locator {
    return this.region.getByRole('list', { name: 'Tasks', exact: true }).getByRole('listitem');
  }

  /** The card whose prompt is exactly `prompt`. */
  card(prompt: string): Locator {
    return this.cards.filter({ has: this.page.getByText(prompt, { exact: true }) });
  }

  /** The card's title button, which opens its detail; its description is "<status> <prompt>". */
  opener(card: Locator): Locator {
    return card.getByRole('heading').getByRole('button');
  }

  async expectStatus(card: Locator, status: TaskStatus, timeout = TASK_TIMEOUT): Promise<void> {
    await expect(this.opener(card)).toHaveAccessibleDescription(new RegExp(`^${status}\\b`), { timeout });
  }

  /** The card's task id, which the detail view shows next to the status. */
  async taskIdOf(card: Locator): Promise<string> {
    const dialog = await this.openDetail(card);
    const id = (await dialog.getByText(/^task_[\w-]+$/).textContent())?.trim() ?? '';
    await this.closeDetail(dialog);
    return id;
  }

  /** Opens the card's detail view (a dialog named by the card's title). */
  async openDetail(card: Locator): Promise<Locator> {
    const title = (await this.opener(card).textContent())?.trim() ?? '';
    await this.opener(card).click();
    const dialog = this.page.getByRole('dialog', { name: title, exact: true });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  async closeDetail(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  /** What the list shows, newest first: prompt and status of each card. */
  async summary(): Promise<Array<{ prompt: string; status: string }>> {
    const out: Array<{ prompt: string; status: string }> = [];
    for (const card of await this.cards.all()) {
      const description = await this.opener(card).evaluate((el) => {
        const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
        return ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '');
      });
      out.push({ status: description[0] ?? '', prompt: description[1] ?? '' });
    }
    return out;
  }
}

/** Types the prompt and clicks "Generate"; waits until the studio has an answer for that click. */
export async function generate(studio: StudioPage, prompt: string): Promise<void> {
  await studio.prompt.fill(prompt);
  const button = studio.page.getByRole('button', { name: 'Generate', exact: true });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(studio.page.getByRole('status').filter({ hasText: 'Queued: see History.' })).toBeVisible({
    timeout: 15_000,
  });
}

/** Waits until the <img> has loaded and decoded a picture (naturalWidth > 0). */
export async function expectImageLoaded(img: Locator): Promise<void> {
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0)), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
}

/** Loads the <video> and waits until it has a frame to show (readyState >= HAVE_CURRENT_DATA). */
export async function expectVideoPlayable(video: Locator): Promise<void> {
  await video.evaluate((el: HTMLVideoElement) => {
    el.muted = true;
    el.preload = 'auto';
    el.load();
  });
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => (el.error ? -1 : el.readyState)), {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(2);
  expect(await video.evaluate((el: HTMLVideoElement) => el.videoWidth)).toBeGreaterThan(0);
}

/** Loads the <audio> and waits for its metadata (readyState >= HAVE_METADATA) and a length. */
export async function expectAudioLoaded(audio: Locator): Promise<void> {
  await audio.evaluate((el: HTMLAudioElement) => {
    el.preload = 'auto';
    el.load();
  });
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => (el.error ? -1 : el.readyState)), {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(1);
  expect(await audio.evaluate((el: HTMLAudioElement) => el.duration)).toBeGreaterThan(0);
}

/** Disconnects from the Account dialog, back to the connect form. */
export async function disconnect(studio: StudioPage): Promise<void> {
  const dialog = await studio.openAccount();
  await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(studio.apiKey).toBeVisible();
}

/** The extension a file of this Content-Type must be saved with. */
export const EXTENSION_OF: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
};

export const extensionOfUrl = (url: string) => /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1];
