import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// scripts/setup-machine.sh, run on a PATH of our making: a fake `id` says who runs it, a fake apt-get
// records what it was asked, and nothing else of the machine's tools is there (so every command-found
// piece is missing).
let bin: string;
const script = join(import.meta.dirname, 'setup-machine.sh');

beforeEach(() => {
  bin = mkdtempSync(join(tmpdir(), 'setup-machine-'));
  for (const tool of ['bash', 'cat'])
    symlinkSync(spawnSync('which', [tool]).stdout.toString().trim(), join(bin, tool));
  writeFileSync(join(bin, 'apt-get'), `#!/bin/bash\necho "$@" >> ${join(bin, 'apt.log')}\n`);
  chmodSync(join(bin, 'apt-get'), 0o755);
});
afterEach(() => rmSync(bin, { recursive: true, force: true }));

function run(uid: number, args: string[] = [], env: Record<string, string> = {}) {
  writeFileSync(join(bin, 'id'), `#!/bin/bash\necho ${uid}\n`);
  chmodSync(join(bin, 'id'), 0o755);
  const result = spawnSync(join(bin, 'bash'), [script, ...args], {
    env: { PATH: bin, CHROMIUM_PATH: '/nonexistent/chromium', ...env },
    encoding: 'utf8',
  });
  const apt = (() => {
    try {
      return readFileSync(join(bin, 'apt.log'), 'utf8');
    } catch {
      return '';
    }
  })();
  return { status: result.status, out: result.stdout + result.stderr, apt };
}

describe('the test command setting up its machine', () => {
  it('installs what is missing with apt-get when it runs as root', () => {
    const { status, apt } = run(0);
    expect(status).toBe(0);
    expect(apt).toContain('update');
    expect(apt).toMatch(/install -y --no-install-recommends .*chromium/);
    expect(apt).toMatch(/install .*redis-server.*ffmpeg/);
  });

  it('stops at once, without apt-get, and prints the exact command when it cannot install', () => {
    const { status, out, apt } = run(1000);
    expect(status).toBe(1);
    expect(apt).toBe('');
    expect(out).toMatch(/apt-get update && apt-get install -y --no-install-recommends .*chromium/);
    expect(out).toContain('CHROMIUM_PATH');
  });

  it('counts a browser given by its override as present', () => {
    const present = join(bin, 'bash');
    const { out } = run(1000, ['--check'], {
      CHROMIUM_PATH: present,
      FIREFOX_PATH: present,
      WEBKIT_DRIVER_PATH: present,
    });
    expect(out).toContain('missing:');
    expect(out).not.toMatch(/chromium|firefox-esr|webkit2gtk-driver/);
  });

  it('--check only says what is missing', () => {
    const { status, out, apt } = run(0, ['--check']);
    expect(status).toBe(1);
    expect(out).toMatch(/missing: chromium/);
    expect(apt).toBe('');
  });
});
