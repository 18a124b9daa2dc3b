/**
 * scripts/ink-measure-text.js and scripts/ink-wrap-text.js replace Ink's measureText and wrapText
 * in the bundle (scripts/build.mjs, inkTextCaches): the same answers as Ink's own, from caches that
 * stay bounded however many distinct texts a long session measures (Ink's keep every one).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { random } from "../../components/testing/random.js";
import { ORIGINAL } from "../../scripts/ink-swaps.mjs";

type Measure = (text: string) => { width: number; height: number };
type Wrap = (text: string, maxWidth: number, wrapType: string) => string;

const load = async <T>(...path: string[]): Promise<Record<string, unknown> & { default: T }> => (await import(pathToFileURL(join(process.cwd(), ...path)).href)) as Record<string, unknown> & { default: T };
/** Ink's own file, not the swap vitest resolves it to (vitest.config.ts). */
const inkOwn = async <T>(file: string): Promise<{ default: T }> => (await import(pathToFileURL(join(process.cwd(), "node_modules", "ink", "build", file)).href + ORIGINAL)) as { default: T };

const WORDS = ["login", "src/auth.ts", "漢字", "🙂", "é", "x", "   ", "—", "verify(req)", "\u001b[31mred\u001b[39m", "\u001b[1mbold\u001b[22m", "\n"];

function text(rnd: () => number): string {
  let s = "";
  for (let i = 0, n = 1 + Math.floor(rnd() * 12); i < n; i++) s += `${WORDS[Math.floor(rnd() * WORDS.length)]!}${rnd() < 0.6 ? " " : ""}`;
  return s;
}

describe("Ink's text caches, bounded (scripts/ink-measure-text.js, scripts/ink-wrap-text.js)", () => {
  it("measure as Ink's measureText does", async () => {
    const [ink, ours] = [(await inkOwn<Measure>("measure-text.js")).default, (await load<Measure>("scripts", "ink-measure-text.js")).default];
    const rnd = random(7);
    for (let i = 0; i < 2000; i++) {
      const t = i === 0 ? "" : text(rnd);
      expect(ours(t), JSON.stringify(t)).toEqual(ink(t));
      expect(ours(t), `${JSON.stringify(t)} again`).toEqual(ink(t));
    }
  });

  it("wrap and truncate as Ink's wrapText does", async () => {
    const [ink, ours] = [(await inkOwn<Wrap>("wrap-text.js")).default, (await load<Wrap>("scripts", "ink-wrap-text.js")).default];
    const rnd = random(11);
    const types = ["wrap", "truncate", "truncate-end", "truncate-middle", "truncate-start"];
    for (let i = 0; i < 2000; i++) {
      const t = text(rnd).replaceAll("\n", " ");
      const width = 1 + Math.floor(rnd() * 30);
      const type = types[i % types.length]!;
      expect(ours(t, width, type), `${JSON.stringify(t)} at ${width}, ${type}`).toBe(ink(t, width, type));
    }
  });

  it("hold a bounded number of texts however many distinct ones are measured, and keep the ones in use", async () => {
    const m = await load<Measure>("scripts", "ink-measure-text.js");
    const w = await load<Wrap>("scripts", "ink-wrap-text.js");
    const measuredTexts = m.measuredTexts as () => number;
    const wrappedTexts = w.wrappedTexts as () => number;
    const kept = m.default("a row drawn every frame");
    const keptWrap = w.default("a long row drawn every frame, wrapped", 10, "wrap");
    for (let i = 0; i < 12_000; i++) {
      // each second's figures of a child row: a new text every time
      m.default(`⠋ general · look at part ${i % 8} · ${i}s · ${i * 10} tok`);
      w.default(`⠋ general · look at part ${i % 8} · ${i}s · ${i * 10} tok`, 20, "truncate-end");
      if (i % 100 === 0) {
        expect(m.default("a row drawn every frame")).toBe(kept); // the working set survives the turnovers
        expect(w.default("a long row drawn every frame, wrapped", 10, "wrap")).toBe(keptWrap);
      }
    }
    expect(measuredTexts()).toBeLessThanOrEqual(4000);
    expect(wrappedTexts()).toBeLessThanOrEqual(2000);
  });
});

describe("the bundle's string-width cache (scripts/string-width-cache.js)", () => {
  it("holds a bounded number of strings however many distinct ones are measured, and keeps the ones in use", async () => {
    // vitest resolves "string-width" to the bundle's module (scripts/ink-swaps.mjs), as scripts/build.mjs makes it.
    const mod = (await import("string-width")) as unknown as { default: (s: string) => number; __inkWidthsHeld: () => number };
    const stringWidth = ((await import(pathToFileURL(join(process.cwd(), "node_modules", "string-width", "index.js")).href + ORIGINAL)) as { default: (s: string) => number }).default;
    const row = "\u001b[36m⠋ \u001b[39m\u001b[1mgeneral\u001b[22m a row drawn every frame";
    const rowWidth = stringWidth(row);
    for (let i = 0; i < 30_000; i++) {
      // each second's figures of a child row: a new string every time
      const figures = `\u001b[36m⠋ \u001b[39mgeneral · part ${i % 8} · ${i}s · ${i * 10} tok 漢`;
      const width = mod.default(figures);
      if (i % 100 === 0) expect(width).toBe(stringWidth(figures));
      if (i % 500 === 0) expect(mod.default(row)).toBe(rowWidth);
    }
    expect(mod.__inkWidthsHeld()).toBeLessThanOrEqual(8000);
  });
});

describe("the built bundle", () => {
  it("carries the bounded text caches, not Ink's", () => {
    const dist = join(process.cwd(), "dist");
    const chunks = readdirSync(dist).filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(dist, f), "utf8"));
    const ink = chunks.find((c) => c.includes("// node_modules/ink/build/measure-text.js"));
    expect(ink).toBeDefined();
    // Ink's own: `const cachedDimensions = cache.get(text)` and `const cachedText = cache[cacheKey]`.
    expect(ink).not.toMatch(/cachedDimensions|cachedText/);
    expect(ink).toMatch(/cache\.get\(text, \(\) => \(\{ width: widestLine\(text\)/);
    expect(chunks.some((c) => c.includes("// components/terminal/bounded-cache.js"))).toBe(true);
  });
});
