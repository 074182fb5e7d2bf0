import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider, type ApiConnection } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import { describeError } from '../../api/errors';
import type { ImageDescription } from '../../../contract/describe';
import {
  DescribeImageDialog,
  type DescribeImageDialogProps,
  type ImageInputSlotProps,
} from './describe-dialog';

// The dialog against a real ApiClient whose fetch is a stub: requests are checked as sent and the
// answers (successes and api-notes §7 error bodies) go through the client's own parsing and error table.

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const BASE_URL = 'https://api.example.test/v1';
const IMAGE = 'https://cdn.example.test/uploads/u_1/teapot.jpg';
const OTHER_IMAGE = 'https://cdn.example.test/uploads/u_2/lamp.png';

const DESCRIPTION: ImageDescription = {
  credits: 1,
  overallDescription: 'A glass teapot on a wooden table, lit by a window.',
  subject: 'A transparent glass teapot with amber tea.',
  composition: 'Centered, low angle, shallow depth of field.',
  style: 'Product photography.',
  lighting: 'Soft daylight from the left.',
  palette: 'Amber, warm browns, white.',
  mood: 'Calm, homely.',
  camera: '50 mm lens, f/1.8.',
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const errorBody = (code: string, type: string, extra: Record<string, unknown> = {}) => ({
  error: { message: `server says ${code}`, type, code, ...extra },
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The slot as the tests fill it: a plain URL input named by the dialog's label. */
function PlainImageInput({ value, onChange, control, label }: ImageInputSlotProps) {
  return (
    <input
      {...control}
      aria-labelledby={label.id}
      type="url"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

interface SetupOptions {
  /** Answers POST /describe-image, call by call (the last one repeats). */
  answers?: Array<() => Response | Promise<Response>>;
  useAsPrompt?: boolean;
  connected?: boolean;
  sleep?: (ms: number) => Promise<void>;
}

function setup({
  answers = [() => json(200, DESCRIPTION)],
  useAsPrompt = true,
  connected = true,
  sleep = async () => undefined,
}: SetupOptions = {}) {
  let call = 0;
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const answer = answers[Math.min(call, answers.length - 1)];
    call += 1;
    if (!answer) throw new Error('no answer');
    return answer();
  });
  const client = new ApiClient({ baseUrl: BASE_URL, apiKey: 'test-key', fetch: fetchMock, sleep });
  const connection: ApiConnection | null = connected
    ? { client, connectionId: 'test-connection', baseUrl: client.baseUrl }
    : null;
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const onUseAsPrompt = vi.fn<(text: string) => void>();
  const onOpenChange = vi.fn<(open: boolean) => void>();

  function Harness() {
    const [open, setOpen] = useState(true);
    const props: DescribeImageDialogProps = {
      open,
      onOpenChange: (next) => {
        onOpenChange(next);
        setOpen(next);
      },
      renderImageInput: (slot) => <PlainImageInput {...slot} />,
      ...(useAsPrompt ? { onUseAsPrompt } : {}),
    };
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Reopen
        </button>
        <DescribeImageDialog {...props} />
      </>
    );
  }
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ApiProvider value={connection}>{children}</ApiProvider>
    </QueryClientProvider>
  );
  const user = userEvent.setup();
  render(<Harness />, { wrapper });

  const dialog = () => screen.getByRole('dialog', { name: 'Describe image' });
  const imageInput = () => within(dialog()).getByRole<HTMLInputElement>('textbox', { name: 'Image' });
  const languageSelect = () =>
    within(dialog()).getByRole<HTMLSelectElement>('combobox', { name: 'Language' });
  const describeButton = () => within(dialog()).getByRole<HTMLButtonElement>('button', { name: 'Describe' });
  /** The JSON bodies sent to POST /describe-image, in order. */
  const sentBodies = () =>
    fetchMock.mock.calls.map(([url, init]) => {
      expect(String(url)).toBe(`${BASE_URL}/describe-image`);
      expect(init?.method).toBe('POST');
      return JSON.parse(String(init?.body)) as unknown;
    });
  /** [label, text] of every field shown. */
  const shownFields = () =>
    [...within(dialog()).getByTestId('description-fields').querySelectorAll('dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]);

  return {
    user,
    fetchMock,
    onUseAsPrompt,
    onOpenChange,
    dialog,
    imageInput,
    languageSelect,
    describeButton,
    sentBodies,
    shownFields,
  };
}

describe('DescribeImageDialog: the form', () => {
  it('offers the image, the nine languages named in the studio’s language and the cost; Describe waits for an image', async () => {
    const t = setup();
    expect(t.dialog()).toBeTruthy();
    expect(t.describeButton().disabled).toBe(true);

    const options = within(t.languageSelect()).getAllByRole<HTMLOptionElement>('option');
    expect(options.map((o) => [o.value, o.textContent])).toEqual([
      ['en', 'English'],
      ['zh', 'Chinese (Simplified)'],
      ['zh-TW', 'Chinese (Traditional)'],
      ['ja', 'Japanese'],
      ['fr', 'French'],
      ['es', 'Spanish'],
      ['de', 'German'],
      ['pt', 'Portuguese'],
      ['ru', 'Russian'],
    ]);
    expect(t.languageSelect().value).toBe('en');

    // The cost note describes the button.
    const noteId = t.describeButton().getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(noteId)?.textContent).toBe('Costs 1 credit per description.');

    await t.user.type(t.imageInput(), '   ');
    expect(t.describeButton().disabled).toBe(true);
    await t.user.clear(t.imageInput());
    await t.user.type(t.imageInput(), IMAGE);
    expect(t.describeButton().disabled).toBe(false);
    expect(t.fetchMock).not.toHaveBeenCalled();
  });

  it('is disabled with a note when no API is connected', async () => {
    const t = setup({ connected: false });
    await t.user.type(t.imageInput(), IMAGE);
    expect(t.describeButton().disabled).toBe(true);
    expect(within(t.dialog()).getByText('Connect to the API to describe images.')).toBeTruthy();
  });
});

describe('DescribeImageDialog: a description', () => {
  it('sends the image and language once, then shows every field in order and the charge', async () => {
    const t = setup();
    await t.user.type(t.imageInput(), `  ${IMAGE} `);
    await t.user.selectOptions(t.languageSelect(), 'ja');
    await t.user.click(t.describeButton());

    expect(await within(t.dialog()).findByText(DESCRIPTION.overallDescription)).toBeTruthy();
    expect(t.sentBodies()).toEqual([{ imageUrl: IMAGE, language: 'ja' }]);
    expect(t.shownFields()).toEqual([
      ['Overall description', DESCRIPTION.overallDescription],
      ['Subject', DESCRIPTION.subject],
      ['Composition', DESCRIPTION.composition],
      ['Style', DESCRIPTION.style],
      ['Lighting', DESCRIPTION.lighting],
      ['Palette', DESCRIPTION.palette],
      ['Mood', DESCRIPTION.mood],
      ['Camera', DESCRIPTION.camera],
    ]);
    expect(within(t.dialog()).getByText('1 credit charged')).toBeTruthy();
    // The text is marked with the language it was written in.
    expect(within(t.dialog()).getByText(DESCRIPTION.subject).getAttribute('lang')).toBe('ja');
    expect(within(t.dialog()).getByRole('region', { name: 'Description' })).toBeTruthy();
  });

  it('leaves Camera out when it is null, says "Not given" for an empty field, and shows the credits charged', async () => {
    const t = setup({
      answers: [() => json(200, { ...DESCRIPTION, camera: null, mood: '', credits: 2 })],
    });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    await within(t.dialog()).findByText(DESCRIPTION.overallDescription);
    const fields = t.shownFields();
    expect(fields.map(([label]) => label)).not.toContain('Camera');
    expect(fields).toHaveLength(7);
    expect(fields).toContainEqual(['Mood', 'Not given']);
    expect(within(t.dialog()).getByText('2 credits charged')).toBeTruthy();
  });

  it('renders the service text as inert text (markup stays text, bidi overrides are removed)', async () => {
    const markup = '<img src=x onerror="document.title=1"> <script>alert(1)</script>';
    const t = setup({
      answers: [
        () => json(200, { ...DESCRIPTION, overallDescription: markup, subject: 'see \u202Egpj.exe' }),
      ],
    });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    expect(await within(t.dialog()).findByText(markup)).toBeTruthy();
    expect(within(t.dialog()).getByText('see gpj.exe')).toBeTruthy();
    expect(t.dialog().querySelector('img, script')).toBeNull();
  });

  it('"Use as prompt" passes overallDescription and closes the dialog', async () => {
    const t = setup();
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    await t.user.click(await within(t.dialog()).findByRole('button', { name: 'Use as prompt' }));
    expect(t.onUseAsPrompt).toHaveBeenCalledTimes(1);
    expect(t.onUseAsPrompt).toHaveBeenCalledWith(DESCRIPTION.overallDescription);
    expect(t.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('has no "Use as prompt" without onUseAsPrompt, and says to open a model with a prompt', async () => {
    const t = setup({ useAsPrompt: false });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    await within(t.dialog()).findByText(DESCRIPTION.overallDescription);
    expect(within(t.dialog()).queryByRole('button', { name: 'Use as prompt' })).toBeNull();
    expect(within(t.dialog()).getByText(/open a model that has one/)).toBeTruthy();
    expect(within(t.dialog()).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('"Copy" writes overallDescription and says "Copied"; a refused clipboard is reported', async () => {
    const t = setup();
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    const copy = await within(t.dialog()).findByRole('button', { name: 'Copy' });

    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await t.user.click(copy);
    expect(writeText).toHaveBeenCalledWith(DESCRIPTION.overallDescription);
    expect(await within(t.dialog()).findByText('Copied')).toBeTruthy();

    writeText.mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    await t.user.click(copy);
    expect(
      await within(t.dialog()).findByText('Could not copy: the clipboard is not available.'),
    ).toBeTruthy();
    expect(within(t.dialog()).queryByText('Copied')).toBeNull();
  });

  it('changing the image clears the previous result', async () => {
    const t = setup();
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    await within(t.dialog()).findByText(DESCRIPTION.overallDescription);

    await t.user.clear(t.imageInput());
    await t.user.type(t.imageInput(), OTHER_IMAGE);
    expect(within(t.dialog()).queryByText(DESCRIPTION.overallDescription)).toBeNull();
    expect(within(t.dialog()).queryByRole('button', { name: 'Use as prompt' })).toBeNull();
    expect(t.describeButton().disabled).toBe(false);
  });

  it('keeps the image, language and result when closed and reopened', async () => {
    const t = setup();
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.selectOptions(t.languageSelect(), 'de');
    await t.user.click(t.describeButton());
    await within(t.dialog()).findByText(DESCRIPTION.overallDescription);

    await t.user.click(within(t.dialog()).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await t.user.click(screen.getByRole('button', { name: 'Reopen' }));

    expect(t.imageInput().value).toBe(IMAGE);
    expect(t.languageSelect().value).toBe('de');
    expect(within(t.dialog()).getByText(DESCRIPTION.overallDescription)).toBeTruthy();
    expect(t.fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe('DescribeImageDialog: while running', () => {
  it('shows a spinner and ignores further clicks until the answer', async () => {
    const answer = deferred<Response>();
    const t = setup({ answers: [() => answer.promise] });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());

    const button = t.describeButton();
    expect(button.getAttribute('aria-disabled')).toBe('true');
    // Inert but not `disabled`, so the keyboard focus stays on it rather than falling to the page.
    expect(button.disabled).toBe(false);
    expect(document.activeElement).toBe(button);
    expect(button.querySelector('.animate-spin')).toBeTruthy();
    expect(within(t.dialog()).getByText('Describing the image…')).toBeTruthy();
    await t.user.click(button);
    expect(t.fetchMock).toHaveBeenCalledTimes(1);

    answer.resolve(json(200, DESCRIPTION));
    expect(await within(t.dialog()).findByText(DESCRIPTION.overallDescription)).toBeTruthy();
    expect(t.describeButton().getAttribute('aria-disabled')).toBeNull();
    expect(t.describeButton().querySelector('.animate-spin')).toBeNull();
    expect(within(t.dialog()).queryByText('Describing the image…')).toBeNull();
  });

  it('a new image abandons the request in flight; its late answer is not shown', async () => {
    const answer = deferred<Response>();
    const other = { ...DESCRIPTION, overallDescription: 'A brass lamp on a desk.' };
    const t = setup({ answers: [() => answer.promise, () => json(200, other)] });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    expect(t.describeButton().getAttribute('aria-disabled')).toBe('true');

    await t.user.clear(t.imageInput());
    await t.user.type(t.imageInput(), OTHER_IMAGE);
    expect(t.fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
    expect(t.describeButton().getAttribute('aria-disabled')).toBeNull();
    expect(t.describeButton().disabled).toBe(false);

    // Whatever the dialog shows from now on, even for a moment, is seen.
    let lateShown = false;
    const watch = new MutationObserver(() => {
      lateShown ||= t.dialog().textContent?.includes(DESCRIPTION.overallDescription) ?? false;
    });
    watch.observe(t.dialog(), { subtree: true, childList: true, characterData: true });
    answer.resolve(json(200, DESCRIPTION));
    // No timed wait (a loaded machine must not fail it): the late answer is already resolved when the new
    // image is described, so by the time the new result shows, the late one has had every chance to show
    // first.
    await t.user.click(t.describeButton());
    expect(await within(t.dialog()).findByText(other.overallDescription)).toBeTruthy();
    watch.disconnect();
    expect(lateShown, 'the late answer was never shown').toBe(false);
    expect(within(t.dialog()).queryByText(DESCRIPTION.overallDescription)).toBeNull();
    expect(within(t.dialog()).queryByRole('alert')).toBeNull();
  });

  it('says when the client waits to retry a refunded 503, then shows the result', async () => {
    const wait = deferred<void>();
    const sleep = vi.fn(() => wait.promise);
    const t = setup({
      answers: [() => json(503, errorBody('vision_unavailable', 'api_error')), () => json(200, DESCRIPTION)],
      sleep,
    });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    expect(
      await within(t.dialog()).findByText(
        'The description service is busy: trying again in 1 s (retry 1 of 3).',
      ),
    ).toBeTruthy();
    wait.resolve();
    expect(await within(t.dialog()).findByText(DESCRIPTION.overallDescription)).toBeTruthy();
    expect(t.fetchMock).toHaveBeenCalledTimes(2);
    expect(within(t.dialog()).queryByText(/trying again/)).toBeNull();
  });
});

describe('DescribeImageDialog: errors', () => {
  it('402 insufficient_credits: its message and remedy; the image and language stay for a retry', async () => {
    const extra = { balance: 0, credits: 1 };
    const t = setup({
      answers: [
        () => json(402, errorBody('insufficient_credits', 'invalid_request_error', extra)),
        () => json(200, DESCRIPTION),
      ],
    });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.selectOptions(t.languageSelect(), 'fr');
    await t.user.click(t.describeButton());

    const expected = describeError({ status: 402, code: 'insufficient_credits', extra });
    const alert = await within(t.dialog()).findByRole('alert');
    expect(within(alert).getByText(expected.message)).toBeTruthy();
    expect(expected.message).toMatch(/Nothing was charged/);
    expect(within(alert).getByText(expected.remedy ?? '')).toBeTruthy();
    expect(within(t.dialog()).queryByText(/credit charged/)).toBeNull();
    // Not retried: a 402 is not one of api-notes §7's retryable failures.
    expect(t.fetchMock).toHaveBeenCalledTimes(1);

    expect(t.imageInput().value).toBe(IMAGE);
    expect(t.languageSelect().value).toBe('fr');
    expect(t.describeButton().disabled).toBe(false);

    await t.user.click(t.describeButton());
    expect(await within(t.dialog()).findByText(DESCRIPTION.overallDescription)).toBeTruthy();
    expect(within(t.dialog()).queryByRole('alert')).toBeNull();
    expect(t.sentBodies()).toEqual([
      { imageUrl: IMAGE, language: 'fr' },
      { imageUrl: IMAGE, language: 'fr' },
    ]);
  });

  it('422 policy_violation: says the credit was refunded, with the remedy; the image stays', async () => {
    const t = setup({ answers: [() => json(422, errorBody('policy_violation', 'invalid_request_error'))] });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());

    const expected = describeError({ status: 422, code: 'policy_violation', extra: {} });
    const alert = await within(t.dialog()).findByRole('alert');
    expect(within(alert).getByText(expected.message)).toBeTruthy();
    expect(expected.message).toMatch(/refunded/);
    expect(within(alert).getByText(expected.remedy ?? '')).toBeTruthy();
    expect(t.fetchMock).toHaveBeenCalledTimes(1);
    expect(t.imageInput().value).toBe(IMAGE);
    expect(t.describeButton().disabled).toBe(false);
  });

  it('an error is cleared by choosing another image', async () => {
    const t = setup({ answers: [() => json(422, errorBody('policy_violation', 'invalid_request_error'))] });
    await t.user.type(t.imageInput(), IMAGE);
    await t.user.click(t.describeButton());
    await within(t.dialog()).findByRole('alert');
    await t.user.clear(t.imageInput());
    expect(within(t.dialog()).queryByRole('alert')).toBeNull();
  });
});
