/** See components/terminal/bounded-cache.js: the one bounded cache (two generations of at most `max` entries each, and at most `budget` in weight when `weigh` is given). */
export declare class BoundedCache<K, V> {
  readonly max: number;
  constructor(max: number, size?: { weigh: (key: K, value: V) => number; budget: number });
  get(key: K, compute: (key: K) => V): V;
  peek(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
  /** What the entries held weigh (both generations; 0 without `weigh`). */
  readonly weight: number;
}
