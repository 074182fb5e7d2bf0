/**
 * `compute`, asked once per key: its answers are kept for as long as the returned function is. Made
 * anew when what `compute` reads changes (a saved search's count, per state of the history).
 */
export function oncePerKey<K, V>(compute: (key: K) => V): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key)!;
    const value = compute(key);
    kept.set(key, value);
    return value;
  };
}
