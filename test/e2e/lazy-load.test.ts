/**
 * Thin start: the built CLI (dist/cli.js and its chunks) loads only what a command needs. A module
 * hook registered with `node --import` logs every file the ESM loader loads; esbuild's metafile
 * (dist/meta.json) says which packages went into which output file.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_CLI, ensureBuilt } from "../helpers/build.js";

const root = join(import.meta.dirname, "..", "..");
let dir = "";

interface Meta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "ink-lazy-"));
  writeFileSync(
    join(dir, "hooks.mjs"),
    'import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  if (url.startsWith("file:")) appendFileSync(process.env.INK_TEST_LOAD_LOG, url + "\\n");\n  return next(url, context);\n}\n',
  );
  writeFileSync(join(dir, "register.mjs"), 'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n');
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the built CLI with `args`; returns the dist/ files it loaded (relative to the repo) and its output. */
function loadedFiles(args: string[], name: string): { files: string[]; stdout: string } {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, "");
  const home = mkdtempSync(join(dir, "home-"));
  const r = spawnSync(process.execPath, ["--import", join(dir, "register.mjs"), BUILT_CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, INK_TEST_LOAD_LOG: log, INK_HOME: home, ANTHROPIC_API_KEY: "", INK_DEMO_DELAY_MS: "0" },
  });
  expect(r.status, r.stderr).toBe(0);
  const files = readFileSync(log, "utf8").split("\n").filter(Boolean).map((u) => relative(root, fileURLToPath(u)));
  return { files, stdout: r.stdout };
}

/** The packages (node_modules/<name>) and src/ files bundled into the given outputs. */
function contents(files: string[]): Set<string> {
  const meta = JSON.parse(readFileSync(join(root, "dist", "meta.json"), "utf8")) as Meta;
  const out = new Set<string>();
  for (const file of files) {
    const output = meta.outputs[file];
    if (!output) continue;
    for (const input of Object.keys(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      out.add(m ? m[1]! : input);
    }
  }
  return out;
}

describe("lazy loading in the built CLI", () => {
  it("bundles React's production build only (NODE_ENV is set in one place: the build's define)", () => {
    const meta = JSON.parse(readFileSync(join(root, "dist", "meta.json"), "utf8")) as { inputs: Record<string, unknown> };
    const react = Object.keys(meta.inputs).filter((i) => /node_modules\/react(-reconciler)?\/cjs\//.test(i));
    expect(react.length).toBeGreaterThan(0);
    expect(react.filter((i) => !i.includes(".production."))).toEqual([]);
  });

  it("--version and --help load no package and none of the core", () => {
    for (const flag of ["--version", "--help"]) {
      const { files, stdout } = loadedFiles([flag], flag.slice(2));
      expect(stdout.length).toBeGreaterThan(0);
      expect(files).toContain("dist/cli.js");
      const loaded = [...contents(files)];
      // Ink's version (read for --version and saved in session headers) is a leaf of node built-ins.
      expect(loaded.filter((i) => !i.startsWith("src/cli") && i !== "src/protocol/ink-version.ts")).toEqual([]);
      expect(loaded).not.toContain("src/cli/main.ts");
    }
  });

  it("a headless run with the demo model loads zod and the core but not the Anthropic SDK, MCP, ink or react", () => {
    const { files, stdout } = loadedFiles(["-p", "say hi", "--provider", "demo", "--cwd", dir], "print");
    expect(stdout.length).toBeGreaterThan(0);
    const loaded = contents(files);
    // The hook sees chunks loaded by dynamic import: the core and zod are there.
    expect(loaded).toContain("src/cli/main.ts");
    expect(loaded).toContain("zod");
    for (const pkg of ["@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "ink", "react"]) expect(loaded, pkg).not.toContain(pkg);
  });
});
