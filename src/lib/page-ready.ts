// The built index.html adds the stylesheet and the entry module itself (scripts/first-paint.ts): the entry
// may run before the page is parsed, and before its stylesheet has loaded.

/** Resolves once the document is parsed (at once if it is). */
export const pageParsed = (): Promise<void> =>
  document.readyState === 'loading'
    ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : Promise.resolve();

/**
 * Resolves once every stylesheet the page loader added (`data-studio-styles`) has loaded or failed (the
 * studio is usable unstyled rather than not at all). None in development, where Vite injects the CSS.
 */
export const stylesLoaded = (): Promise<void> =>
  Promise.all(
    Array.from(document.querySelectorAll<HTMLLinkElement>('link[data-studio-styles]'), (link) =>
      link.sheet
        ? undefined
        : new Promise<void>((resolve) => {
            link.addEventListener('load', () => resolve(), { once: true });
            link.addEventListener('error', () => resolve(), { once: true });
          }),
    ),
  ).then(() => undefined);
