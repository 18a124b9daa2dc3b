#!/usr/bin/env node
/**
 * Builds Ink with esbuild (no type-checking: that is `npm test`'s job):
 * - `dist/cli.js`, the `ink` command: one ESM entry file with source maps. Code reached only by a
 *   dynamic `import()` (the TUI, the Anthropic SDK, MCP, ...) goes to `dist/chunk-*.js` files that
 *   Node reads only when that import runs, so `ink --version` parses the entry alone.
 * - `dist/search-worker.js`, the grep/find worker thread, beside the code that starts it.
 * - `dist/meta.json`: esbuild's metafile (which inputs went to which output), for tests and bench.
 * - with `--bench`: `dist/bench/run.js` (the benchmarks, importing the core from sources).
 * String-width answers repeated strings from a cache (stringWidthCache), Ink's Output is replaced by one that remembers rows across frames (inkOutputRows), and Ink's text measuring and wrapping caches by bounded ones (inkTextCaches). React is built for production (`process.env.NODE_ENV` replaced at build time); the person's
 * environment is never changed. Packages outside the bundle: only the dev-only `typescript`
 * (used when running from sources) and ink's optional devtools.
 */
import { createHash } from "node:crypto";
import { build } from "esbuild";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const bench = process.argv.includes("--bench");

/** CommonJS dependencies call `require` for Node built-ins; an ESM bundle has to provide it. */
const banner = `import { createRequire as __inkCreateRequire } from "node:module"; const require = __inkCreateRequire(import.meta.url);`;

/**
 * yoga-layout (ink's layout engine) decodes its embedded wasm with `fetch(data:…)` when a global
 * `fetch` exists; touching Node's `fetch` loads undici (~60 ms at start-up). Its loader falls back
 * to decoding the base64 itself when `fetch` is absent, so the bundle makes it look absent there.
 */
const yogaWithoutFetch = {
  name: "yoga-without-fetch",
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]binaries[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("typeof fetch")) throw new Error(`${args.path}: yoga's wasm loader changed (no "typeof fetch"); update scripts/build.mjs`);
      return { contents: text.replaceAll("typeof fetch", "typeof __inkNoFetch"), loader: "js" };
    });
  },
};

/**
 * Ink measures every row of every frame with string-width (grapheme segmentation, emoji and
 * East-Asian width checks: the hottest code in a profile of a streaming run). A full-screen frame
 * is mostly the same rows as the last one, so each string-width copy in the bundle answers repeated
 * strings from a bounded cache, printable ASCII (one column a character) without segmenting, and
 * lines of ASCII, one-column symbols and colour codes by counting their symbols.
 */
const STRING_WIDTH_EXPORT = "export default function stringWidth(";

const stringWidthCache = {
  name: "string-width-cache",
  setup(b) {
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes(STRING_WIDTH_EXPORT)) throw new Error(`${args.path}: string-width's export changed (no "${STRING_WIDTH_EXPORT}"); update scripts/build.mjs`);
      // string-width's own export renamed, and scripts/string-width-cache.js's wrapper exported instead.
      const wrapper = await readFile(join(root, "scripts", "string-width-cache.js"), "utf8");
      return { contents: text.replace(STRING_WIDTH_EXPORT, "function __inkStringWidth(") + wrapper, loader: "js" };
    });
  },
};

/**
 * Ink's Output turns every row of every frame into a grid of cell objects and back into escape
 * codes, with measuring caches made anew for each frame; a full-screen frame is mostly the rows of
 * the last one. scripts/ink-output.js is the same class with each row's text remembered by what was
 * written on it and the caches kept across frames (bounded). It replaces Ink's file only when that
 * file is the one it was written against (by content hash): a new Ink stops the build, naming the
 * file, until the replacement is checked against it (test/build/ink-output.test.ts compares them).
 */
const INK_OUTPUT_SHA256 = "de9078c7fc647c40cf9e32d6658fcbbee91dae9e3f6334e5f4ebfc5905fc401d";
const inkOutputRows = {
  name: "ink-output-rows",
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, async (args) => {
      const original = await readFile(args.path);
      const hash = createHash("sha256").update(original).digest("hex");
      if (hash !== INK_OUTPUT_SHA256) throw new Error(`${args.path}: Ink's Output changed (sha256 ${hash}); check scripts/ink-output.js against it, then update INK_OUTPUT_SHA256 in scripts/build.mjs`);
      return { contents: await readFile(join(root, "scripts", "ink-output.js"), "utf8"), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * Ink's measureText and wrapText cache every text they ever saw (a Map and an object never
 * cleared): in a long TUI session, where new texts come all the time (child rows' figures each
 * second, a streaming answer's prefixes), that is memory that only grows. scripts/ink-measure-text.js
 * and scripts/ink-wrap-text.js are the same functions with bounded caches; like Output, each
 * replaces Ink's file only when it is the one they were written against (by content hash).
 */
const INK_TEXT_FILES = {
  "measure-text.js": ["ink-measure-text.js", "4562d24171af3063b91a0d965c652ebdf1e2bdf4fe7f75c6bc8664fefc77df6a"],
  "wrap-text.js": ["ink-wrap-text.js", "d2b8b4d05ed0eadd6c52149092f062ba048cda9928ce88e5176107c6fe38c19e"],
};
const inkTextCaches = {
  name: "ink-text-caches",
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/](measure|wrap)-text\.js$/ }, async (args) => {
      const [ours, expected] = INK_TEXT_FILES[args.path.split(/[\\/]/).pop()];
      const hash = createHash("sha256").update(await readFile(args.path)).digest("hex");
      if (hash !== expected) throw new Error(`${args.path}: Ink's file changed (sha256 ${hash}); check scripts/${ours} against it, then update INK_TEXT_FILES in scripts/build.mjs`);
      return { contents: await readFile(join(root, "scripts", ours), "utf8"), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  absWorkingDir: root,
  define: { "process.env.NODE_ENV": '"production"' },
  external: ["typescript", "react-devtools-core"],
  banner: { js: banner },
  plugins: [yogaWithoutFetch, stringWidthCache, inkOutputRows, inkTextCaches],
};

const started = performance.now();
if (!bench) {
  const result = await build({
    ...common,
    entryPoints: { cli: "src/cli.tsx", "search-worker": "src/tools/search-worker.ts" },
    outdir: dist,
    splitting: true,
    chunkNames: "chunk-[hash]",
    metafile: true,
  });
  writeFileSync(join(dist, "meta.json"), JSON.stringify(result.metafile));
  // Chunks of earlier builds are removed after the new ones exist (names are content hashes), so a
  // CLI already running from dist/ keeps finding the chunks it loads later.
  const current = new Set(Object.keys(result.metafile.outputs).map((p) => p.split("/").pop()));
  for (const name of readdirSync(dist)) {
    if (/^chunk-.*\.js(\.map)?$/.test(name) && !current.has(name)) rmSync(join(dist, name), { force: true });
  }
  // Node must treat dist/*.js as ESM even when the bundle is copied without the package.json.
  writeFileSync(join(dist, "package.json"), '{"type":"module"}\n');
} else {
  await build({ ...common, entryPoints: ["bench/run.ts"], outfile: join(dist, "bench", "run.js"), packages: "external" });
}
process.stdout.write(`ink: built ${bench ? "dist/bench/run.js" : "dist/cli.js"} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
