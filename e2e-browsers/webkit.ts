import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import {
  Builder,
  By,
  Key,
  error as seleniumError,
  type WebDriver,
  type WebElement,
} from 'selenium-webdriver';
import type { Driver } from './driver';

// WebKitGTK (Debian's webkit2gtk-driver and libwebkit2gtk-4.1) through Selenium and WebKitWebDriver.
// Its MiniBrowser has no headless mode: without a DISPLAY it runs on an Xvfb of its own.

const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
/** Debian installs it under the architecture's library folder (libwebkit2gtk-4.1-0). */
function miniBrowserPath(): string {
  if (process.env.WEBKIT_MINIBROWSER_PATH) return process.env.WEBKIT_MINIBROWSER_PATH;
  const found = readdirSync('/usr/lib')
    .flatMap((dir) => ['4.1', '4.0'].map((v) => `/usr/lib/${dir}/webkit2gtk-${v}/MiniBrowser`))
    .find((path) => existsSync(path));
  if (!found)
    throw new Error('No MiniBrowser under /usr/lib/*/webkit2gtk-4.1: apt-get install webkit2gtk-driver');
  return found;
}

const KEYS = {
  Tab: Key.TAB,
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  End: Key.END,
  Shift: Key.SHIFT,
  Control: Key.CONTROL,
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Starts Xvfb on a free display (it names it on a pipe: -displayfd); answers ":<n>". */
function startXvfb(log: NodeJS.WritableStream): Promise<{ display: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    proc.stdout!.pipe(log, { end: false });
    proc.stderr!.pipe(log, { end: false });
    let out = '';
    proc.stdio[3]!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve({ display: `:${out.trim()}`, proc });
    });
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before naming its display`)));
  });
}

export async function launchWebKit(logPath: string): Promise<Driver> {
  const log = createWriteStream(logPath, { flags: 'a' });
  const children: ChildProcess[] = [];
  const env = { ...process.env };
  try {
    if (!env.DISPLAY) {
      const xvfb = await startXvfb(log);
      children.push(xvfb.proc);
      env.DISPLAY = xvfb.display;
    }
    const port = await freePort();
    const webDriver = spawn(WEBKIT_DRIVER, [`--port=${port}`], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(webDriver);
    webDriver.stdout!.pipe(log, { end: false });
    webDriver.stderr!.pipe(log, { end: false });

    await waitForStatus(`http://127.0.0.1:${port}/status`, webDriver);

    const driver: WebDriver = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: miniBrowserPath(), args: ['--automation'] },
      })
      .build();
    await driver.manage().window().setRect({ width: 1280, height: 900 });
    const version = (await driver.getCapabilities()).get('browserVersion') as string;

    /** The marked element, or null when it is gone (the page re-rendered). */
    const withElement = async (css: string, action: (el: WebElement) => Promise<unknown>) => {
      const [el] = await driver.findElements(By.css(css));
      if (!el) return false;
      try {
        await action(el);
        return true;
      } catch (e) {
        if (e instanceof seleniumError.StaleElementReferenceError) return false;
        throw e;
      }
    };

    return {
      name: `webkitgtk ${version}`,
      goto: (url) => driver.get(url),
      reload: () => driver.navigate().refresh(),
      evaluate<T>(fn: string, arg?: unknown) {
        return driver.executeScript<T>(`return (${fn})(arguments[0]);`, arg ?? null);
      },
      click: (css) => withElement(css, (el) => el.click()),
      type: (css, text) =>
        withElement(css, async (el) => {
          await el.clear();
          await el.sendKeys(text);
        }),
      select: (css, value) =>
        withElement(css, async (el) => {
          await el.findElement(By.css(`option[value=${JSON.stringify(value)}]`)).click();
        }),
      upload: (css, paths) => withElement(css, (el) => el.sendKeys(paths.join('\n'))),
      async press(chord) {
        const keys = chord.split('+').map((k) => KEYS[k as keyof typeof KEYS]);
        const key = keys.pop()!;
        let actions = driver.actions();
        for (const modifier of keys) actions = actions.keyDown(modifier);
        actions = actions.keyDown(key).keyUp(key);
        for (const modifier of keys.reverse()) actions = actions.keyUp(modifier);
        await actions.perform();
      },
      typeKeys: (text) => driver.actions().sendKeys(text).perform(),
      errors: () =>
        driver.executeScript<string[]>(
          'const seen = window.__xbErrors ?? []; window.__xbErrors = []; return seen;',
        ),
      async screenshot(path) {
        await writeFile(path, Buffer.from(await driver.takeScreenshot(), 'base64'));
      },
      async close() {
        try {
          await driver.quit();
        } finally {
          stop(children);
          log.end();
        }
      },
    };
  } catch (e) {
    stop(children);
    log.end();
    throw e;
  }
}

/** Waits until WebKitWebDriver answers GET /status (it listens a moment after it starts). */
async function waitForStatus(url: string, proc: ChildProcess) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`WebKitWebDriver exited (${proc.exitCode})`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer ${url} within 15 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stop(children: ChildProcess[]) {
  for (const child of children.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
}
