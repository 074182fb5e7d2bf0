// Whether a key pressed on `target` is typing: a shortcut never fires then. Anything that takes the
// keys itself counts: text inputs of every kind, a textarea, a select, a slider and a radio (the arrow
// keys move them), contenteditable; inside a dialog or not, only what the element is matters. Buttons
// and boxes to tick do not: a shortcut still works with the focus on one.

const KEYLESS_INPUTS = new Set(['checkbox', 'button', 'submit', 'reset', 'image', 'file', 'color']);

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !KEYLESS_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}
