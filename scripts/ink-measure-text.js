/**
 * Replaces Ink's build/measure-text.js in the bundle (scripts/build.mjs, inkTextCaches): the same
 * dimensions of a text, from a cache that is bounded. Ink's own keeps every text it ever measured
 * (a Map never cleared), and a long TUI session measures new texts all the time — each second's
 * elapsed time and token count of every child row, every prefix of a streaming answer — so its
 * cache grew ~1 MB a minute in a soak. This one keeps at most two generations of MAX texts: a
 * young map that becomes the old one when full, an old entry used again moving back to the young
 * map, and the old map dropped as a whole at the next turn (the working set of a frame is kept).
 */
import widestLine from 'widest-line';

const MAX = 2000;
let young = new Map();
let old = new Map();

/** Texts held now (both generations); for tests. */
export const measuredTexts = () => young.size + old.size;

/** `{width, height}` of `text` in terminal cells and lines, as Ink's measureText. */
const measureText = (text) => {
  if (text.length === 0) {
    return { width: 0, height: 0 };
  }
  let dimensions = young.get(text);
  if (dimensions) return dimensions;
  dimensions = old.get(text);
  if (!dimensions) {
    dimensions = { width: widestLine(text), height: text.split('\n').length };
  }
  if (young.size >= MAX) {
    old = young;
    young = new Map();
  }
  young.set(text, dimensions);
  return dimensions;
};
export default measureText;
