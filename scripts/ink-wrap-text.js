/**
 * Replaces Ink's build/wrap-text.js in the bundle (scripts/build.mjs, inkTextCaches): the same
 * wrapped or truncated text, from a bounded cache. Ink's own keeps every (text, width, wrap type)
 * it ever wrapped in an object never cleared; a long session wraps new texts all the time. This
 * one keeps at most two generations of MAX entries (see scripts/ink-measure-text.js).
 */
import wrapAnsi from 'wrap-ansi';
import cliTruncate from 'cli-truncate';

const MAX = 1000;
let young = new Map();
let old = new Map();

/** Entries held now (both generations); for tests. */
export const wrappedTexts = () => young.size + old.size;

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
  let wrapped = young.get(key);
  if (wrapped !== undefined) return wrapped;
  wrapped = old.get(key);
  if (wrapped === undefined) wrapped = wrap(text, maxWidth, wrapType);
  if (young.size >= MAX) {
    old = young;
    young = new Map();
  }
  young.set(key, wrapped);
  return wrapped;
};
export default wrapText;
