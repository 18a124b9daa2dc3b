import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const UI_IMPORT = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)["'](ink|react|ink-text-input|ink-testing-library)(?:\/[^"']*)?["']|["'][^"']*components\/[^"']*["']/;

/** Every .ts/.tsx file under a directory. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The UI imports of a file, as "file: line". cli.tsx may load the UI, but only lazily. */
export function uiImports(file: string, text: string): string[] {
  const hits: string[] = [];
  for (const line of text.split("\n")) {
    if (!UI_IMPORT.test(line)) continue;
    if (file.endsWith("cli.tsx") && /import\s*\(/.test(line)) continue;
    hits.push(`${file}: ${line.trim()}`);
  }
  return hits;
}

/** The sibling src/ folders a file one level below src/<layer>/ imports ("../core/x.js" → "core"). */
export function srcLayersImported(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)["']\.\.\/([a-z-]+)\//g)) out.push(m[1]!);
  return out;
}

describe("architecture boundaries", () => {
  it("no file under src/ imports ink, react or components/ (cli.tsx may import them lazily)", () => {
    const offenders = sources(join(root, "src")).flatMap((f) => uiImports(relative(root, f), readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("layers point one way: protocol imports no other layer; tools, providers, session and settings import only protocol", () => {
    const allowed: Record<string, string[]> = { protocol: [], tools: ["protocol"], providers: ["protocol"], session: ["protocol"], settings: ["protocol"] };
    const offenders: string[] = [];
    for (const [layer, may] of Object.entries(allowed)) {
      for (const file of sources(join(root, "src", layer))) {
        for (const target of srcLayersImported(readFileSync(file, "utf8"))) {
          if (!may.includes(target)) offenders.push(`${relative(root, file)} imports src/${target}/`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the loop and the subagents sit above providers: core and subagents get a Provider passed in and never import src/providers/ or src/cli/; core never imports subagents", () => {
    const forbidden: Record<string, string[]> = { core: ["providers", "cli", "subagents"], subagents: ["providers", "cli"] };
    const offenders: string[] = [];
    for (const [layer, never] of Object.entries(forbidden)) {
      for (const file of sources(join(root, "src", layer))) {
        for (const target of srcLayersImported(readFileSync(file, "utf8"))) {
          if (never.includes(target)) offenders.push(`${relative(root, file)} imports src/${target}/`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("the layer check itself sees a cross-layer import", () => {
    expect(srcLayersImported('import { runAgentLoop } from "../core/loop.js";')).toEqual(["core"]);
    expect(srcLayersImported('import type { Tool } from "../protocol/tool.js";\nimport { x } from "./walk.js";')).toEqual(["protocol"]);
  });

  it("the check itself catches UI imports", () => {
    expect(uiImports("src/x.ts", 'import { Box } from "ink";')).toHaveLength(1);
    expect(uiImports("src/x.ts", "import React from 'react';")).toHaveLength(1);
    expect(uiImports("src/x.ts", 'import { App } from "../components/App.js";')).toHaveLength(1);
    expect(uiImports("src/x.ts", 'import { z } from "zod";')).toHaveLength(0);
  });
});
