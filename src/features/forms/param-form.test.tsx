import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, type ComponentProps } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiProvider } from '../../api/api-context';
import { ApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { NoticeArea } from '../../components/notice-area';
import type { Model } from '../../../contract/catalog';
import type { TaskRequest } from '../../../contract/task';
import type { ResolvedSelection } from '../../model/selection';
import { draftKey } from './drafts';
import { ParamForm, type FormSnapshot } from './param-form';
import {
  BASE_URL,
  everyTypeModel,
  FOREIGN,
  fixtureModel,
  fixtureTemplate,
  fixtureTool,
  hosted,
} from '../../test/sandbox-catalog';

// A real ApiClient whose network is a stub: the methods the form uses are replaced per test.
function fakeClient(): ApiClient {
  const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('{}', { status: 500 }));
  return new ApiClient({ baseUrl: BASE_URL, apiKey: 'gm_live_0123456789abcdefghijklmnopqrstuv', fetch });
}

type Props = Omit<ComponentProps<typeof ParamForm>, 'onChange' | 'baseUrl'>;

function renderForm(props: Props, client: ApiClient = fakeClient()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onChange = vi.fn<(snapshot: FormSnapshot) => void>();
  const tree = (p: Props) => (
    <QueryClientProvider client={queryClient}>
      <ApiProvider value={{ client, connectionId: 'conn-1', baseUrl: BASE_URL }}>
        <ParamForm baseUrl={BASE_URL} onChange={onChange} {...p} />
      </ApiProvider>
    </QueryClientProvider>
  );
  const utils = render(tree(props));
  return {
    ...utils,
    client,
    onChange,
    last: (): FormSnapshot => {
      const call = onChange.mock.lastCall;
      if (!call) throw new Error('onChange was never called');
      return call[0];
    },
    /** The first snapshot, made in a task after the one that mounted the form. */
    mounted: (): Promise<FormSnapshot> =>
      vi.waitFor(() => {
        const call = onChange.mock.lastCall;
        if (!call) throw new Error('onChange was never called');
        return call[0];
      }),
    update: (p: Props) => utils.rerender(tree(p)),
  };
}

const modelTarget = (model: Model, versionId = model.versions[0]!.id): ResolvedSelection => ({
  kind: 'model',
  model,
  versionId,
});

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ParamForm for a model with every param type', () => {
  it('labels each field by displayName (or id) with the right kind of control', () => {
    renderForm({ target: modelTarget(everyTypeModel()) });

    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    expect(prompt.tagName).toBe('TEXTAREA');
    expect(prompt).toHaveProperty('required', false);
    expect(prompt.getAttribute('aria-required')).toBe('true');

    const version = screen.getByRole('combobox', { name: 'Version' });
    expect(
      within(version)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['v2 · ~4 credits / image', 'v3 HD · ~6 credits / image']);

    // enum: segmented radio groups for a few short options (string, {value,label}, enumValues, numeric).
    for (const name of [
      'Number of images',
      'Style',
      'Enhance',
      'Guidance',
      'Edge feather',
      'camera.motion',
      'Language',
    ]) {
      expect(screen.getByRole('radiogroup', { name })).toBeTruthy();
    }
    expect(
      within(screen.getByRole('radiogroup', { name: 'Number of images' })).getByRole('radio', {
        name: '3 images',
      }),
    ).toBeTruthy();
    // aspect_ratio: boxes drawn to the ratio; resolution: segmented.
    const ratios = screen.getByRole('radiogroup', { name: 'Aspect ratio' });
    expect((within(ratios).getByRole('radio', { name: '16:9' }) as HTMLInputElement).checked).toBe(false);
    expect((within(ratios).getByRole('radio', { name: '1:1' }) as HTMLInputElement).checked).toBe(true);
    expect(within(screen.getByRole('radiogroup', { name: 'Resolution' })).getAllByRole('radio')).toHaveLength(
      3,
    );

    // text and long_text
    expect(screen.getByRole('textbox', { name: 'Things to avoid' }).tagName).toBe('TEXTAREA');
    expect(screen.getByRole('textbox', { name: 'seed' }).tagName).toBe('INPUT');
    expect(screen.getByRole('textbox', { name: 'Text in the artwork' }).tagName).toBe('INPUT');

    // media: a group with a URL input of the same name, a file input "Upload file" and a
    // keyboard-reachable "Browse files" button that opens it.
    for (const name of [
      'Source image',
      'Photo',
      'Mask',
      'First frame',
      'Last frame',
      'Video to extend',
      'Speech audio',
    ]) {
      const group = screen.getByRole('group', { name });
      const url = within(group).getByRole('textbox', { name });
      expect(url.getAttribute('type')).toBe('url');
      const file = within(group).getByLabelText('Upload file');
      expect(file.getAttribute('type')).toBe('file');
      expect(within(group).getByRole('button', { name: 'Browse files' })).toBeTruthy();
    }
    expect(
      within(screen.getByRole('group', { name: 'Video to extend' }))
        .getByLabelText('Upload file')
        .getAttribute('accept'),
    ).toBe('video/mp4,video/webm,video/quicktime');
    // image_urls
    const refs = screen.getByRole('group', { name: 'Style references' });
    expect(within(refs).getByRole('textbox', { name: 'Style references' })).toBeTruthy();
    expect(within(refs).getByRole('button', { name: 'Add' })).toBeTruthy();
    expect(within(refs).getByText('0 / 4')).toBeTruthy();

    // voice: a select of the voices and a play button for the one chosen (it has a preview).
    const voice = screen.getByRole('combobox', { name: 'Voice' });
    expect(within(voice).getByRole('option', { name: 'Bram: calm, British' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play preview of Aria: warm, American English' })).toBeTruthy();

    // unknown type: a text input with a visible note
    expect(screen.getByRole('textbox', { name: 'Background colour' }).getAttribute('type')).toBe('text');
    expect(screen.getByText('unrecognised parameter type color_hex')).toBeTruthy();

    // Required fields are marked.
    expect(screen.getByRole('textbox', { name: 'Photo' }).getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Source image' }).getAttribute('aria-required')).toBeNull();
  });

  it('shows the target header as text', () => {
    renderForm({ target: modelTarget(everyTypeModel()) });
    expect(screen.getByRole('heading', { name: 'Every type' })).toBeTruthy();
    expect(screen.getByText('Lumen Labs')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Every type' })).toBeTruthy();
  });

  it('counts characters live against the limit', async () => {
    const user = userEvent.setup();
    renderForm({ target: modelTarget(everyTypeModel()) });
    expect(screen.getAllByText('0 / 4,000')).toHaveLength(1);
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a fox');
    expect(screen.getByText('5 / 4,000')).toBeTruthy();
    expect(screen.getByText('0 / 40')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'seed' }), '12345678901');
    expect(screen.getByText('11 / 10')).toBeTruthy();
    expect(screen.getByText('At most 10 characters (now 11).')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'seed' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('emits the exact request on mount and on every change, dotted ids as exact keys', async () => {
    const user = userEvent.setup();
    const { last, mounted, onChange } = renderForm({
      target: modelTarget(everyTypeModel(), 'lumen-canvas-v3'),
    });
    // Not in the task that mounted the form (its validation and draft are a task of their own).
    expect(onChange).not.toHaveBeenCalled();
    const first = await mounted();
    expect(first.valid).toBe(false);
    expect(first.errors.prompt).toBe('This field is required.');
    expect(first.request).toEqual({
      interfaceId: 'every-type',
      versionId: 'lumen-canvas-v3',
      params: {
        aspect_ratio: '1:1',
        resolution: '1K',
        num_images: 1,
        style: 'photographic',
        enhance: 'off',
        'advanced.guidance': 'medium',
        background_color: '#ffffff',
        feather: 8,
        'camera.motion': 'static',
        voice: 'aria',
        language: 'en',
      },
    });

    await user.click(
      within(screen.getByRole('radiogroup', { name: 'camera.motion' })).getByRole('radio', { name: 'orbit' }),
    );
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Guidance' })).getByRole('radio', { name: 'high' }),
    );
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Number of images' })).getByRole('radio', {
        name: '3 images',
      }),
    );
    await user.click(
      within(screen.getByRole('radiogroup', { name: 'Edge feather' })).getByRole('radio', { name: 'None' }),
    );
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a lighthouse');
    const params = last().request.params;
    expect(params['camera.motion']).toBe('orbit');
    expect(params['advanced.guidance']).toBe('high');
    expect(params.num_images).toBe(3);
    expect(params.feather).toBe(0);
    expect(params.prompt).toBe('a lighthouse');
    expect(Object.keys(params)).not.toContain('camera');
    expect(Object.keys(params)).not.toContain('advanced');
  });

  it('marks the params of missing_required_params and the param of any error on their fields', () => {
    const target = modelTarget(everyTypeModel());
    const { update } = renderForm({ target });
    expect(screen.queryByText('This field is required.')).toBeNull();
    update({
      target,
      serverError: new ApiError({
        status: 400,
        code: 'missing_required_params',
        type: 'invalid_request_error',
        extra: { params: [{ id: 'image_url', type: 'image_url', required: true }, { id: 'camera.motion' }] },
      }),
    });
    const photo = screen.getByRole('textbox', { name: 'Photo' });
    expect(photo.getAttribute('aria-invalid')).toBe('true');
    expect(
      within(screen.getByRole('group', { name: 'Photo' })).getByText('This field is required.'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('group', { name: 'camera.motion' })).getByText('This field is required.'),
    ).toBeTruthy();
    expect(document.activeElement).toBe(photo);

    update({
      target,
      serverError: new ApiError({
        status: 400,
        code: 'invalid_payload',
        type: 'invalid_request_error',
        param: 'advanced.guidance',
        serverMessage: 'guidance is not available for v2',
      }),
    });
    expect(
      within(screen.getByRole('group', { name: 'Guidance' })).getByText('guidance is not available for v2'),
    ).toBeTruthy();

    update({
      target,
      serverError: new ApiError({
        status: 400,
        code: 'invalid_payload',
        type: 'invalid_request_error',
        param: 'edge_mode',
        serverMessage: 'fixed',
      }),
    });
    expect(screen.getByText('The service refused inputs this form does not show')).toBeTruthy();
    expect(screen.getByText('edge_mode')).toBeTruthy();
  });

  it('refuses a media URL the service does not host', async () => {
    const user = userEvent.setup();
    const { last } = renderForm({ target: modelTarget(everyTypeModel()) });
    const photo = screen.getByRole('textbox', { name: 'Photo' });
    await user.type(photo, FOREIGN);
    expect(
      within(screen.getByRole('group', { name: 'Photo' })).getByText(
        'Upload the file first: only files hosted by the service are accepted',
      ),
    ).toBeTruthy();
    expect(last().errors.image_url).toBe(
      'Upload the file first: only files hosted by the service are accepted',
    );
    await user.clear(photo);
    await user.type(photo, hosted('photo.png'));
    expect(last().errors.image_url).toBeUndefined();
    expect(last().request.params.image_url).toBe(hosted('photo.png'));
    expect(screen.getByRole('img', { name: 'Preview of Photo' }).getAttribute('src')).toBe(
      hosted('photo.png'),
    );
  });
});

describe('untrusted catalog text', () => {
  it('renders option labels, names and summaries with markup as text', () => {
    const base = fixtureTemplate('dreamy-portraits');
    const template = {
      ...base,
      params: [
        {
          id: 'style',
          type: 'enum',
          displayName: 'Style <b>bold</b>',
          description: '<script>alert(1)</script>',
          required: false,
          options: [
            { value: 'a', label: '<img src=x onerror=alert(1)>' },
            { value: 'b', label: 'Plain' },
          ],
          default: 'a',
        },
        {
          id: 'mood',
          type: 'enum',
          required: false,
          options: [{ value: 'x', label: '<b>x</b>' }],
          default: 'x',
        },
      ],
    };
    const { container } = renderForm({ target: { kind: 'template', template } });
    expect(screen.getByRole('option', { name: '<img src=x onerror=alert(1)>' })).toBeTruthy();
    expect(
      screen.getByRole('heading', { name: 'Dreamy portraits <img src=x onerror=alert(1)>' }),
    ).toBeTruthy();
    expect(
      screen.getByText('Soft light portraits <img src=x onerror=alert(document.cookie)> in one click.'),
    ).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Style <b>bold</b>' })).toBeTruthy();
    expect(screen.getByText('<script>alert(1)</script>')).toBeTruthy();
    expect(screen.getByRole('radio', { name: '<b>x</b>' })).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(screen.getByText('Community')).toBeTruthy();
  });
});

describe('tools and templates', () => {
  it('shows only the editable params of a tool and sends {aiTool, params}', async () => {
    const { mounted } = renderForm({ target: { kind: 'tool', tool: fixtureTool('animate-photo') } });
    expect(screen.queryByRole('combobox', { name: 'Version' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Motion' }).tagName).toBe('TEXTAREA');
    expect(screen.getByText('45 / 2,500')).toBeTruthy();
    expect((await mounted()).request).toEqual({
      aiTool: 'animate-photo',
      params: { prompt: 'Subtle natural motion, gentle camera push-in.' },
    });
  });

  it('sends {template, params} and marks official templates', async () => {
    const { last, mounted } = renderForm({
      target: { kind: 'template', template: fixtureTemplate('neon-city-poster') },
    });
    expect(screen.getByText('Official')).toBeTruthy();
    expect((await mounted()).request).toEqual({
      template: 'neon-city-poster',
      params: { aspect_ratio: '3:4' },
    });
    expect(last().valid).toBe(true);
  });
});

describe('submitting', () => {
  const pop = () => modelTarget(fixtureModel('pixelmoss-pop'));

  it('calls onSubmit on Ctrl/Cmd+Enter only when valid', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(request: TaskRequest) => void>();
    renderForm({ target: pop(), onSubmit });
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    await user.click(prompt);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(await screen.findByText('This field is required.')).toBeTruthy();

    await user.type(prompt, 'a cat');
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.lastCall![0]).toEqual({
      interfaceId: 'pixelmoss-pop',
      versionId: 'pixelmoss-pop-1',
      params: { prompt: 'a cat', aspect_ratio: '1:1', resolution: '512' },
    });
  });

  it('does not submit on a plain Enter in a one-line input', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(request: TaskRequest) => void>();
    renderForm({ target: pop(), onSubmit, footer: <button type="submit">Generate</button> });
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a cat');
    await user.type(screen.getByRole('textbox', { name: 'Starting image' }), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('calls onVersionChange from the Version select', async () => {
    const user = userEvent.setup();
    const onVersionChange = vi.fn<(id: string) => void>();
    const model = fixtureModel('lumen-canvas');
    renderForm({ target: modelTarget(model), onVersionChange });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Version' }), 'lumen-canvas-v3');
    expect(onVersionChange).toHaveBeenCalledWith('lumen-canvas-v3');
  });
});

describe('drafts', () => {
  it('restores what was typed after a reload, and a Remix overrides the draft', async () => {
    const user = userEvent.setup();
    const target = modelTarget(fixtureModel('pixelmoss-pop'));
    const first = renderForm({ target });
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'draft prompt');
    await user.click(screen.getByRole('radio', { name: '4:3' }));
    expect(localStorage.getItem(draftKey('model', 'pixelmoss-pop'))).toContain('draft prompt');
    expect(localStorage.getItem(draftKey('model', 'pixelmoss-pop'))).not.toContain('gm_live');
    first.unmount();

    const second = renderForm({ target });
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveProperty('value', 'draft prompt');
    expect((await second.mounted()).request.params).toMatchObject({
      prompt: 'draft prompt',
      aspect_ratio: '4:3',
    });
    second.unmount();

    const remix = renderForm({ target, initialParams: { prompt: 'remixed', resolution: '1K' } });
    expect(screen.getByRole('textbox', { name: 'Prompt' })).toHaveProperty('value', 'remixed');
    expect((await remix.mounted()).request.params).toEqual({
      prompt: 'remixed',
      aspect_ratio: '1:1',
      resolution: '1K',
    });
  });
});

describe('uploads', () => {
  const png = () =>
    new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'cat.jpg', {
      type: 'image/jpeg',
    });

  it('uploads a file with its true type and fills the field with the hosted URL', async () => {
    const user = userEvent.setup();
    const client = fakeClient();
    const upload = vi
      .spyOn(client, 'uploadFile')
      .mockResolvedValue({ status: 'ready', url: hosted('u1.png'), contentType: 'image/png', size: 11 });
    const { last } = renderForm({ target: modelTarget(fixtureModel('pixelmoss-upscale')) }, client);
    const group = screen.getByRole('group', { name: 'Image to upscale' });
    await user.upload(within(group).getByLabelText('Upload file'), png());
    expect(upload).toHaveBeenCalledTimes(1);
    expect(upload.mock.lastCall![1]).toBe('image/png');
    expect(await within(group).findByText('is ready.', { exact: false })).toBeTruthy();
    expect(within(group).getByRole('textbox', { name: 'Image to upscale' })).toHaveProperty(
      'value',
      hosted('u1.png'),
    );
    expect(last().request.params.image).toBe(hosted('u1.png'));
    expect(last().valid).toBe(true);
    expect(within(group).getByRole('img', { name: 'Preview of Image to upscale' })).toBeTruthy();
  });

  it('shows the moderation labels of a blocked upload', async () => {
    const user = userEvent.setup();
    const client = fakeClient();
    vi.spyOn(client, 'uploadFile').mockRejectedValue(
      new ApiError({
        status: 451,
        code: 'moderation_blocked',
        type: 'invalid_request_error',
        extra: { labels: 'violence,gore' },
      }),
    );
    renderForm({ target: modelTarget(fixtureModel('pixelmoss-upscale')) }, client);
    const group = screen.getByRole('group', { name: 'Image to upscale' });
    await user.upload(within(group).getByLabelText('Upload file'), png());
    expect(await within(group).findByText('violence, gore')).toBeTruthy();
  });

  it('takes what fits of several files in a list field and says in the Notices that the rest were skipped', async () => {
    const user = userEvent.setup();
    const client = fakeClient();
    let n = 0;
    const upload = vi.spyOn(client, 'uploadFile').mockImplementation(async () => {
      n += 1;
      return { status: 'ready', url: hosted(`ref${n}.png`), contentType: 'image/png', size: 11 };
    });
    render(<NoticeArea />);
    const { last } = renderForm({ target: modelTarget(everyTypeModel()) }, client);
    const group = screen.getByRole('group', { name: 'Style references' });
    await user.upload(within(group).getByLabelText('Upload file'), [
      png(),
      png(),
      png(),
      png(),
      png(),
      png(),
    ]);
    const notices = screen.getByRole('region', { name: /^Notices/ });
    expect(await within(notices).findByText('Only 4 more files fit; the rest were skipped.')).toBeTruthy();
    await vi.waitFor(() => expect(within(group).getByText('4 of 4 files')).toBeTruthy());
    expect(upload).toHaveBeenCalledTimes(4);
    expect(Object.values(last().request.params).find(Array.isArray)).toEqual(
      [1, 2, 3, 4].map((i) => hosted(`ref${i}.png`)),
    );
    // The field keeps no message of its own for it.
    expect(within(group).queryByText(/the rest were skipped/)).toBeNull();
  });

  it('refuses a pasted URL the service does not host beside the list field’s input, not as a notice', async () => {
    const user = userEvent.setup();
    render(<NoticeArea />);
    renderForm({ target: modelTarget(everyTypeModel()) });
    const group = screen.getByRole('group', { name: 'Style references' });
    const url = within(group).getByRole('textbox', { name: 'Style references' });
    await user.type(url, FOREIGN);
    await user.click(within(group).getByRole('button', { name: 'Add' }));
    const error = within(group).getByRole('alert');
    expect(error.textContent).toBe('Upload the file first: only files hosted by the service are accepted');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(within(group).getByText('0 of 4 files')).toBeTruthy();
    await user.type(url, 'x');
    expect(within(group).queryByRole('alert')).toBeNull();
  });

  it('refuses a file of the wrong type before any request', async () => {
    const client = fakeClient();
    const upload = vi.spyOn(client, 'uploadFile');
    renderForm({ target: modelTarget(fixtureModel('pixelmoss-upscale')) }, client);
    const group = screen.getByRole('group', { name: 'Image to upscale' });
    fireEvent.change(within(group).getByLabelText('Upload file'), {
      target: { files: [new File(['hello'], 'notes.txt', { type: 'text/plain' })] },
    });
    expect(await within(group).findByText(/This file type is not accepted here/)).toBeTruthy();
    expect(upload).not.toHaveBeenCalled();
  });

  it('polls a processing video with getUpload, first after 5 s, until ready', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const client = fakeClient();
    vi.spyOn(client, 'uploadFile').mockResolvedValue({
      status: 'processing',
      uploadId: 'up_1',
      pollUrl: '/v1/uploads/up_1',
    });
    const poll = vi
      .spyOn(client, 'getUpload')
      .mockResolvedValueOnce({ status: 'processing', uploadId: 'up_1', pollUrl: '/v1/uploads/up_1' })
      .mockResolvedValueOnce({ status: 'ready', url: hosted('v.mp4'), contentType: 'video/mp4' });
    const { last } = renderForm({ target: modelTarget(fixtureModel('halcyon-extend')) }, client);
    const group = screen.getByRole('group', { name: 'Video to extend' });
    const mp4 = new File(
      [new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d])],
      'clip.mp4',
      { type: 'video/mp4' },
    );
    await act(async () => {
      fireEvent.change(within(group).getByLabelText('Upload file'), { target: { files: [mp4] } });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(within(group).getByText(/processing/)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(4_900));
    expect(poll).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(poll).toHaveBeenCalledTimes(1);
    expect(poll.mock.lastCall![0]).toBe('up_1');
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(poll).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(6_500));
    expect(poll).toHaveBeenCalledTimes(2);
    expect(within(group).getByRole('textbox', { name: 'Video to extend' })).toHaveProperty(
      'value',
      hosted('v.mp4'),
    );
    expect(last().request.params.video).toBe(hosted('v.mp4'));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(poll).toHaveBeenCalledTimes(2);
  });
});

describe('ParamForm: its first fields first, the others in the next frame', () => {
  it('draws the first three fields, then the others; what sits under them waits; no value is missing', async () => {
    const model = fixtureModel('lumen-canvas');
    const target = modelTarget(model);
    const count = model.params.length + 1; // and the prompt
    expect(count).toBeGreaterThan(3);
    // After every commit: how many fields, and whether the footer (under the fields) is there.
    const commits: Array<{ fields: number; footer: boolean }> = [];
    const onRender = () => {
      const form = document.querySelector('form');
      if (!form) return;
      commits.push({
        fields: form.querySelectorAll(':scope > div > *').length,
        footer: !!form.querySelector('[data-testid="footer"]'),
      });
    };
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const onChange = vi.fn<(snapshot: FormSnapshot) => void>();
    const user = userEvent.setup();
    render(
      <Profiler id="form" onRender={onRender}>
        <QueryClientProvider client={queryClient}>
          <ApiProvider value={{ client: fakeClient(), connectionId: 'conn-1', baseUrl: BASE_URL }}>
            <ParamForm
              baseUrl={BASE_URL}
              onChange={onChange}
              target={target}
              footer={<div data-testid="footer">Generate</div>}
            />
          </ApiProvider>
        </QueryClientProvider>
      </Profiler>,
    );
    // The version select and the first three fields, then every field; the footer only with all.
    expect(commits[0]).toEqual({ fields: 1 + 3, footer: false });
    expect(commits.at(-1)).toEqual({ fields: 1 + count, footer: true });
    expect(commits.every((c) => c.footer === c.fields > 4)).toBe(true);
    // The first snapshot already has the default of a field drawn later.
    await vi.waitFor(() => expect(onChange).toHaveBeenCalled());
    const later = model.params.filter((p) => p.default !== undefined).at(-1)!;
    expect(onChange.mock.calls[0]![0].request.params[later.id]).toEqual(later.default);
    // And what is typed first is kept.
    await user.type(screen.getByRole('textbox', { name: 'Prompt' }), 'a boat');
    expect(onChange.mock.lastCall![0].request.params.prompt).toBe('a boat');
  });
});
