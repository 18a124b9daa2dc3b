import stringWidth from "string-width";
import { describe, expect, it, vi } from "vitest";
import { cachedCells, cellsOf, fullscreenUpdate, inlineUpdate, primeCells, rowPatch, scrollBytes } from "./frame-diff.js";
import { compactSgr } from "./sgr-peephole.js";
import { random } from "../testing/random.js";
import { ScreenEmulator } from "../testing/screen-emulator.js";

const dim = (s: string) => `\u001b[2m${s}\u001b[22m`;
const cyan = (s: string) => `\u001b[36m${s}\u001b[39m`;
const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "");

/** A terminal showing `rows` drawn the way Ink draws a first frame (from the cursor, each row then a line break). */
function screenWith(rows: readonly string[], columns: number, height: number): ScreenEmulator {
  const term = new ScreenEmulator(columns, height);
  term.write(`${rows.join("\n")}\n`);
  return term;
}

/** What a fresh draw of `rows` looks like. */
const fresh = (rows: readonly string[], columns: number, height: number) => screenWith(rows, columns, height).lines();

/** Line `n` of a made-up answer: lines near each other share no columns, as prose's lines do not. */
function prose(n: number): string {
  const words = ["the", "login", "handler", "verifies", "a", "request", "and", "redirects", "user", "after", "check", "session", "store", "keeps", "file"];
  return Array.from({ length: 11 }, (_, w) => words[(n * 7 + w * (n % 5 + 2)) % words.length]).join(" ") + ` (${n})`;
}

/** A transcript of numbered lines with a status area below; `from` is the first line shown. */
function transcript(from: number, height: number, width: number, sidebar?: string[]): string[] {
  const rows: string[] = [];
  for (let i = 0; i < height - 2; i++) {
    const text = `line ${from + i} of the answer: ${"words ".repeat((from + i) % 7)}`.slice(0, width).padEnd(width);
    rows.push(sidebar ? `${text}${cyan("│")} ${sidebar[i] ?? ""}`.trimEnd() : text.trimEnd());
  }
  rows.push(dim("─".repeat(width + (sidebar ? 20 : 0))), `│ › Ask Ink ${"⠋"}`);
  return rows;
}

describe("cells", () => {
  it("splits a row into one-column characters with the colours in force, and refuses wide characters", () => {
    const c = cellsOf(`a${cyan("b")}c`)!;
    expect(c.text).toBe("abc");
    expect(c.styles).toEqual(["", "\u001b[36m", ""]); // the close code ends the colour
    expect(cellsOf("╭─ › ⠋ é")?.text).toHaveLength(8);
    expect(cellsOf("漢字")).toBeUndefined();
    expect(cellsOf("emoji 🚀")).toBeUndefined();
    expect(cellsOf("\u001b]8;;http://x\u0007link")).toBeUndefined();
  });

  it("reads a row's styles as the renderer draws them: one sequence's codes each, a close ending its part, a new colour replacing the old", () => {
    const ESC = "\u001b[";
    expect(cellsOf(`${ESC}1;31mx${ESC}22my`)!.styles).toEqual([`${ESC}1m${ESC}31m`, `${ESC}31m`]); // y is red, not bold
    expect(cellsOf(`${ESC}31mx${ESC}32my`)!.styles).toEqual([`${ESC}31m`, `${ESC}32m`]);
    expect(cellsOf(`${ESC}38;5;208mx${ESC}39my`)!.styles).toEqual([`${ESC}38;5;208m`, ""]);
    // A patch that starts at y writes y's own style, so the terminal does not draw it bold.
    expect(rowPatch(`${ESC}1;31mx${ESC}22ma`, `${ESC}1;31mx${ESC}22mb`, 80)).toEqual({ pieces: [{ col: 1, text: `${ESC}31mb${ESC}0m`, width: 1 }] });
  });

  it("patches only the changed cells of a row, and rewrites a row it cannot count whole", () => {
    expect(rowPatch("│ › ⠋ working", "│ › ⠙ working", 80)).toEqual({ pieces: [{ col: 4, text: "⠙", width: 1 }] });
    expect(rowPatch("the answer so", "the answer so far", 80)).toEqual({ pieces: [{ col: 14, text: "far", width: 3 }] }); // the space past the old end is blank already
    expect(rowPatch("a longer row", "a long", 80)).toEqual({ pieces: [], eraseFrom: 6 });
    expect(rowPatch(`x ${dim("old")}`, `x ${dim("new")}`, 80)?.pieces).toEqual([{ col: 2, text: "\u001b[2mnew\u001b[0m", width: 3 }]);
    expect(rowPatch("漢字 a", "漢字 b", 80)).toEqual({ pieces: [{ col: 0, text: "漢字 b", width: 6 }], eraseFrom: 6 });
    expect(rowPatch("same", "same", 80)).toBeUndefined();
  });

  it("erases a run of 12 or more blank cells with ECH instead of writing the spaces", () => {
    const box = (text: string) => `│ ${text.padEnd(30)} │`;
    const patch = rowPatch(box("a successful check; the tests"), box("about th"), 80)!;
    expect(patch.pieces).toEqual([
      { col: 3, text: "bout th", width: 7 },
      { col: 10, text: "", width: 21, erase: true },
    ]);
    // Fewer than 12 blanks are written as spaces; a styled blank is not a blank cell.
    expect(rowPatch(box("abcdefghijk"), box(""), 80)!.pieces).toEqual([{ col: 2, text: " ".repeat(11), width: 11 }]);
    expect(rowPatch(`x${" ".repeat(20)}y`, `x${cyan(" ".repeat(20))}y`, 80)!.pieces.some((p) => p.erase)).toBe(false);
  });
});

describe("inline frames", () => {
  it("a spinner tick writes the glyph's cell, not the live area", () => {
    const rows = Array.from({ length: 39 }, (_, i) => `row ${i} of the live area, with some text in it`);
    const before = [...rows, "⠋ working… (Esc stops)"];
    const after = [...rows, "⠙ working… (Esc stops)"];
    const bytes = inlineUpdate(before, after, 120);
    expect(bytes).toBe("\u001b[1A\r⠙\n\r"); // a row down is a line feed
    const term = screenWith(before, 120, 45);
    term.write(bytes);
    expect(term.lines()).toEqual(fresh(after, 120, 45));
  });

  it("a band that moved up is moved by the terminal (DL + IL) and only the new rows drawn", () => {
    const answer = (from: number) => [...Array.from({ length: 30 }, (_, i) => `line ${from + i} of the answer, long enough to be worth moving`), "─".repeat(60), "⠋ working…"];
    const bytes = inlineUpdate(answer(0), answer(1), 80, true);
    expect(bytes).toMatch(/^\u001b\[0m\u001b\[32A\r\u001b\[1M\u001b\[29B\u001b\[1L/);
    expect(bytes).toContain("line 30 of the answer");
    expect(bytes).not.toContain("line 5 ");
    const term = screenWith(answer(0), 80, 40);
    term.write(bytes);
    expect(term.lines()).toEqual(fresh(answer(1), 80, 40));
  });

  it("a band that moved up many rows at once (a fast answer) is moved by the terminal too", () => {
    const answer = (from: number) => [...Array.from({ length: 36 }, (_, i) => prose(from + i)), "─".repeat(60), "⠋ working…"];
    for (const by of [9, 14, 25]) {
      const bytes = inlineUpdate(answer(0), answer(by), 80, true);
      expect(bytes).toContain(`\u001b[${by}M`);
      expect(bytes).not.toContain(`(${by})`); // the first row now shown was moved, not written
      expect(bytes.length).toBeLessThan(inlineUpdate(answer(0), answer(by), 80, false).length * ((by + 4) / 36));
      const term = screenWith(answer(0), 80, 40);
      term.write(bytes);
      expect(term.lines()).toEqual(fresh(answer(by), 80, 40));
    }
  });

  it("a band moves up while the frame grows or shrinks a row below it: moved by the terminal all the same", () => {
    const answer = (from: number, foot: number) => [...Array.from({ length: 30 }, (_, i) => prose(from + i)), "─".repeat(60), ...Array.from({ length: foot }, (_, i) => `foot ${i}`)];
    for (const [a, b] of [[2, 3], [3, 1]] as const) {
      const bytes = inlineUpdate(answer(0, a), answer(12, b), 80, true);
      expect(bytes).toContain("\u001b[12M");
      expect(bytes).not.toContain("(12)");
      const term = screenWith(answer(0, a), 80, 40);
      term.write(bytes);
      expect(term.lines()).toEqual(fresh(answer(12, b), 80, 40));
    }
  });

  for (const scroll of [false, true])
  it(`any sequence of frames — growing, shrinking, changing, moving up — leaves the screen as a fresh draw would${scroll ? " (moved by the terminal)" : ""}`, () => {
    const rnd = random(scroll ? 31 : 29);
    const word = () => ["alpha", "beta", cyan("gamma"), dim("delta"), "ε", "─", "漢"][Math.floor(rnd() * 7)]!;
    const frame = () => Array.from({ length: 1 + Math.floor(rnd() * 12) }, () => Array.from({ length: Math.floor(rnd() * 8) }, word).join(" "));
    let prev = frame();
    const term = screenWith(prev, 60, 20);
    let moves = 0;
    for (let step = 0; step < 300; step++) {
      const roll = rnd();
      const next = roll < 0.4 ? prev.map((r) => (rnd() < 0.2 ? frame()[0]! : r)) : roll < 0.7 ? [...prev.slice(1 + Math.floor(rnd() * 3)), ...frame()].slice(0, prev.length) : frame();
      while (next.length < prev.length && roll >= 0.4 && roll < 0.7) next.push(frame()[0]!);
      // the foot grows or shrinks by a row as the rows above move up
      if (roll >= 0.4 && roll < 0.7 && step % 3 === 1) next.push(frame()[0]!);
      if (roll >= 0.4 && roll < 0.7 && step % 3 === 2 && next.length > 1) next.pop();
      const bytes = inlineUpdate(prev, next, 60, scroll);
      if (/\u001b\[\d+M/.test(bytes)) moves++;
      term.write(bytes);
      // Compare the frame's rows (bottom-aligned on the cursor row) with the frame.
      const shown = term.lines().slice(term.row - next.length, term.row);
      expect(shown, `step ${step}`).toEqual(next.map((r) => strip(r).trimEnd()));
      expect(term.lines().slice(term.row).every((r) => r === "")).toBe(true);
      // A terminal that reflows on a resize (tmux) counts each row no wider than the frame's row:
      // the inline frame owner erases a frame by the rows its text covers once narrowed.
      const used = term.usedWidths().slice(term.row - next.length, term.row);
      expect(used.map((w, i) => w <= stringWidth(strip(next[i]!))), `step ${step}: ${used.join(",")}`).not.toContain(false);
      prev = next;
    }
    expect(moves > 0).toBe(scroll);
  });
});

describe("side-by-side boxes that blank their bodies", () => {
  /** Two bordered boxes side by side, each body `lines` of random words or blank (a pane that paged). */
  function panes(rnd: () => number): string[] {
    const word = () => ["alpha", "beta", cyan("gamma"), dim("delta"), "─"][Math.floor(rnd() * 5)]!;
    const body = () => (rnd() < 0.4 ? "" : Array.from({ length: Math.floor(rnd() * 5) }, word).join(" "));
    const cell = (text: string) => `${cyan("│")} ${text}${" ".repeat(Math.max(0, 26 - strip(text).length))} ${cyan("│")}`;
    return Array.from({ length: 6 }, () => `${cell(body())}${cell(body())}`);
  }

  for (const mode of ["inline", "full-screen"] as const) {
    it(`${mode}: blanked cells are erased with ECH and the screen is what a fresh draw shows`, () => {
      const rnd = random(mode === "inline" ? 41 : 43);
      let prev = panes(rnd);
      const term = screenWith(prev, 70, 10);
      if (mode === "full-screen") term.write("\u001b[H");
      let erases = 0;
      for (let step = 0; step < 200; step++) {
        const next = panes(rnd);
        const bytes = mode === "inline" ? inlineUpdate(prev, next, 70) : fullscreenUpdate(prev, next, 70, false);
        erases += (bytes.match(/\u001b\[\d+X/g) ?? []).length;
        term.write(bytes);
        const shown = mode === "inline" ? term.lines().slice(term.row - next.length, term.row) : term.lines().slice(0, next.length);
        expect(shown, `step ${step}`).toEqual(next.map((r) => strip(r).trimEnd()));
        prev = next;
      }
      expect(erases).toBeGreaterThan(50);
    });
  }
});

describe("full-screen frames", () => {
  it("a one-row scroll writes the scroll sequence and the new row, not the whole viewport", () => {
    const before = transcript(0, 24, 80);
    const after = transcript(1, 24, 80);
    after[after.length - 1] = before.at(-1)!;
    const bytes = fullscreenUpdate(before, after, 80, true);
    expect(bytes.startsWith(scrollBytes(0, 21, 1))).toBe(true);
    expect(bytes).toContain(strip(after[21]!)); // the new row
    expect(bytes).not.toContain("line 5 ");
    const repaint = fullscreenUpdate(before, after, 80, false);
    expect(bytes.length).toBeLessThan(repaint.length / 5);
    const term = screenWith(before, 80, 25);
    term.write(bytes);
    expect(term.lines()).toEqual(fresh(after, 80, 25));
  });

  it("with a sidebar beside the transcript, the scroll's fix-up puts the sidebar back", () => {
    const side = ["Child sessions (2)", "", "● a1b2c3 running", "  reading files", "○ d4e5f6 done", ...Array.from({ length: 17 }, () => "")];
    const before = transcript(10, 24, 80, side);
    const after = transcript(11, 24, 80, side);
    const bytes = fullscreenUpdate(before, after, 120, true);
    expect(bytes).toContain("r\u001b[1S");
    expect(bytes.length).toBeLessThan(fullscreenUpdate(before, after, 120, false).length / 2);
    const term = screenWith(before, 120, 25);
    term.write(bytes);
    expect(term.lines()).toEqual(fresh(after, 120, 25));
  });

  it("a scroll of 14 rows (a fast answer) writes the scroll sequence and the 14 new rows", () => {
    const answer = (from: number) => [...Array.from({ length: 38 }, (_, i) => prose(from + i)), "─".repeat(60), "⠋ working…"];
    const before = answer(0);
    const after = answer(14);
    const bytes = fullscreenUpdate(before, after, 80, true);
    expect(bytes).toMatch(/^\u001b\[0m\u001b\[1;\d+r\u001b\[14S\u001b\[r/);
    expect(bytes).not.toContain("(20)");
    expect(bytes.length).toBeLessThan(fullscreenUpdate(before, after, 80, false).length / 2);
    const term = screenWith(before, 80, 41);
    term.write(bytes);
    expect(term.lines()).toEqual(fresh(after, 80, 41));
  });

  it("scrolls of any size with changing rows around them leave the screen as a fresh draw would", () => {
    const rnd = random(7);
    for (const sidebar of [undefined, ["Child sessions (1)", "● x running"]]) {
      let from = 0;
      let prev = transcript(from, 24, 80, sidebar);
      const term = screenWith(prev, 120, 25);
      for (let step = 0; step < 120; step++) {
        from += rnd() < 0.8 ? Math.floor(rnd() * 4) : Math.floor(rnd() * 20);
        const next = transcript(from, 24, 80, sidebar);
        if (rnd() < 0.3) next[Math.floor(rnd() * 22)] = `edited ${step}`;
        next[next.length - 1] = `│ › Ask Ink ${"⠋⠙⠹⠸"[step % 4]}`;
        term.write(fullscreenUpdate(prev, next, 120, true));
        expect(term.lines(), `step ${step}`).toEqual(fresh(next, 120, 25));
        expect([term.row, term.col]).toEqual([24, 0]);
        prev = next;
      }
    }
  });
});

describe("full-screen: moves between the rows of one update", () => {
  /** Eight child rows: a name, the elapsed seconds and tokens (dim: they move every other second), the words. */
  const rows = (s: number, words: string) => Array.from({ length: 8 }, (_, i) => `● child ${i} [abcd${i}0]${dim(` ${s}s · ${100 + (s >> 1) * 50 + i} tok`)} · ${words}`);

  it("a column of figures one under the other is patched with relative moves (CUD and BS), and the screen is a fresh draw's", () => {
    let prev = ["header", ...rows(3, "reading the login code")];
    const term = screenWith(prev, 120, 12);
    for (let s = 4; s < 30; s++) {
      const next = ["header", ...rows(s, s % 3 ? "reading the login code" : `now at step ${s}`)];
      const bytes = fullscreenUpdate(prev, next, 120, false);
      term.write(bytes);
      expect(term.lines(), `second ${s}`).toEqual(fresh(next, 120, 12));
      expect([term.row, term.col]).toEqual([9, 0]);
      prev = next;
    }
    // One absolute move (the first row), then the next row down from where the last patch ended.
    const bytes = fullscreenUpdate(["header", ...rows(4, "x")], ["header", ...rows(5, "x")], 120, false, false); // the seconds alone (no move below the frame)
    expect(bytes.match(/\u001b\[\d+;\d+H/g)).toHaveLength(1);
    expect(bytes).toContain("\u001b[B");
    // 8 rows × a digit and a move of 4 bytes (CUD, BS), the first move and the dim (its resets
    // between the rows dropped as the frame writer drops them): not 8 bytes a move.
    expect(compactSgr(bytes).length).toBeLessThan(8 * 6 + 16);
  });
});

describe("rows of side-by-side panes whose bodies move up a row", () => {
  it("a row drawn over a blank row jumps over its blank cells instead of erasing them", () => {
    const row = `${cyan("│")} about the code${" ".repeat(40)} ${cyan("││")} about the code${" ".repeat(40)} ${cyan("│")}`;
    const patch = rowPatch("", row, 120)!;
    expect(patch.pieces.some((p) => p.erase)).toBe(false);
    expect(patch.pieces.map((p) => p.col)).toEqual([0, 57, 115]);
  });

  /** Four rows of two bordered panes (a header and `body` rows of text each); pane p's body shows lines from[p].. of its text. */
  function paneGrid(from: number[], body = 3): string[] {
    const cell = (text: string) => `${cyan("│")} ${text.padEnd(54)} ${cyan("│")}`;
    const words = ["the", "login", "is", "handled", "in", "src/auth/login.ts", "which", "verifies", "request", "and", "redirects", "user"];
    const line = (p: number, n: number) => `${n}: ${Array.from({ length: 9 }, (_, w) => words[(n * 7 + w * (n % 5 + 1)) % words.length]).join(" ")}`.slice(0, 54);
    const rows: string[] = [];
    for (let r = 0; r < 4; r++) {
      rows.push(cyan(`╭${"─".repeat(56)}╮╭${"─".repeat(56)}╮`));
      rows.push(`${cell(`⠋ child ${2 * r} · running · 12s`)}${cell(`⠋ child ${2 * r + 1} · running · 12s`)}`);
      for (let b = 0; b < body; b++) rows.push(`${cell(line(2 * r, from[2 * r]! + b))}${cell(line(2 * r + 1, from[2 * r + 1]! + b))}`);
      rows.push(cyan(`╰${"─".repeat(56)}╯╰${"─".repeat(56)}╯`));
    }
    return [...rows, "⠋ working… (Esc stops)"];
  }

  for (const mode of ["inline", "full-screen"] as const) {
    it(`${mode}: each row of panes is moved by the terminal and only the new body rows are written`, () => {
      const before = paneGrid([0, 0, 0, 0, 0, 0, 0, 0]);
      const after = paneGrid([1, 1, 1, 1, 1, 1, 1, 1]);
      const bytes = mode === "inline" ? inlineUpdate(before, after, 120, true) : fullscreenUpdate(before, after, 120, true);
      // Four bands moved (DL+IL inline, a scroll region full-screen), and no old line written again.
      expect((bytes.match(mode === "inline" ? /\u001b\[1M/g : /\u001b\[1S/g) ?? []).length).toBe(4);
      expect(bytes).not.toContain("1: ");
      expect(bytes).not.toContain("2: ");
      // About the four new rows' text (8 panes × ~50 characters), not the twelve body rows.
      expect(strip(bytes).replace(/\u001b\[[0-9;]*[A-Za-z]|[\r\n]/g, "").length).toBeLessThan(8 * 60);
      const repaint = mode === "inline" ? inlineUpdate(before, after, 120, false) : fullscreenUpdate(before, after, 120, false);
      expect(bytes.length).toBeLessThan(repaint.length / 2);
      const term = screenWith(before, 120, 45);
      if (mode === "full-screen") term.write("\u001b[H");
      term.write(bytes);
      const shown = mode === "inline" ? term.lines().slice(term.row - after.length, term.row) : term.lines().slice(0, after.length);
      expect(shown).toEqual(after.map((r) => strip(r).trimEnd()));
    });

    it(`${mode}: panes moving up out of step (one, both or neither of a row) leave the screen as a fresh draw would`, () => {
      const rnd = random(mode === "inline" ? 53 : 59);
      const from = [0, 0, 0, 0, 0, 0, 0, 0];
      let prev = paneGrid(from);
      const term = screenWith(prev, 120, 45);
      if (mode === "full-screen") term.write("\u001b[H");
      let bands = 0;
      for (let step = 0; step < 150; step++) {
        for (let p = 0; p < 8; p++) if (rnd() < 0.4) from[p] = from[p]! + (rnd() < 0.8 ? 1 : 2);
        const next = paneGrid(from);
        const bytes = mode === "inline" ? inlineUpdate(prev, next, 120, true) : fullscreenUpdate(prev, next, 120, true);
        bands += (bytes.match(mode === "inline" ? /\u001b\[\d+M/g : /\u001b\[\d+S/g) ?? []).length;
        term.write(bytes);
        const shown = mode === "inline" ? term.lines().slice(term.row - next.length, term.row) : term.lines().slice(0, next.length);
        expect(shown, `step ${step}`).toEqual(next.map((r) => strip(r).trimEnd()));
        prev = next;
      }
      expect(bands).toBeGreaterThan(20); // scrolls were used (where a row of panes moved together), and never garbled
    });
  }
});

describe("primeCells: the renderer's cells of a row, handed to the diff", () => {
  it("works the cells out only for a row the diff does not hold yet (most rows are the same from frame to frame)", () => {
    const line = `prime ${Math.random()} · row`;
    const cells = vi.fn(() => ({ text: line, styles: null }));
    primeCells(line, cells);
    primeCells(line, cells);
    expect(cells).toHaveBeenCalledTimes(1);
    expect(cachedCells(line)).toEqual({ text: line, styles: null });
  });
});
