/** A cover whose path ends in .mp4 or .webm is a video (the query string and fragment do not count). */
export function isVideoUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  let path = url;
  try {
    path = new URL(url, 'http://localhost/').pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  return /\.(mp4|webm)$/i.test(path);
}
