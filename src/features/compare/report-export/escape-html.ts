/* eslint-disable lingui/no-unlocalized-strings -- HTML's character references, not words. */
// The exported report is a string of HTML, not a React tree: every piece of someone's text in it (a
// prompt, a board's name, a model's name from the catalog) goes through this, in text and in attribute
// values alike (the five characters that can end a text or a quoted attribute, or start markup).

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made inert in HTML, for an element's content or a double- or single-quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
