/**
 * scripts/string-width-cache.js replaces string-width's export in the bundle and the tests
 * (scripts/ink-swaps.mjs): the same widths as string-width's own, counted for lines of ASCII,
 * one-column symbols and colour codes, from a cache that stays bounded.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { random } from "../../components/testing/random.js";
import { ORIGINAL } from "../../scripts/ink-swaps.mjs";

/** string-width as its package ships it (the tests resolve "string-width" to the bundle's swapped module). */
const ownStringWidth = async () => ((await import(pathToFileURL(join(process.cwd(), "node_modules", "string-width", "index.js")).href + ORIGINAL)) as { default: (s: string) => number }).default;

describe("the bundle's string-width shortcut (scripts/string-width-cache.js)", () => {
  it("gives string-width's own width for lines of ASCII, symbols and colour codes, and for the lines it leaves to string-width", async () => {
    // vitest resolves "string-width" to the bundle's module (scripts/ink-swaps.mjs), as scripts/build.mjs makes it.
    const { default: patched } = await import("string-width");
    const stringWidth = await ownStringWidth();
    expect(patched).not.toBe(stringWidth);
    const rnd = random(5);
    const PIECES = ["login", " ", "x", "·", "…", "●", "⠋", "│", "─", "✓", "›", "⏵", "é", "▶", "⌚", "✅", "漢", "e\u0301", "\u001b[1m", "\u001b[22m", "\u001b[38;2;10;20;30m", "\u001b[m", "\u001b[12345m", "\u001b[;m", "\u001b[2K", "\u001b"];
    for (let i = 0; i < 3000; i++) {
      let line = "";
      for (let k = 0, n = 1 + Math.floor(rnd() * 12); k < n; k++) line += PIECES[Math.floor(rnd() * PIECES.length)];
      expect(patched(line), JSON.stringify(line)).toBe(stringWidth(line));
      expect(patched(line), `${JSON.stringify(line)} again`).toBe(stringWidth(line));
    }
  });

  it("printable ASCII is one column a character, as string-width itself measures it", async () => {
    const stringWidth = await ownStringWidth();
    let all = "";
    for (let c = 0x20; c <= 0x7e; c++) {
      const ch = String.fromCharCode(c);
      expect(stringWidth(ch), JSON.stringify(ch)).toBe(1);
      all += ch;
    }
    expect(stringWidth(all)).toBe(all.length);
    expect(stringWidth("漢")).toBe(2); // outside the range a character is not always one column
  });
});

describe("the bundle's string-width cache (scripts/string-width-cache.js)", () => {
  it("holds a bounded number of strings however many distinct ones are measured, and keeps the ones in use", async () => {
    // vitest resolves "string-width" to the bundle's module (scripts/ink-swaps.mjs), as scripts/build.mjs makes it.
    const mod = (await import("string-width")) as unknown as { default: (s: string) => number; __inkWidthsHeld: () => number };
    const stringWidth = await ownStringWidth();
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

  it("holds a bounded number of characters however many distinct long strings are measured", async () => {
    const mod = (await import("string-width")) as unknown as { default: (s: string) => number; __inkWidthsHeld: () => number; __inkWidthsChars: () => number };
    // paragraphs of an answer measured whole (256 characters or more): 3,000 of ~1,000 characters
    for (let i = 0; i < 3_000; i++) expect(mod.default(`${i} ${"the login flow checks the token · ".repeat(30)}`)).toBeGreaterThan(1000);
    // a few hundred such strings, not the 2 × 4,000 its count bound allows
    expect(mod.__inkWidthsHeld()).toBeLessThanOrEqual(2 * Math.ceil(200_000 / 1_000) + 2);
    expect(mod.__inkWidthsChars()).toBeLessThanOrEqual(2 * 200_000 + 1_100);
  });
});
