/**
 * Adds an entry to a Map used as a cache of at most `max` entries, dropping the oldest entry first
 * when it is full (Maps keep insertion order).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number) {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
