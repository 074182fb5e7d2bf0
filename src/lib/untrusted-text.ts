// Catalog strings are untrusted (PRODUCT 3). React already renders them as text; this removes the
// bidi embedding / override / isolate controls that could make "gpj.exe" read as "exe.jpg".
// Letters of right-to-left scripts are untouched: an element with dir="auto" still lays them out.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

export const displayText = (text: string): string => text.replace(BIDI_CONTROLS, '');
