#!/usr/bin/env node
/**
 * Builds Ink with esbuild (no type-checking: that is `npm test`'s job):
 * - `dist/cli.js`, the `ink` command: one ESM entry file with source maps. Code reached only by a
 *   dynamic `import()` (the TUI, the Anthropic SDK, MCP, ...) goes to `dist/chunk-*.js` files that
 *   Node reads only when that import runs, so `ink --version` parses the entry alone.
 * - `dist/search-worker.js`, the grep/find worker thread, beside the code that starts it.
 * - `dist/meta.json`: esbuild's metafile (which inputs went to which output), for tests and bench.
 * - with `--bench`: `dist/bench/run.js` (the benchmarks, importing the core from sources).
 * Ink's incremental renderer is patched (see inkIncrementalFix) and string-width and Ink's row caches are kept across frames (stringWidthCache, inkSharedOutputCaches). React is built for production (`process.env.NODE_ENV` replaced at build time); the person's
 * environment is never changed. Packages outside the bundle: only the dev-only `typescript`
 * (used when running from sources) and ink's optional devtools.
 */
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
 * Ink 6.8's incremental renderer moves the cursor up one row too few when the previous frame
 * ended with a line break — and Ink ends every frame that is shorter than the terminal with one —
 * so each frame is drawn a row lower and the screen scrolls, leaving stale rows behind. The fix:
 * count the row the trailing line break left the cursor on.
 */
const INK_CURSOR_UP = "buffer.push(ansiEscapes.cursorUp(previousVisible - 1));";
const inkIncrementalFix = {
  name: "ink-incremental-fix",
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]log-update\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes(INK_CURSOR_UP)) throw new Error(`${args.path}: ink's incremental renderer changed (no "${INK_CURSOR_UP}"); check whether its trailing-newline bug is fixed and update scripts/build.mjs`);
      return { contents: text.replace(INK_CURSOR_UP, "buffer.push(ansiEscapes.cursorUp(previousVisible - (previousOutput.endsWith('\\n') ? 0 : 1)));"), loader: "js" };
    });
  },
};

/**
 * Ink measures every row of every frame with string-width (grapheme segmentation, emoji and
 * East-Asian width checks: the hottest code in a profile of a streaming run). A full-screen frame
 * is mostly the same rows as the last one, so each string-width copy in the bundle answers repeated
 * strings from a bounded cache.
 */
const STRING_WIDTH_EXPORT = "export default function stringWidth(";
const stringWidthCache = {
  name: "string-width-cache",
  setup(b) {
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes(STRING_WIDTH_EXPORT)) throw new Error(`${args.path}: string-width's export changed (no "${STRING_WIDTH_EXPORT}"); update scripts/build.mjs`);
      const cached = `
const __inkWidths = new Map();
export default function stringWidth(input, options) {
  if (typeof input !== "string" || (options !== undefined && Object.keys(options).length > 0)) return __inkStringWidth(input, options);
  let width = __inkWidths.get(input);
  if (width === undefined) {
    width = __inkStringWidth(input);
    if (__inkWidths.size >= 20000) __inkWidths.clear();
    __inkWidths.set(input, width);
  }
  return width;
}
`;
      return { contents: text.replace(STRING_WIDTH_EXPORT, "function __inkStringWidth(") + cached, loader: "js" };
    });
  },
};

/**
 * Ink's Output keeps caches of each row's styled characters and widths, but a new Output (and so
 * empty caches) is made for every frame, and a clipped row is sliced again each time. Shared across frames — a full-screen frame is mostly the
 * rows of the last one — they are kept, cleared when they pass a bound. The cached character
 * objects are only read (placed in the frame's grid), never changed.
 */
const INK_OUTPUT_CACHES = "caches = new OutputCaches();";
const INK_SLICE = "return sliceAnsi(line, from, to);";
const inkSharedOutputCaches = {
  name: "ink-shared-output-caches",
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes(INK_OUTPUT_CACHES)) throw new Error(`${args.path}: ink's Output changed (no "${INK_OUTPUT_CACHES}"); update scripts/build.mjs`);
      const shared = `
let __inkOutputCaches;
function __inkSharedOutputCaches() {
  const c = (__inkOutputCaches ??= new OutputCaches());
  if (c.styledChars.size > 1500) c.styledChars.clear();
  if (c.widths.size > 20000) c.widths.clear();
  if (c.blockWidths.size > 5000) c.blockWidths.clear();
  return c;
}
const __inkSlices = new Map();
/** sliceAnsi for a clipped row, remembered: the same rows are clipped the same way frame after frame. */
function __inkSlice(line, from, to) {
  const key = from + ":" + to + ":" + line;
  let sliced = __inkSlices.get(key);
  if (sliced === undefined) {
    sliced = sliceAnsi(line, from, to);
    if (__inkSlices.size > 5000) __inkSlices.clear();
    __inkSlices.set(key, sliced);
  }
  return sliced;
}
`;
      if (!text.includes(INK_SLICE)) throw new Error(`${args.path}: ink's Output changed (no "${INK_SLICE}"); update scripts/build.mjs`);
      return {
        contents: text
          .replace(INK_OUTPUT_CACHES, "caches = __inkSharedOutputCaches();")
          .replace(INK_SLICE, "return __inkSlice(line, from, to);")
          .replace("export default class Output", `${shared}export default class Output`),
        loader: "js",
      };
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
  plugins: [yogaWithoutFetch, inkIncrementalFix, stringWidthCache, inkSharedOutputCaches],
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
