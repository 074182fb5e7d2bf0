import { spawn } from 'node:child_process';
import { measureBundle } from './bundle';
import { print, record, updateReadme, type Figure } from './results-file';
import { lighthouseScores } from './lighthouse';
import { historyAtScale, keyOf, launch, pollingEfficiency, quoteTyping, type Ports } from './studio-bench';

// `npm run bench`: every benchmark of issue 7 that this harness has, printed and written to
// bench/results.json. Needs a build (`npm run build`); starts its own studio and sandbox on spare ports.

const ports: Ports = { studio: 'http://127.0.0.1:4373', sandbox: 'http://127.0.0.1:4310' };
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);

function section(name: string, figures: Record<string, Figure>) {
  print(name, figures);
  record(name, figures);
}

if (wanted('bundle')) section('bundle', measureBundle());

if (['quote', 'history', 'polling', 'lighthouse'].some(wanted)) {
  const server = spawn('npx', ['tsx', 'scripts/start.ts'], {
    env: { ...process.env, PORT: '4373', SANDBOX_PORT: '4310', SANDBOX_TASK_MS: '4000' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${ports.studio}/config.json`)).ok) break;
      } catch {
        // not up yet
      }
      if (i > 120) throw new Error('The studio did not start.');
      await new Promise((r) => setTimeout(r, 500));
    }
    if (wanted('lighthouse'))
      section('lighthouse', await lighthouseScores(ports, await keyOf(ports, 'personal')));
    const browser = await launch();
    try {
      if (wanted('quote')) section('quote', await quoteTyping(browser, ports));
      if (wanted('history')) section('history', await historyAtScale(browser, ports));
      if (wanted('polling')) section('polling', await pollingEfficiency(browser, ports));
    } finally {
      await browser.close();
    }
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
}

// The README shows every figure beside its target.
await updateReadme();
