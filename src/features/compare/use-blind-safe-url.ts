import { useEffect, useState } from 'react';
import { urlNamesModel } from './board-model';

/**
 * The URL to put in src: the output's own, or, on a blind board when the URL names the model, an object
 * URL of a copy (fetched from the service's CDN, which answers CORS), so no attribute names the model.
 */
export function useBlindSafeUrl(
  url: string | undefined,
  names: readonly string[] | null,
): string | undefined {
  const leaks = url !== undefined && names !== null && urlNamesModel(url, names);
  const [copy, setCopy] = useState<{ url: string; href: string } | null>(null);
  useEffect(() => {
    if (!leaks || !url) return;
    let href: string | null = null;
    let live = true;
    void fetch(url)
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((blob) => {
        href = URL.createObjectURL(blob);
        if (live) setCopy({ url, href });
        else URL.revokeObjectURL(href);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (href) URL.revokeObjectURL(href);
    };
  }, [leaks, url]);
  if (!leaks) return url;
  return copy?.url === url ? copy.href : undefined;
}
