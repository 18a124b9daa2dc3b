/**
 * The files of Ink and string-width that this project replaces, in ONE place, used by both the
 * bundle (scripts/build.mjs, as esbuild plugins) and the tests (vitest.config.ts, as a Vite
 * plugin): unit tests run the same code `dist/` runs. Each swap names the file it replaces by a
 * path pattern and gives the text to load instead; a replacement of Ink's own file applies only
 * when that file is the one it was written against (by content hash), so a new Ink stops the build
 * and the test run, naming the file, until the replacement is checked against it.
 *
 * - string-width: Ink measures every row of every frame with it (grapheme segmentation, emoji and
 *   East-Asian width checks: the hottest code in a profile of a streaming run). Each copy answers
 *   repeated strings from a bounded cache, printable ASCII without segmenting, and lines of ASCII,
 *   one-column symbols and colour codes by counting (scripts/string-width-cache.js).
 * - Ink's Output: the same class with each row's text remembered by what was written on it and the
 *   caches kept across frames, bounded (scripts/ink-output.js; test/build/ink-output.test.ts
 *   compares it with Ink's).
 * - Ink's measureText and wrapText: the same functions with bounded caches (Ink's cache every text
 *   they ever saw: memory that only grows in a long session).
 * - yoga-layout decodes its embedded wasm with `fetch(data:…)` when a global `fetch` exists;
 *   touching Node's `fetch` loads undici (~60 ms at start-up), so the swap makes it look absent.
 */
import { createHash } from "node:crypto";
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

/** Ink's files replaced whole: Ink's file name → [our file in scripts/, the sha256 of the Ink file it was written against]. */
export const INK_FILES = {
  "output.js": ["ink-output.js", "de9078c7fc647c40cf9e32d6658fcbbee91dae9e3f6334e5f4ebfc5905fc401d"],
  "measure-text.js": ["ink-measure-text.js", "4562d24171af3063b91a0d965c652ebdf1e2bdf4fe7f75c6bc8664fefc77df6a"],
  "wrap-text.js": ["ink-wrap-text.js", "d2b8b4d05ed0eadd6c52149092f062ba048cda9928ce88e5176107c6fe38c19e"],
};

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
  {
    name: "ink-files",
    filter: /[\\/]ink[\\/]build[\\/](output|measure-text|wrap-text)\.js$/,
    async load(path) {
      const [ours, expected] = INK_FILES[path.split(/[\\/]/).pop()];
      const hash = createHash("sha256").update(await readFile(path)).digest("hex");
      if (hash !== expected) throw new Error(`${path}: Ink's file changed (sha256 ${hash}); check scripts/${ours} against it, then update INK_FILES in scripts/ink-swaps.mjs`);
      return withCacheImport(await readFile(join(scripts, ours), "utf8"));
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
