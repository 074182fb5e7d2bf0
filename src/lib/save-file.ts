// Saving a file the studio made (an export) through the browser's download.

/** Saves a blob under `name` through an object URL and an <a download>; the URL is revoked later. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some browsers; a minute is ample for it to start.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

/** CSV text as a download (UTF-8 with a byte order mark, so spreadsheets read accents right). */
export const saveCsv = (csv: string, name: string): void =>
  saveBlob(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }), name);
