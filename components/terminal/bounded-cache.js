/**
 * The one bounded cache of the project (plain JavaScript: the bundle's string-width swap in
 * scripts/ imports it too, see scripts/ink-swaps.mjs). One policy: at most 2 × `max` entries in two
 * generations. New entries go to the young map; when it holds `max`, it becomes the old map and the
 * old one is dropped whole; an old entry used again moves back to the young map. So what was used
 * since the last turnover survives it (a frame's working set is never dropped at once — clearing
 * everything when full made the next frame recompute every row: a slow frame and a burst of
 * garbage), and memory is bounded however many distinct keys a long session makes. `undefined` is
 * never a value (a compute that has nothing gives null).
 */
export class BoundedCache {
  /** @param {number} max entries a generation holds (at least 1) */
  constructor(max) {
    if (!(max >= 1)) throw new Error(`BoundedCache: max must be at least 1 (got ${max})`);
    this.max = max;
    this.young = new Map();
    this.old = new Map();
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
    if (this.young.size >= this.max) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  /** Entries held now (both generations; a key in both counts twice), at most 2 × max. */
  get size() {
    return this.young.size + this.old.size;
  }
}
