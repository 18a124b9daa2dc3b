/**
 * scripts/ink-output.js replaces Ink's Output in the bundle (scripts/build.mjs): it must print the
 * same frame as Ink's own for the same operations — styled and wide characters, clips, transformers,
 * writes outside the grid — frame after frame, as its row cache fills and is reused.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { random } from "../../components/testing/random.js";
import { ORIGINAL } from "../../scripts/ink-swaps.mjs";

/** string-width as its package ships it (the tests resolve "string-width" to the bundle's swapped module). */
const ownStringWidth = async () => ((await import(pathToFileURL(join(process.cwd(), "node_modules", "string-width", "index.js")).href + ORIGINAL)) as { default: (s: string) => number }).default;

type Transformer = (line: string, index: number) => string;
interface OutputLike {
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (options: { width: number; height: number }) => OutputLike;

const load = async (path: string, query = ""): Promise<OutputClass> => ((await import(pathToFileURL(path).href + query)) as { default: OutputClass }).default;
// vitest swaps Ink's file for ours as the bundle does (vitest.config.ts); ORIGINAL asks for Ink's own.
const inks = load(join(process.cwd(), "node_modules", "ink", "build", "output.js"), ORIGINAL);
const ours = load(join(process.cwd(), "scripts", "ink-output.js"));

const WORDS = ["login", "src/auth.ts", "漢字", "🙂", "é", "x", "   ", "—", "a\u0301", "verify(req)"];
const STYLES = ["\u001b[1m", "\u001b[2m", "\u001b[31m", "\u001b[38;5;120m", "\u001b[44m", "\u001b[4m"];
const RESETS = ["\u001b[22m", "\u001b[22m", "\u001b[39m", "\u001b[39m", "\u001b[49m", "\u001b[24m"];

type Op = { kind: "write"; x: number; y: number; text: string; transformers: Transformer[] } | { kind: "clip"; clip: { x1?: number; x2?: number; y1?: number; y2?: number } } | { kind: "unclip" };

const ASCII = ["login", "src/auth.ts", "x", "   ", "verify(req)", "~!@#$%^&*()_+{}|:<>?", "a-b"];

function styledLine(rnd: () => number): string {
  let line = "";
  if (rnd() < 0.3) {
    for (let i = 0, n = 1 + Math.floor(rnd() * 6); i < n; i++) line += `${ASCII[Math.floor(rnd() * ASCII.length)]} `;
    return line;
  }
  const n = 1 + Math.floor(rnd() * 6);
  for (let i = 0; i < n; i++) {
    const word = WORDS[Math.floor(rnd() * WORDS.length)]!;
    const s = Math.floor(rnd() * (STYLES.length + 2));
    line += s < STYLES.length ? `${STYLES[s]}${word}${RESETS[s]} ` : `${word} `;
  }
  return line;
}

const TRANSFORMERS: Transformer[] = [(line) => `\u001b[1m${line}\u001b[22m`, (line, index) => (index % 2 ? line.toUpperCase() : line), (line) => ` ${line}`];

function scene(rnd: () => number, width: number, height: number): Op[] {
  const ops: Op[] = [];
  let depth = 0;
  const n = 3 + Math.floor(rnd() * 12);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.15) {
      const x1 = Math.floor(rnd() * width);
      const y1 = Math.floor(rnd() * height);
      ops.push({ kind: "clip", clip: rnd() < 0.3 ? { x1, x2: x1 + Math.floor(rnd() * width) } : rnd() < 0.5 ? { y1, y2: y1 + Math.floor(rnd() * height) } : { x1, x2: x1 + Math.floor(rnd() * width), y1, y2: y1 + Math.floor(rnd() * height) } });
      depth++;
    } else if (r < 0.22 && depth > 0) {
      ops.push({ kind: "unclip" });
      depth--;
    } else {
      const lines = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => styledLine(rnd));
      const transformers = TRANSFORMERS.filter(() => rnd() < 0.25);
      ops.push({ kind: "write", x: Math.floor(rnd() * (width + 4)) - 2, y: Math.floor(rnd() * (height + 4)) - 2, text: rnd() < 0.05 ? "" : lines.join("\n"), transformers });
    }
  }
  return ops;
}

function frame(Output: OutputClass, width: number, height: number, ops: Op[]): { output: string; height: number } {
  const output = new Output({ width, height });
  for (const op of ops) {
    if (op.kind === "write") output.write(op.x, op.y, op.text, { transformers: op.transformers });
    else if (op.kind === "clip") output.clip(op.clip);
    else output.unclip();
  }
  return output.get();
}

describe("the bundle's Output (scripts/ink-output.js)", () => {
  it("prints the frame Ink's Output prints, for random scenes and for the same scene again", async () => {
    const [Ink, Ours] = [await inks, await ours];
    const rnd = random(20261203);
    let styled = 0;
    for (let i = 0; i < 400; i++) {
      const width = 10 + Math.floor(rnd() * 50);
      const height = 1 + Math.floor(rnd() * 12);
      const ops = scene(rnd, width, height);
      const expected = frame(Ink, width, height, ops);
      if (expected.output.includes("\u001b[")) styled++;
      expect(frame(Ours, width, height, ops), `scene ${i}`).toEqual(expected);
      // The same scene again (rows now from the cache), and at another width (never a stale row).
      expect(frame(Ours, width, height, ops), `scene ${i} again`).toEqual(expected);
      expect(frame(Ours, width + 3, height, ops), `scene ${i} wider`).toEqual(frame(Ink, width + 3, height, ops));
    }
    expect(styled).toBeGreaterThan(100);
  });

  it("prints the same for boxes side by side (placements that touch but never overlap), as panes are drawn", async () => {
    const [Ink, Ours] = [await inks, await ours];
    const rnd = random(7);
    const widthOf = (line: string) => frame(Ink, 400, 1, [{ kind: "write", x: 0, y: 0, text: line, transformers: [] }]).output.replace(/\u001b\[[0-9;]*m/g, "").length;
    for (let i = 0; i < 300; i++) {
      const width = 20 + Math.floor(rnd() * 60);
      const height = 1 + Math.floor(rnd() * 6);
      const ops: Op[] = [];
      for (let y = 0; y < height; y++) {
        let x = Math.floor(rnd() * 3);
        while (x < width) {
          const line = rnd() < 0.2 ? `\u001b[2m│\u001b[22m` : styledLine(rnd);
          const w = [...line.replace(/\u001b\[[0-9;]*m/g, "")].length + 4; // an upper bound (wide characters count two)
          if (x + w > width) break;
          ops.push({ kind: "write", x, y, text: line, transformers: [] });
          x += Math.min(w, widthOf(line) + Math.floor(rnd() * 3)); // 0–2 blank cells between, often none
        }
      }
      if (rnd() < 0.5) ops.reverse(); // written in any order
      expect(frame(Ours, width, height, ops), `layout ${i}`).toEqual(frame(Ink, width, height, ops));
      expect(frame(Ours, width, height, ops), `layout ${i} again`).toEqual(frame(Ink, width, height, ops));
    }
  });

  it("prints the same for lines of ASCII and common symbols styled with SGR codes (Ink's own colouring), however the codes combine, clipped or not", async () => {
    const [Ink, Ours] = [await inks, await ours];
    const rnd = random(4242);
    // Combined parameters, full and empty resets, 256 and true colour, intensity pairs, codes with
    // no text between them and styles left open at the end of a line.
    const CODES = ["\u001b[1m", "\u001b[2m", "\u001b[22m", "\u001b[1;33m", "\u001b[0m", "\u001b[m", "\u001b[38;2;10;20;30m", "\u001b[48;5;17m", "\u001b[39;49m", "\u001b[3m", "\u001b[23m", "\u001b[7m", "\u001b[31m\u001b[32m"];
    const line = () => {
      let text = "";
      for (let i = 0, n = 1 + Math.floor(rnd() * 8); i < n; i++) {
        if (rnd() < 0.6) text += CODES[Math.floor(rnd() * CODES.length)];
        if (rnd() < 0.8) text += rnd() < 0.7 ? ASCII[Math.floor(rnd() * ASCII.length)] : SYMBOLS[Math.floor(rnd() * SYMBOLS.length)];
      }
      return text;
    };
    // One column each, and some that are not (emoji, a combining accent) next to them.
    const SYMBOLS = ["·", "…", "●", "⠋", "│", "─", "✓", "›", "⏵", "é", "▶", "⌚", "✅", "e\u0301", "漢"];
    let styled = 0;
    for (let i = 0; i < 400; i++) {
      const width = 10 + Math.floor(rnd() * 50);
      const height = 1 + Math.floor(rnd() * 6);
      const ops: Op[] = [];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x += 1 + Math.floor(rnd() * 25)) ops.push({ kind: "write", x, y, text: rnd() < 0.3 ? `${line()}\n${line()}` : line(), transformers: [] });
      }
      // A clip that cuts the edges, or one that holds every line whole (as a pane's box does).
      const clip = rnd();
      if (clip < 0.3) ops.unshift({ kind: "clip", clip: { x1: 1, x2: width - 2 } });
      else if (clip < 0.7) ops.unshift({ kind: "clip", clip: { x1: 0, x2: width + 200 } });
      // Transformers that style every line, that change odd lines only, or that leave lines alone.
      const identity: Transformer = (text) => text;
      const transformers = [[], [identity], [TRANSFORMERS[0]!], [TRANSFORMERS[1]!], [identity, TRANSFORMERS[2]!]][Math.floor(rnd() * 5)]!;
      for (const op of ops) if (op.kind === "write") op.transformers = transformers;
      const expected = frame(Ink, width, height, ops);
      if (expected.output.includes("\u001b[")) styled++;
      expect(frame(Ours, width, height, ops), `scene ${i}`).toEqual(expected);
      expect(frame(Ours, width, height, ops), `scene ${i} again`).toEqual(expected);
    }
    expect(styled).toBeGreaterThan(300);
  });

  it("keeps printing the same frames while its caches turn over (far more distinct lines than they hold)", async () => {
    const [Ink, Ours] = [await inks, await ours];
    const rnd = random(99);
    const pool = Array.from({ length: 6000 }, (_, i) => `\u001b[3${i % 8}m${ASCII[i % ASCII.length]} ${i}\u001b[39m ${i % 3 ? "é" : ""}`);
    for (let f = 0; f < 600; f++) {
      const ops: Op[] = Array.from({ length: 20 }, (_, y) => ({ kind: "write" as const, x: y % 3, y, text: pool[Math.floor(rnd() * (f < 300 ? pool.length : 50))]!, transformers: [] }));
      expect(frame(Ours, 30, 20, ops), `frame ${f}`).toEqual(frame(Ink, 30, 20, ops));
    }
  });

  it("a changed word on one row changes that row and no other", async () => {
    const Ours = await ours;
    const ops = (word: string): Op[] => [
      { kind: "write", x: 0, y: 0, text: "first row\nsecond row", transformers: [] },
      { kind: "write", x: 2, y: 2, text: `\u001b[31m${word}\u001b[39m`, transformers: [] },
    ];
    expect(frame(Ours, 20, 3, ops("old")).output).toBe("first row\nsecond row\n  \u001b[31mold\u001b[39m");
    expect(frame(Ours, 20, 3, ops("new")).output).toBe("first row\nsecond row\n  \u001b[31mnew\u001b[39m");
  });
});

describe("the comparison itself", () => {
  it("is with Ink's own Output, not the swap vitest resolves Ink's file to", async () => {
    expect((await inks).prototype.get.toString()).not.toContain("rowTexts");
    expect((await ours).prototype.get.toString()).toContain("rowTexts");
  });
});

describe("the built bundle", () => {
  it("carries the replacement Output, not Ink's", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const dist = join(process.cwd(), "dist");
    const chunks = readdirSync(dist).filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(dist, f), "utf8"));
    expect(chunks.some((c) => c.includes("function joinedRowText("))).toBe(true);
    expect(chunks.some((c) => c.includes("lineWithoutEmptyItems"))).toBe(false);
  });
});

describe("the bundle's string-width shortcut (scripts/build.mjs stringWidthCache)", () => {
  it("treats the same symbol blocks as simple as the bundle's Output does (the two lists are kept alike)", async () => {
    const { readFileSync } = await import("node:fs");
    const blocks = (file: string) => readFileSync(join(process.cwd(), "scripts", file), "utf8").match(/\^\(\?:\[(\\x20-\\x7e[^\]]*)\]/)?.[1];
    expect(blocks("string-width-cache.js")).toBeDefined();
    expect(blocks("string-width-cache.js")).toBe(blocks("ink-output.js"));
  });

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
