/**
 * Replaces Ink's build/wrap-text.js in the bundle (scripts/build.mjs, inkTextCaches): the same
 * wrapped or truncated text, from a bounded cache. Ink's own keeps every (text, width, wrap type)
 * it ever wrapped in an object never cleared; a long session wraps new texts all the time. This
 * one keeps at most two generations of 1,000 entries (components/terminal/bounded-cache.js).
 */
import wrapAnsi from 'wrap-ansi';
import cliTruncate from 'cli-truncate';
import { BoundedCache } from "../components/terminal/bounded-cache.js";

const cache = new BoundedCache(1000);

/** Entries held now (both generations); for tests. */
export const wrappedTexts = () => cache.size;

function wrap(text, maxWidth, wrapType) {
  if (wrapType === 'wrap') {
    return wrapAnsi(text, maxWidth, { trim: false, hard: true });
  }
  if (wrapType.startsWith('truncate')) {
    let position = 'end';
    if (wrapType === 'truncate-middle') position = 'middle';
    if (wrapType === 'truncate-start') position = 'start';
    return cliTruncate(text, maxWidth, { position });
  }
  return text;
}

/** `text` wrapped (`wrap`) or truncated (`truncate…`) to `maxWidth` columns, as Ink's wrapText. */
const wrapText = (text, maxWidth, wrapType) => {
  const key = `${maxWidth}\u0000${wrapType}\u0000${text}`;
  return cache.get(key, () => wrap(text, maxWidth, wrapType));
};
export default wrapText;
