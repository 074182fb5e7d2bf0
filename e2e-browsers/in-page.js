// Runs inside the page (Firefox, WebKit), injected by e2e-browsers/page.ts after axe-core: finds
// elements the way the Playwright tests do, by ARIA role and accessible name, by label or by text,
// with axe-core's own role and name computation. Plain JavaScript on purpose: it is sent as source
// text, untouched by a compiler. A found element is marked with data-xb="<n>" so the driver can act
// on it natively (a real click, real typing).
(() => {
  const axe = window.axe;
  let counter = 0;

  const normalize = (s) => (s ?? '').replace(/\s+/g, ' ').trim();

  /** A matcher: {source, flags} is a RegExp, a string matches exactly (after whitespace is folded). */
  const matches = (want, actual) => {
    if (want === undefined || want === null) return true;
    const text = normalize(actual);
    if (typeof want === 'string') return text === normalize(want);
    return new RegExp(want.source, want.flags).test(text);
  };

  const vnode = (el) => axe.utils.getNodeFromTree(el);
  const roleOf = (el) => axe.commons.aria.getRole(el, { noPresentational: true });
  const nameOf = (el) => {
    const v = vnode(el);
    return v ? axe.commons.text.accessibleTextVirtual(v) : '';
  };
  const shown = (el) => axe.commons.dom.isVisibleToScreenReaders(el) && axe.commons.dom.isVisibleOnScreen(el);

  const CONTROLS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

  /** The elements of `scope` (an element or the document) that one step of a target selects. */
  const step = (scope, s) => {
    let found;
    if (s.css) {
      found = [...scope.querySelectorAll(s.css)];
    } else if (s.role) {
      found = [...scope.querySelectorAll('*')].filter(
        (el) => roleOf(el) === s.role && matches(s.name, nameOf(el)),
      );
    } else if (s.label !== undefined) {
      found = [...scope.querySelectorAll(CONTROLS)].filter((el) => matches(s.label, nameOf(el)));
    } else if (s.text !== undefined) {
      // The innermost elements whose text matches (a paragraph, not the body around it); the scope
      // itself counts (a status whose whole text it is).
      const all = [...(scope instanceof Element ? [scope] : []), ...scope.querySelectorAll('*')].filter(
        (el) => el.tagName !== 'SCRIPT' && el.tagName !== 'STYLE' && matches(s.text, el.textContent),
      );
      found = all.filter((el) => !all.some((other) => other !== el && el.contains(other)));
    } else {
      throw new Error(`An empty target step: ${JSON.stringify(s)}`);
    }
    if (s.has) found = found.filter((el) => step(el, s.has).length > 0);
    return s.hidden ? found : found.filter(shown);
  };

  /** The facts about a found element that the journeys check. */
  const facts = (el) => ({
    role: roleOf(el),
    name: normalize(nameOf(el)),
    text: normalize(el.textContent),
    value: 'value' in el ? String(el.value) : null,
    // The texts its aria-describedby points to, in order (a task card: status, then prompt).
    description: (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => normalize(document.getElementById(id)?.textContent)),
    src: el.getAttribute('src'),
    disabled: el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true',
    focused: el === document.activeElement,
    // A toggle button's state: 'true', 'false' or null.
    pressed: el.getAttribute('aria-pressed'),
    // An <img> that has loaded and decoded a picture has a natural width.
    naturalWidth: el instanceof HTMLImageElement && el.complete ? el.naturalWidth : null,
  });

  /**
   * Resolves a target (its steps, each within the previous one's single element): answers how many
   * elements the failing or last step found, and when the last found exactly one, its mark and facts.
   */
  const resolve = (steps) => {
    axe.teardown();
    axe.setup(document.documentElement);
    try {
      let scope = document;
      for (let i = 0; i < steps.length; i++) {
        const found = step(scope, steps[i]);
        if (found.length !== 1) return { count: found.length, at: i };
        scope = found[0];
      }
      const mark = String(++counter);
      scope.setAttribute('data-xb', mark);
      return { count: 1, at: steps.length - 1, css: `[data-xb="${mark}"]`, facts: facts(scope) };
    } finally {
      axe.teardown();
    }
  };

  /** axe-core's serious and critical violations on the page as it is (its default rules). */
  const audit = async () => {
    // Colours fade (transition-colors): axe must measure where they end, not a frame on the way (a
    // header button just pressed measured 1.6:1 mid-fade). Endless animations (spinners) and those in a
    // closed <details> (never rendered, never finished) are not waited for.
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => {
          const target = a.effect?.target;
          if (a.effect?.getComputedTiming().endTime === Infinity) return false;
          return !target?.closest?.('details:not([open])');
        })
        .map((a) => a.finished.catch(() => undefined)),
    );
    axe.teardown();
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
      }));
  };

  // Uncaught errors and unhandled rejections from now on, for drivers that have no log of them (webkit.ts).
  window.__xbErrors = [];
  window.addEventListener('error', (e) => window.__xbErrors.push(`uncaught: ${e.message}`));
  window.addEventListener('unhandledrejection', (e) =>
    window.__xbErrors.push(`unhandled rejection: ${e.reason?.message ?? String(e.reason)}`),
  );

  window.__xb = { resolve, audit };
})();
