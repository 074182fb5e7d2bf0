import { describe, expect, it } from 'vitest';
import { galleryItemsOf } from '../../model/gallery/gallery-item';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { outputFileName } from '../../model/history/download-name';
import { manifestEntryFor, manifestJson, selectionCsv, uniqueName, type ManifestEntry } from './zip-manifest';

const teapot = makeEntry('task_AbCdEfGhIjKl', {
  params: { prompt: 'A glass teapot, "studio" light', seed: 42 },
  outputs: [{ url: 'https://cdn.test/o/abc.jpg' }, { url: 'https://cdn.test/o/def' }],
});

describe('outputFileName', () => {
  it('names a file from model, prompt and task id, with the extension of the Content-Type', () => {
    const [first, second] = galleryItemsOf([teapot]);
    expect(outputFileName({ ...first!, url: first!.output!.url }, 'image/png')).toBe(
      'lumen-canvas-a-glass-teapot-studio-light-AbCdEfGh.png',
    );
    // The second output of the task carries its index; its URL (not the first's) is the fallback.
    expect(outputFileName({ ...second!, url: second!.output!.url }, 'video/mp4; codecs=avc1')).toBe(
      'lumen-canvas-a-glass-teapot-studio-light-AbCdEfGh-1.mp4',
    );
    expect(outputFileName({ ...first!, url: first!.output!.url }, null)).toBe(
      'lumen-canvas-a-glass-teapot-studio-light-AbCdEfGh.jpg',
    );
    expect(outputFileName({ ...second!, url: second!.output!.url }, 'text/html')).toBe(
      'lumen-canvas-a-glass-teapot-studio-light-AbCdEfGh-1.bin',
    );
  });

  it('cuts a long prompt, and names a task without one from model and id alone', () => {
    const long = makeEntry('task_k9', { params: { prompt: 'word '.repeat(100) } });
    const name = outputFileName({ entry: long, index: 0 }, 'image/webp');
    expect(name.length).toBeLessThanOrEqual(90);
    expect(name).toMatch(/^lumen-canvas-word-word-.*-k9\.webp$/);
    const tts = makeEntry('task_k9', { params: { text: 'Hello there' }, meta: { title: 'Voice/../One' } });
    expect(outputFileName({ entry: tts, index: 0 }, 'audio/mpeg')).toBe('voice-one-hello-there-k9.mp3');
    const none = makeEntry('task_k9', { params: { seed: 1 } });
    expect(outputFileName({ entry: none, index: 0 }, 'image/png')).toBe('lumen-canvas-k9.png');
  });
});

describe('uniqueName', () => {
  it('numbers repeats, case-insensitively, before the extension', () => {
    const taken = new Set<string>();
    expect(uniqueName('a.png', taken)).toBe('a.png');
    expect(uniqueName('A.png', taken)).toBe('A (2).png');
    expect(uniqueName('a.png', taken)).toBe('a (3).png');
    expect(uniqueName('b', taken)).toBe('b');
  });
});

function saved(entry: ManifestEntry, file: string): ManifestEntry {
  return { ...entry, file, status: 'saved', contentType: 'image/png', bytes: 10 };
}

describe('manifest and CSV', () => {
  const evil = makeEntry('task_evil', {
    params: { prompt: '=cmd|" /C calc"!A0, then\nmore', steps: 30 },
    creditsCharged: 6,
  });
  const failedTask = makeEntry('task_fail', {
    status: 'failed',
    outputs: [],
    creditsCharged: 0,
    error: { code: 'generation_failed', message: 'no' },
  });
  const tool = makeEntry('task_tool', {
    meta: { kind: 'tool', title: 'Remove background', modelId: undefined, versionId: undefined },
    params: { image: 'https://cdn.test/in.png' },
  });
  tool.request = { aiTool: 'remove-background', params: { image: 'https://cdn.test/in.png' } };
  const items = galleryItemsOf([teapot, evil, failedTask, tool]);
  const entries = items.map(manifestEntryFor);
  entries[0] = saved(entries[0]!, 'a.png');
  entries[1]!.error = 'The file server answered 404 Not Found.';
  entries[2] = saved(entries[2]!, 'evil.png');
  entries[4] = saved(entries[4]!, 'tool.png');

  it('lists every item with file, task, what ran, prompt, params, credits, URL and download status', () => {
    const manifest = JSON.parse(manifestJson(entries, new Date(T0)));
    expect(manifest.format).toBe('media-studio-selection');
    expect(manifest.createdAt).toBe(new Date(T0).toISOString());
    expect(manifest.summary).toEqual({ items: 5, saved: 3, failed: 1, incomplete: 0, noOutput: 1 });
    expect(manifest.files).toHaveLength(5);
    expect(manifest.files[0]).toMatchObject({
      file: 'a.png',
      taskId: 'task_AbCdEfGhIjKl',
      outputIndex: 0,
      kind: 'model',
      title: 'Lumen Canvas',
      modelId: 'lumen-canvas',
      versionId: 'lumen-2',
      prompt: 'A glass teapot, "studio" light',
      params: { prompt: 'A glass teapot, "studio" light', seed: 42 },
      creditsCharged: 4,
      url: 'https://cdn.test/o/abc.jpg',
      status: 'saved',
      error: null,
    });
    // The failed download is listed with its reason, and no file.
    expect(manifest.files[1]).toMatchObject({
      file: null,
      outputIndex: 1,
      url: 'https://cdn.test/o/def',
      status: 'failed',
      error: 'The file server answered 404 Not Found.',
    });
    expect(manifest.files[3]).toMatchObject({
      taskId: 'task_fail',
      status: 'no-output',
      url: null,
      error: 'The task has no output (failed).',
    });
    expect(manifest.files[4]).toMatchObject({ kind: 'tool', aiTool: 'remove-background', template: null });
  });

  it('writes a CSV row per item, quoted, with formulas guarded, CRLF line ends and a BOM', () => {
    const csv = selectionCsv(entries);
    expect(
      csv.startsWith('\uFEFFfile,status,task_id,output_index,kind,model,prompt,params,credits,url,error\r\n'),
    ).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv).toContain(
      'a.png,saved,task_AbCdEfGhIjKl,0,model,Lumen Canvas v2,"A glass teapot, ""studio"" light","{""prompt"":""A glass teapot, \\""studio\\"" light"",""seed"":42}",4,https://cdn.test/o/abc.jpg,\r\n',
    );
    expect(csv).toContain(
      ',failed,task_AbCdEfGhIjKl,1,model,Lumen Canvas v2,"A glass teapot, ""studio"" light",',
    );
    expect(csv).toContain(',https://cdn.test/o/def,The file server answered 404 Not Found.\r\n');
    // The prompt starting with = is text, not a formula.
    expect(csv).toContain(
      `evil.png,saved,task_evil,0,model,Lumen Canvas v2,"'=cmd|"" /C calc""!A0, then\nmore",`,
    );
    expect(csv).toContain(',no-output,task_fail,0,');
  });
});
