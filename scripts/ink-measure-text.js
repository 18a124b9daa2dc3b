/**
 * Replaces Ink's build/measure-text.js in the bundle (scripts/build.mjs, inkTextCaches): the same
 * dimensions of a text, from a cache that is bounded. Ink's own keeps every text it ever measured
 * (a Map never cleared), and a long TUI session measures new texts all the time — each second's
 * elapsed time and token count of every child row, every prefix of a streaming answer — so its
 * cache grew ~1 MB a minute in a soak. This one keeps at most two generations of 2,000 texts
 * (components/terminal/bounded-cache.js: the working set of a frame is kept across a turnover).
 */
import widestLine from 'widest-line';
import { BoundedCache } from "../components/terminal/bounded-cache.js";

const cache = new BoundedCache(2000);

/** Texts held now (both generations); for tests. */
export const measuredTexts = () => cache.size;

/** `{width, height}` of `text` in terminal cells and lines, as Ink's measureText. */
const measureText = (text) => {
  if (text.length === 0) {
    return { width: 0, height: 0 };
  }
  return cache.get(text, () => ({ width: widestLine(text), height: text.split('\n').length }));
};
export default measureText;
