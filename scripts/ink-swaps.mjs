/**
 * The package files this project replaces, in ONE place, used by both the bundle
 * (scripts/build.mjs, as esbuild plugins) and the tests (vitest.config.ts, as a Vite plugin): unit
 * tests run the same code `dist/` runs. Each swap names the file it replaces by a path pattern and
 * gives the text to load instead, and stops the build and the test run, naming the file, when the
 * package's file no longer has what the swap edits. None is a file of Ink's: what the frame needs of
 * Ink's internals goes through components/terminal/ink-seam.ts (its Output no longer draws the frame,
 * and text nodes are measured through the seam).
 *
 * - string-width: every row of every frame is measured with it (grapheme segmentation, emoji and
 *   East-Asian width checks: the hottest code in a profile of a streaming run). Each copy answers
 *   repeated strings from a bounded cache, printable ASCII without segmenting, and lines of ASCII,
 *   one-column symbols and colour codes by counting (scripts/string-width-cache.js).
 * - yoga-layout decodes its embedded wasm with `fetch(data:…)` when a global `fetch` exists;
 *   touching Node's `fetch` loads undici (~60 ms at start-up), so the swap makes it look absent.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const scripts = dirname(fileURLToPath(import.meta.url));

const STRING_WIDTH_EXPORT = "export default function stringWidth(";

/**
 * Our files import the project's one bounded cache (components/terminal/bounded-cache.js) relative to
 * scripts/; put in place of a package's file they resolve from its folder, so the import is made absolute.
 */
const CACHE_IMPORT = '"../components/terminal/bounded-cache.js"';
const withCacheImport = (text) => text.replaceAll(CACHE_IMPORT, JSON.stringify(join(scripts, "..", "components", "terminal", "bounded-cache.js")));

/** @type {Array<{ name: string; filter: RegExp; load: (path: string) => Promise<string> }>} */
export const inkSwaps = [
  {
    name: "yoga-without-fetch",
    filter: /yoga-layout[\\/]dist[\\/]binaries[\\/].*\.js$/,
    async load(path) {
      const text = await readFile(path, "utf8");
      if (!text.includes("typeof fetch")) throw new Error(`${path}: yoga's wasm loader changed (no "typeof fetch"); update scripts/ink-swaps.mjs`);
      return text.replaceAll("typeof fetch", "typeof __inkNoFetch");
    },
  },
  {
    name: "string-width-cache",
    filter: /[\\/]string-width[\\/]index\.js$/,
    async load(path) {
      const text = await readFile(path, "utf8");
      if (!text.includes(STRING_WIDTH_EXPORT)) throw new Error(`${path}: string-width's export changed (no "${STRING_WIDTH_EXPORT}"); update scripts/ink-swaps.mjs`);
      // string-width's own export renamed, and scripts/string-width-cache.js's wrapper exported instead.
      const wrapper = await readFile(join(scripts, "string-width-cache.js"), "utf8");
      return text.replace(STRING_WIDTH_EXPORT, "function __inkStringWidth(") + withCacheImport(wrapper);
    },
  },
];

/** The swaps as esbuild plugins (a replacement resolves its imports from the replaced file's folder). */
export function esbuildSwaps() {
  return inkSwaps.map((swap) => ({
    name: swap.name,
    setup(b) {
      b.onLoad({ filter: swap.filter }, async (args) => ({ contents: await swap.load(args.path), loader: "js", resolveDir: dirname(args.path) }));
    },
  }));
}

/**
 * A query that loads a swapped file as its package ships it, for the tests that compare a
 * replacement with the original (`import(url + ORIGINAL)`); only vitest honours it.
 */
export const ORIGINAL = "?ink-original";

/** The swaps as one Vite plugin, for vitest (the packages they touch must be inlined: see vitest.config.ts). */
export function viteSwaps() {
  return {
    name: "ink-swaps",
    enforce: "pre",
    async load(id) {
      const [path, query] = id.split("?");
      if (query === ORIGINAL.slice(1)) return readFile(path, "utf8");
      const swap = inkSwaps.find((s) => s.filter.test(path));
      return swap ? swap.load(path) : null;
    },
  };
}
