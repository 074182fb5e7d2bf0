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
    const found = new Set<string>();
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none' && el.getClientRects().length > 0;
    };
    const skip = (el: Element | null) =>
      !el || el.closest('[translate="no"], code, pre, script, style, svg, [aria-hidden="true"]') !== null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (skip(el) || !visible(el!)) continue;
      for (const m of node.textContent!.matchAll(/(?<![\p{L}\p{N}_])[A-Za-z]{3,}(?![\p{L}\p{N}_])/gu))
        found.add(`${m[0]} (in "${node.textContent!.trim().slice(0, 60)}")`);
    }
    // Accessible names and descriptions that are not text nodes.
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (skip(el)) continue;
      for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(attr);
        if (!value) continue;
        for (const m of value.matchAll(/(?<![\p{L}\p{N}_])[A-Za-z]{3,}(?![\p{L}\p{N}_])/gu))
          found.add(`${m[0]} (${attr} "${value.slice(0, 60)}")`);
      }
    }
    return [...found].sort();
  });
}
