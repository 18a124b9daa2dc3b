/**
 * Appended to string-width's index.js in the bundle (scripts/build.mjs, stringWidthCache), whose
 * own export is renamed `__inkStringWidth`: the same widths, answered without grapheme
 * segmentation for printable ASCII and for lines of ASCII, one-column symbols and colour codes,
 * and from a bounded cache (two generations) for the rest. test/build/string-width-cache.test.ts compares it with
 * string-width itself.
 */
/* global __inkStringWidth */
// The project's one cache policy (components/terminal/bounded-cache.js: two generations of at most 4,000
// strings and 200,000 characters each; scripts/ink-swaps.mjs makes the path absolute). One map of
// 20,000 cleared at once held ~5 MB of a soak's heap — child rows' figures are new strings every
// second — and dropped the working set with the rest. Counted in strings alone, long ones (a
// paragraph of 256 characters or more is measured whole) filled it over minutes: 0.7 MB at minute 4
// of a soak's heap snapshot and still growing.
import { BoundedCache as __InkBoundedCache } from "../components/terminal/bounded-cache.js";
const __inkWidths = new __InkBoundedCache(4000, { weigh: (input) => input.length, budget: 200_000 });
/** Strings whose width is held now (both generations); for tests. */
export function __inkWidthsHeld() {
  return __inkWidths.size;
}
/** Characters of the strings whose width is held now (both generations); for tests. */
export function __inkWidthsChars() {
  return __inkWidths.weight;
}
const __inkPrintableAscii = /^[\x20-\x7e]*$/;
// ASCII, one-column symbols of a few blocks (no marks or joiners: each its own grapheme) and SGR
// codes of up to 3 digits a parameter (all of which strip-ansi removes): the width is the count of
// symbols, once each symbol is checked to be one column.
const __inkSimple = /^(?:[\x20-\x7e\u00a1-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u2800-\u28ff]|\x1b\[(?:[0-9]{1,3}(?:;[0-9]{0,3})*)?m)*$/;
const __inkNarrow = new Map();
function __inkSimpleWidth(input) {
  let width = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x1b) {
      i = input.indexOf("m", i);
      continue;
    }
    if (c > 0x7e) {
      const symbol = input[i];
      let narrow = __inkNarrow.get(symbol);
      if (narrow === undefined) __inkNarrow.set(symbol, (narrow = __inkStringWidth(symbol) === 1));
      if (!narrow) return -1;
    }
    width++;
  }
  return width;
}
export default function stringWidth(input, options) {
  if (typeof input !== "string" || (options !== undefined && Object.keys(options).length > 0)) return __inkStringWidth(input, options);
  if (input.length < 256 && __inkPrintableAscii.test(input)) return input.length;
  return __inkWidths.get(input, () => {
    const width = __inkSimple.test(input) ? __inkSimpleWidth(input) : -1;
    return width < 0 ? __inkStringWidth(input) : width;
  });
}
