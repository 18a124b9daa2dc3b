#!/usr/bin/env node
/**
 * Builds Ink with esbuild (no type-checking: that is `npm test`'s job):
 * - `dist/cli.js`, the `ink` command: one ESM entry file with source maps. Code reached only by a
 *   dynamic `import()` (the TUI, the Anthropic SDK, MCP, ...) goes to `dist/chunk-*.js` files that
 *   Node reads only when that import runs, so `ink --version` parses the entry alone.
 * - `dist/search-worker.js`, the grep/find worker thread, beside the code that starts it.
 * - `dist/meta.json`: esbuild's metafile (which inputs went to which output), for tests and bench.
 * - with `--bench`: `dist/bench/run.js` (the benchmarks, importing the core from sources).
 * The files of string-width and yoga it replaces are listed in scripts/ink-swaps.mjs, which
 * vitest.config.ts uses too (tests run what the bundle runs). React is built for production (`process.env.NODE_ENV` replaced at build time); the person's
 * environment is never changed. Packages outside the bundle: only the dev-only `typescript`
 * (used when running from sources) and ink's optional devtools.
 */
import { build } from "esbuild";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { esbuildSwaps } from "./ink-swaps.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const bench = process.argv.includes("--bench");

/** CommonJS dependencies call `require` for Node built-ins; an ESM bundle has to provide it. */
const banner = `import { createRequire as __inkCreateRequire } from "node:module"; const require = __inkCreateRequire(import.meta.url);`;

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
  plugins: esbuildSwaps(),
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
