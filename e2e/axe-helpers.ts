import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// axe as the Playwright suites run it (a11y.spec.ts, team-space.spec.ts): one helper, one set of waits.

export const SCHEMES = ['light', 'dark'] as const;

/** axe's rules whose answer depends on the colours drawn (the others read the DOM and the layout). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/** The page's own background, to be sure the scheme asked for is the one drawn. */
const backgroundIsDark = (page: Page) =>
  page.evaluate(() => {
    const shell = document.querySelector('#root > div') ?? document.body;
    // Painted on a canvas to read it as sRGB, whatever the colour space Tailwind wrote it in (oklch).
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.fillStyle = getComputedStyle(shell).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r = 255, g = 255, b = 255] = ctx.getImageData(0, 0, 1, 1).data;
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  });

/**
 * axe's serious and critical rules on the page, in light and dark (each checked drawn before it is
 * measured). With `shotsDir`, a screenshot of each scheme goes there too.
 */
export async function expectNoSeriousViolations(
  page: Page,
  screen: string,
  { shotsDir }: { shotsDir?: string } = {},
) {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expect.poll(() => backgroundIsDark(page)).toBe(colorScheme === 'dark');
    // Colours fade between schemes (transition-colors): axe must measure the end state, not a frame of it.
    // (A transition cancelled meanwhile rejects `finished`: that is an end too.)
    // Transitions inside a closed <details> are never rendered, so they never finish: those are left out.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => {
            const target = (a.effect as KeyframeEffect | null)?.target;
            // A spinner's animation never ends: it is not a colour change to wait for.
            if (a.effect?.getComputedTiming().endTime === Infinity) return false;
            return !target?.closest('details:not([open])');
          })
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    if (shotsDir) {
      const width = page.viewportSize()?.width ?? 0;
      const file = `${screen.replace(/[^a-z0-9]+/gi, '-')}-${width}-${colorScheme}.png`;
      await page.screenshot({ path: `${shotsDir}/${file}` });
    }
    // The scheme changes colours only (no `dark:` variant shows, hides or moves anything: checked by
    // scripts/dark-variants.test.ts), so the dark pass runs the rules that read colours; the light pass
    // runs every rule. Each axe run takes about a second; this halves the suite's share.
    const axe = new AxeBuilder({ page });
    if (colorScheme === 'dark') axe.withRules([...COLOUR_RULES]);
    const { violations } = await axe.analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
      }));
    expect(serious, `${screen} (${colorScheme}): serious or critical axe violations`).toEqual([]);
  }
}
