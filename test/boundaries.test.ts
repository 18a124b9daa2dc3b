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

describe("architecture boundaries", () => {
  it("no file under src/ imports ink, react or components/ (cli.tsx may import them lazily)", () => {
    const offenders = sources(join(root, "src")).flatMap((f) => uiImports(relative(root, f), readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the check itself catches UI imports", () => {
    expect(uiImports("src/x.ts", 'import { Box } from "ink";')).toHaveLength(1);
    expect(uiImports("src/x.ts", "import React from 'react';")).toHaveLength(1);
    expect(uiImports("src/x.ts", 'import { App } from "../components/App.js";')).toHaveLength(1);
    expect(uiImports("src/x.ts", 'import { z } from "zod";')).toHaveLength(0);
  });
});
