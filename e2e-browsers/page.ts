import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Driver } from './driver';

// The journeys' view of a page, the same in every browser: find by role and accessible name, by label
// or by text (product-notes §5), act natively through the driver, and wait until what is expected is there.
// Role and name come from axe-core, injected into the page with in-page.js.

export type TextMatch = string | RegExp;
interface StepOptions {
  /** Keep only elements that contain a match of this step. */
  has?: Step;
  /** Include elements that are hidden (a file input behind its "Browse files" button). */
  hidden?: boolean;
}
export type Step = StepOptions &
  ({ role: string; name?: TextMatch } | { label: TextMatch } | { text: TextMatch } | { css: string });
/** Steps, each looked for within the single element the one before found. */
export type Target = readonly Step[];

export const role = (r: string, name?: TextMatch, options: StepOptions = {}): Step => ({
  role: r,
  ...(name === undefined ? {} : { name }),
  ...options,
});
export const label = (l: TextMatch, options: StepOptions = {}): Step => ({ label: l, ...options });
export const text = (t: TextMatch, options: StepOptions = {}): Step => ({ text: t, ...options });
export const css = (selector: string, options: StepOptions = {}): Step => ({ css: selector, ...options });

/** What the journeys read of a found element. */
export interface Facts {
  role: string | null;
  name: string;
  text: string;
  value: string | null;
  description: string[];
  src: string | null;
  disabled: boolean;
  focused: boolean;
  /** aria-pressed, as written: 'true', 'false' or null. */
  pressed: string | null;
  naturalWidth: number | null;
}

interface Resolved {
  count: number;
  at: number;
  css?: string;
  facts?: Facts;
}

const require = createRequire(import.meta.url);
const INJECT = `() => {
${readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')}
;
${readFileSync(new URL('./in-page.js', import.meta.url), 'utf8')}
return typeof window.axe === 'object' && typeof window.__xb === 'object';
}`;

const showMatch = (m: TextMatch) => (typeof m === 'string' ? JSON.stringify(m) : String(m));
const showStep = (s: Step): string => {
  const base =
    'role' in s
      ? `${s.role}${s.name === undefined ? '' : ` ${showMatch(s.name)}`}`
      : 'label' in s
        ? `label ${showMatch(s.label)}`
        : 'text' in s
          ? `text ${showMatch(s.text)}`
          : `css ${s.css}`;
  return `${base}${s.has ? ` (with ${showStep(s.has)})` : ''}`;
};
const showTarget = (t: Target) => t.map(showStep).join(' > ');

/** RegExps travel to the page as {source, flags}. */
const wire = (s: Step): unknown => {
  const out: Record<string, unknown> = { ...s };
  for (const key of ['name', 'label', 'text'] as const) {
    const v = out[key];
    if (v instanceof RegExp) out[key] = { source: v.source, flags: v.flags };
  }
  if (s.has) out.has = wire(s.has);
  return out;
};

interface Violation {
  id: string;
  impact: string;
  help: string;
  /** "<selector>: <failure summary>" */
  nodes: string[];
}

/**
 * Violations already filed and being fixed elsewhere, each on exactly its element. One so far:
 * the header's account button shows "Personal key 5,000 credits" but is named "Account: Personal key"
 * (WCAG 2.5.3). Remove this entry once that fix is merged.
 */
const KNOWN = [{ id: 'label-content-name-mismatch', node: /^button\[aria-label="Account: [^"]*"\]:/ }];

class TimeoutError extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `attempt` until it answers a value (not undefined), or fails with `what` and the last state seen. */
async function poll<T>(
  what: string,
  attempt: () => Promise<{ value: T } | { seen: string }>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let seen = 'nothing yet';
  for (;;) {
    const result = await attempt();
    if ('value' in result) return result.value;
    seen = result.seen;
    if (Date.now() > deadline)
      throw new TimeoutError(`timed out after ${timeoutMs / 1000} s: ${what}; last seen: ${seen}`);
    await sleep(100);
  }
}

export class BrowserPage {
  constructor(
    readonly driver: Driver,
    /** The studio's origin, where goto's paths lead. */
    readonly origin: string,
    readonly timeoutMs = 15_000,
  ) {}

  goto(path = '/') {
    return this.driver.goto(new URL(path, this.origin).href);
  }

  reload() {
    return this.driver.reload();
  }

  evaluate<T>(fn: string, arg?: unknown): Promise<T> {
    return this.driver.evaluate<T>(fn, arg);
  }

  /** Calls window.__xb[method](arg) in the page, injecting axe-core and in-page.js after a navigation. */
  private async inPage<T>(method: 'resolve' | 'audit', arg?: unknown): Promise<T> {
    const t0 = Date.now();
    try {
      return await this.inPageOnce<T>(method, arg);
    } finally {
      if (process.env.XB_TRACE)
        console.log(`    ${method} ${Date.now() - t0} ms ${JSON.stringify(arg)?.slice(0, 120)}`);
    }
  }

  private async inPageOnce<T>(method: 'resolve' | 'audit', arg?: unknown): Promise<T> {
    const run = () =>
      this.driver.evaluate<{ result: T } | null>(
        `async (arg) => (window.__xb ? { result: await window.__xb.${method}(arg) } : null)`,
        arg,
      );
    const first = await run();
    if (first) return first.result;
    const injected = await this.driver.evaluate<boolean>(INJECT);
    if (!injected) throw new Error('axe-core and in-page.js could not be injected into the page');
    const second = await run();
    if (!second) throw new Error('the finder vanished right after it was injected');
    return second.result;
  }

  /** Finds the target once. */
  resolve(target: Target): Promise<Resolved> {
    return this.inPage<Resolved>('resolve', target.map(wire));
  }

  /** Fails with the list when axe-core finds a serious or critical violation on the page as it is. */
  async expectNoSeriousViolations(screen: string): Promise<void> {
    const all = await this.inPage<Violation[]>('audit');
    const found = all
      .map((v) => ({
        ...v,
        nodes: v.nodes.filter((n) => !KNOWN.some((k) => k.id === v.id && k.node.test(n))),
      }))
      .filter((v) => v.nodes.length > 0);
    if (found.length > 0)
      throw new Error(`${screen}: serious or critical axe violations:\n${JSON.stringify(found, null, 2)}`);
  }

  /** Presses Tab (Shift+Tab when `back`) until the target has the focus; fails when it never gets it. */
  async tabTo(target: Target, { max = 60, back = false } = {}): Promise<void> {
    let mark = (await this.expect(target)).css;
    for (let i = 0; i <= max; i++) {
      const focused = await this.driver.evaluate<boolean | null>(
        '(css) => { const el = document.querySelector(css); return el ? el === document.activeElement : null; }',
        mark,
      );
      if (focused) return;
      // Re-rendered meanwhile: find it again.
      if (focused === null) mark = (await this.expect(target)).css;
      else if (i < max) await this.driver.press(back ? 'Shift+Tab' : 'Tab');
    }
    const where = await this.driver.evaluate<string>(
      '() => { const el = document.activeElement; return el ? el.outerHTML.slice(0, 200) : "nothing"; }',
    );
    throw new Error(
      `${showTarget(target)} not reached with ${back ? 'Shift+' : ''}Tab in ${max} presses; the focus is on ${where}`,
    );
  }

  /** Waits until the target has the focus. */
  expectFocused(target: Target) {
    return this.expect(target, (f) => f.focused || 'not focused');
  }

  /**
   * Waits until the target is exactly one element whose facts pass `check` (true, or else a string
   * saying what is wrong); answers its mark and facts.
   */
  async expect(
    target: Target,
    check: (f: Facts) => true | string = () => true,
    timeoutMs = this.timeoutMs,
  ): Promise<{ css: string; facts: Facts }> {
    return poll<{ css: string; facts: Facts }>(
      showTarget(target),
      async () => {
        const r = await this.resolve(target);
        if (r.count !== 1 || !r.css || !r.facts)
          return { seen: `${r.count} elements for ${showStep(target[r.at]!)}` };
        const verdict = check(r.facts);
        return verdict === true ? { value: { css: r.css, facts: r.facts } } : { seen: verdict };
      },
      timeoutMs,
    );
  }

  /** Waits until nothing matches the target. */
  async expectNone(target: Target, timeoutMs = this.timeoutMs): Promise<void> {
    await poll(
      `no ${showTarget(target)}`,
      async () => {
        const r = await this.resolve(target);
        return r.count === 0 && r.at === target.length - 1 ? { value: true } : { seen: `${r.count} found` };
      },
      timeoutMs,
    );
  }

  /** Waits for a visible element whose text is `t` (within `scope`). */
  waitForText(t: TextMatch, scope: Target = []) {
    return this.expect([...scope, text(t)]);
  }

  /** Finds the target (enabled) and acts on it; finds it again when the page re-rendered it meanwhile. */
  private async act(target: Target, what: string, action: (css: string) => Promise<boolean>) {
    await poll(
      `${what} ${showTarget(target)}`,
      async () => {
        const { css: mark, facts } = await this.expect(target);
        if (facts.disabled) return { seen: 'disabled' };
        const t0 = Date.now();
        const done = await action(mark);
        if (process.env.XB_TRACE) console.log(`    ${what} ${Date.now() - t0} ms`);
        return done ? { value: true } : { seen: 'it re-rendered before the action' };
      },
      this.timeoutMs,
    );
  }

  click(target: Target) {
    return this.act(target, 'click', (mark) => this.driver.click(mark));
  }

  /** Types `value` into the field and waits until the field holds it. */
  async fill(target: Target, value: string) {
    await this.act(target, 'fill', (mark) => this.driver.type(mark, value));
    await this.expect(target, (f) => f.value === value || `value ${JSON.stringify(f.value)}`);
  }

  async select(target: Target, value: string) {
    await this.act(target, 'select', (mark) => this.driver.select(mark, value));
    await this.expect(target, (f) => f.value === value || `value ${JSON.stringify(f.value)}`);
  }

  upload(target: Target, paths: string[]) {
    return this.act(target, 'upload into', (mark) => this.driver.upload(mark, paths));
  }
}
