import type { Page } from '@playwright/test';

/**
 * The English words still visible on the page while it runs in the pseudo-locale (docs/i18n.md): every
 * message there is accented, so a word of three or more plain ASCII letters is text that did not come
 * from a catalog. What the service, the person or a file format wrote is marked `translate="no"` (the
 * HTML attribute that tells translation tools the same) and is left out, as are code and the studio's
 * name.
 */
export function untranslatedWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Words no language translates: keys on the keyboard, file formats and units.
    const NAMES = new Set([
      'alt',
      'ctrl',
      'shift',
      'esc',
      'enter',
      'tab',
      'png',
      'jpeg',
      'jpg',
      'webp',
      'gif',
      'svg',
      'mp4',
      'webm',
      'wav',
      'mp3',
      'csv',
      'zip',
      'json',
      'url',
      'api',
      'http',
      'https',
    ]);
    const found = new Set<string>();
    // Where a word was found, for the one who fixes it: the nearest test id or landmark.
    const where = (el: Element) => {
      const near = el.closest(
        '[data-testid], [aria-label], [role="region"], main, header, nav, form, dialog',
      );
      if (!near) return '';
      const name =
        near.getAttribute('data-testid') ?? near.getAttribute('aria-label') ?? near.tagName.toLowerCase();
      return ` near ${el.tagName.toLowerCase()} in ${name.slice(0, 40)}`;
    };
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none' && el.getClientRects().length > 0;
    };
    const skip = (el: Element | null) =>
      !el ||
      el.closest('[translate]')?.getAttribute('translate') === 'no' ||
      el.closest('code, pre, script, style, svg, textarea, [aria-hidden="true"]') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (skip(el) || !visible(el!)) continue;
      for (const m of node.textContent!.matchAll(/(?<![\p{L}\p{N}_])[A-Za-z]{3,}(?![\p{L}\p{N}_])/gu))
        if (!NAMES.has(m[0].toLowerCase()))
          found.add(`${m[0]} (in "${node.textContent!.trim().slice(0, 60)}"${where(el!)})`);
    }
    // Accessible names and descriptions that are not text nodes. A name may hold someone's words beside
    // the studio's ("Move {prompt} up"): a word the page shows as someone's text (`translate="no"`) is
    // theirs there too.
    const theirs = new Set<string>();
    for (const el of document.querySelectorAll('[translate="no"]')) {
      const said = [el.textContent, el.getAttribute('aria-label'), el.getAttribute('title')].join(' ');
      for (const m of said.matchAll(/[A-Za-z]{3,}/g)) theirs.add(m[0]);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (skip(el)) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(attr);
        if (!value) continue;
        for (const m of value.matchAll(/(?<![\p{L}\p{N}_])[A-Za-z]{3,}(?![\p{L}\p{N}_])/gu))
          if (!theirs.has(m[0]) && !NAMES.has(m[0].toLowerCase()))
            found.add(`${m[0]} (${attr} "${value.slice(0, 60)}")`);
      }
    }
    return [...found].sort();
  });
}

/**
 * The studio's own texts (buttons, tabs, labels, headings, table headers) that are cut off: their text is
 * wider than their box while the box hides what overflows or ends it in an ellipsis. What the person or
 * the service wrote (`translate="no"`: prompts, names) may be cut on purpose and is left out.
 */
export function cutOrOverflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const selector = 'button, a, label, h1, h2, h3, h4, th, legend, dt, [role="tab"], [role="menuitem"]';
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.closest('[translate="no"], [aria-hidden="true"]') || el.querySelector('[translate="no"]'))
        continue;
      const rects = el.getClientRects();
      if (rects.length === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      // Visually hidden text (screen readers only) is a 1 px box on purpose.
      if (el.clientWidth <= 1) continue;
      const hides = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1)
        found.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 60)}" (${el.scrollWidth} > ${el.clientWidth})`,
        );
    }
    return found;
  });
}
