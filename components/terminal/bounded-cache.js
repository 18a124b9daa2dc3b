/**
 * The one bounded cache of the project (plain JavaScript: the bundle's string-width swap in
 * scripts/ imports it too, see scripts/ink-swaps.mjs). One policy: at most 2 × `max` entries in two
 * generations. New entries go to the young map; when it holds `max`, it becomes the old map and the
 * old one is dropped whole; an old entry used again moves back to the young map. So what was used
 * since the last turnover survives it (a frame's working set is never dropped at once — clearing
 * everything when full made the next frame recompute every row: a slow frame and a burst of
 * garbage), and memory is bounded however many distinct keys a long session makes. `undefined` is
 * never a value (a compute that has nothing gives null).
 *
 * A cache whose entries differ much in size also gives a `weigh` (an entry's size in whatever unit
 * suits it: characters, cells) and a `budget`: the young generation turns over when it holds `max`
 * entries or weighs `budget`, whichever comes first. Counting entries alone let caches of big
 * values (a row's cells, a whole streaming answer as a key) fill over many minutes of a long
 * session to tens of MB, which V8 then kept as heap pages (the soak's RSS slope, docs/performance.md).
 */
export class BoundedCache {
  /**
   * @param {number} max entries a generation holds (at least 1)
   * @param {{ weigh: (key: any, value: any) => number, budget: number }} [size] what a generation may weigh
   */
  constructor(max, size) {
    if (!(max >= 1)) throw new Error(`BoundedCache: max must be at least 1 (got ${max})`);
    if (size && !(size.budget >= 1)) throw new Error(`BoundedCache: budget must be at least 1 (got ${size.budget})`);
    this.max = max;
    this.weigh = size?.weigh;
    this.budget = size?.budget ?? Infinity;
    this.young = new Map();
    this.old = new Map();
    this.youngWeight = 0;
    this.oldWeight = 0;
  }

  /** The value of `key`, made by `compute(key)` and remembered when absent. */
  get(key, compute) {
    let value = this.young.get(key);
    if (value !== undefined) return value;
    value = this.old.get(key);
    if (value === undefined) value = compute(key);
    this.set(key, value);
    return value;
  }

  /** The value of `key` if held (an old one moves back to the young generation), else undefined. */
  peek(key) {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  /** Remembers `value` for `key` in the young generation, turning the generations over when it is full. */
  set(key, value) {
    const w = this.weigh ? this.weigh(key, value) : 0;
    const had = this.young.get(key);
    if (had !== undefined) {
      this.young.delete(key);
      this.youngWeight -= this.weigh ? this.weigh(key, had) : 0;
    }
    if (this.young.size >= this.max || (this.young.size > 0 && this.youngWeight + w > this.budget)) {
      this.old = this.young;
      this.oldWeight = this.youngWeight;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += w;
  }

  /** Entries held now (both generations; a key in both counts twice), at most 2 × max. */
  get size() {
    return this.young.size + this.old.size;
  }

  /** What the entries held now weigh (both generations; 0 without `weigh`): at most 2 × budget plus one entry. */
  get weight() {
    return this.youngWeight + this.oldWeight;
  }
}
