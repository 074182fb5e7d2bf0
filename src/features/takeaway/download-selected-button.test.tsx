import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { galleryItemsOf } from '../../model/gallery/gallery-item';
import { CDN, makeEntry } from '../../test/gallery-test-utils';
import { DownloadSelectedButton } from './download-selected-button';
import {
  downloadSelected,
  type DownloadSelectedOptions,
  type DownloadSelectedResult,
} from './download-selected';
import { ZipSinkUnavailableError } from './zip-sink';
import { manifestEntryFor } from './zip-manifest';

afterEach(cleanup);

const items = galleryItemsOf(
  Array.from({ length: 4 }, (_, i) => makeEntry(`task_${i}`, { outputs: [{ url: `${CDN}/${i}.png` }] })),
);

/** A download that reports what the test tells it to and ends when the test (or its signal) says. */
function controlledRun() {
  let options: DownloadSelectedOptions | null = null;
  let finish: (result: DownloadSelectedResult) => void = () => undefined;
  const run = vi.fn(
    (_items: readonly unknown[], o: DownloadSelectedOptions) =>
      new Promise<DownloadSelectedResult>((resolve, reject) => {
        options = o;
        finish = resolve;
        o.signal?.addEventListener('abort', () => reject(o.signal!.reason));
      }),
  );
  return {
    run,
    progress: (filesDone: number, bytesWritten: number, failed = 0) =>
      options!.onProgress!({ filesDone, filesTotal: items.length, bytesWritten, failed }),
    signal: () => options!.signal!,
    finish: (result: DownloadSelectedResult) => finish(result),
  };
}

describe('DownloadSelectedButton', () => {
  it('shows progress (files and bytes) and Cancel stops the download', async () => {
    const user = userEvent.setup();
    const job = controlledRun();
    render(<DownloadSelectedButton items={items} run={job.run} />);
    const button = screen.getByRole('button', { name: 'Download selected' });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Downloading 4 outputs as a ZIP' });
    expect(job.run).toHaveBeenCalledWith(items, expect.anything());

    job.progress(1, 2.5 * 2 ** 20, 1);
    const bar = await within(dialog).findByRole('progressbar', { name: 'ZIP progress' });
    await vi.waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('1'));
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(bar.getAttribute('aria-valuetext')).toBe('1 of 4 files, 2.5 MB');
    expect(dialog.textContent).toContain('1 failed (listed in manifest.json)');
    expect(button).toHaveProperty('disabled', true);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(job.signal().aborted).toBe(true);
    expect(await within(dialog).findByText('Download cancelled. Nothing was saved.')).toBeTruthy();
    const done = within(dialog).getByRole('button', { name: 'Done' });
    expect(document.activeElement).toBe(done);
    // Progress that arrives after the cancel does not bring the bar back.
    job.progress(2, 3_000_000);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    await user.click(done);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button).toHaveProperty('disabled', false);
  });

  it('Escape while it runs cancels it too', async () => {
    const user = userEvent.setup();
    const job = controlledRun();
    render(<DownloadSelectedButton items={items} run={job.run} />);
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(job.signal().aborted).toBe(true);
  });

  it('says what the ZIP holds and lists the files that failed', async () => {
    const user = userEvent.setup();
    const job = controlledRun();
    render(<DownloadSelectedButton items={items} run={job.run} />);
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    const entries = items.map(manifestEntryFor);
    entries[0] = { ...entries[0]!, status: 'saved', file: 'a.png' };
    entries[1] = { ...entries[1]!, status: 'saved', file: 'b.png' };
    entries[2] = { ...entries[2]!, status: 'failed', error: 'The file server answered 404.' };
    entries[3] = { ...entries[3]!, status: 'saved', file: 'd.png' };
    job.finish({ entries, bytesWritten: 12_595, name: 'media-studio-4-outputs.zip', kind: 'private-file' });
    const dialog = await screen.findByRole('dialog', { name: 'Download selected' });
    expect(
      await within(dialog).findByText(/Downloaded media-studio-4-outputs\.zip \(12\.3 KB\): 3 files/),
    ).toBeTruthy();
    expect(dialog.textContent).toContain('1 file could not be downloaded in full');
    expect(dialog.textContent).toContain('Lumen Canvas (task_2): The file server answered 404.');
  });

  it('says plainly when the browser cannot write the ZIP to disk', async () => {
    const user = userEvent.setup();
    const run = (selected: readonly (typeof items)[number][], o: DownloadSelectedOptions) =>
      downloadSelected(selected, {
        ...o,
        openSink: async () => {
          throw new ZipSinkUnavailableError();
        },
      });
    render(<DownloadSelectedButton items={items} run={run} />);
    await user.click(screen.getByRole('button', { name: 'Download selected' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This browser cannot write a large file to disk as it is made');
  });

  it('is disabled with nothing selected', () => {
    render(<DownloadSelectedButton items={[]} />);
    expect(screen.getByRole('button', { name: 'Download selected' })).toHaveProperty('disabled', true);
  });
});
