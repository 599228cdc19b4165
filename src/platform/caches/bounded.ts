/**
 * In-memory caches that a long-running process must not let grow without bound: at most `limit`
 * entries, and to make room the entry inserted first goes (a Map's and a Set's own order). A hit moves
 * nothing: the caches this serves stay far below their limits in any real deployment, and a dropped
 * entry is only read again from its source.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  if (!map.has(key) && map.size >= limit) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/** `setBounded` for a Set of what is known to exist. */
export function addBounded<T>(set: Set<T>, value: T, limit: number): void {
  if (!set.has(value) && set.size >= limit) set.delete(set.values().next().value as T);
  set.add(value);
}
