/** See components/terminal/bounded-cache.js: the one bounded cache (two generations of at most `max` entries each). */
export declare class BoundedCache<K, V> {
  readonly max: number;
  constructor(max: number);
  get(key: K, compute: (key: K) => V): V;
  peek(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
}
