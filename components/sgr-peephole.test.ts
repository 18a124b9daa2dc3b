import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { fullscreenUpdate, inlineUpdate } from "./frame-diff.js";
import { inkStream } from "./ink-stream.js";
import { compactSgr } from "./sgr-peephole.js";
import { random } from "./testing/random.js";
import { ScreenEmulator } from "./testing/screen-emulator.js";

const E = "\u001b[";
const dim = (s: string) => `${E}2m${s}${E}22m`;

describe("compactSgr", () => {
  it("drops a reset that the same colours re-open after cursor moves only", () => {
    const bytes = `${E}0m${E}27;72H${E}2mtests cov${E}0m${E}28;72H${E}2mtests cov${E}0m${E}40;1H`;
    expect(compactSgr(bytes)).toBe(`${E}27;72H${E}2mtests cov${E}28;72Htests cov${E}40;1H${E}0m`);
  });

  it("keeps the reset before text, erases and scrolls, and when other colours follow; writes only extra codes", () => {
    expect(compactSgr(`${E}2ma${E}0m${E}5Gb`)).toBe(`${E}2ma${E}5G${E}0mb`);
    expect(compactSgr(`${E}2ma${E}0m${E}5G${E}10X`)).toBe(`${E}2ma${E}5G${E}0m${E}10X`);
    expect(compactSgr(`${E}2ma${E}0m${E}5G${E}36mb${E}0m`)).toBe(`${E}2ma${E}5G${E}0;36mb${E}0m`); // one sequence for the reset and the colour
    expect(compactSgr(`${E}2ma${E}0m${E}5G${E}2m${E}1mb${E}0m`)).toBe(`${E}2ma${E}5G${E}1mb${E}0m`);
  });

  it("starts from the default pen (as frame-diff's runs of cells do) and leaves bytes without a reset as they are", () => {
    expect(compactSgr(`${E}0m${E}3Gx`)).toBe(`${E}3Gx`);
    expect(compactSgr(`${E}3Gx${E}1Ay`)).toBe(`${E}3Gx${E}1Ay`);
  });

  it("writes colour codes side by side as one sequence, in the same order", () => {
    expect(compactSgr(`${E}1m${E}36mx${E}0m${E}3G${E}m${E}38;5;200my`)).toBe(`${E}1;36mx${E}3G${E}0;38;5;200my`);
  });

  it("cuts the bytes of eight dim snippets one below the other, and the screen is the same", () => {
    const rows = (word: string) => Array.from({ length: 8 }, (_, i) => `⠋ child ${i} [ab12cd] 12s · 1.2k tok · ${dim(word)}`);
    const before = rows("the tests cover");
    const after = rows("wraps at about o");
    const raw = fullscreenUpdate(before, after, 80, false);
    const term = new ScreenEmulator(80, 12);
    term.write(`${before.join("\n")}\n${E}H`);
    term.write(compactSgr(raw));
    expect(term.lines().slice(0, 8)).toEqual(after.map((r) => r.replace(/\u001b\[[0-9;]*m/g, "")));
    expect(compactSgr(raw).length).toBe(raw.length - 7 * 8); // seven resets and re-opened dims (8 bytes each) left out
  });

  it("is what the full-screen stream writes: one dim for eight snippets", () => {
    const writes: string[] = [];
    const tty = Object.assign(new PassThrough(), { rows: 40, columns: 80, isTTY: true }) as unknown as NodeJS.WriteStream;
    tty.write = ((chunk: string) => writes.push(chunk) > 0) as NodeJS.WriteStream["write"];
    const stream = inkStream(tty, { reflow: false, frames: "fullscreen", scroll: true });
    const rows = (word: string) => Array.from({ length: 8 }, (_, i) => `⠋ child ${i} [ab12cd] 12s · 1.2k tok · ${dim(word)}`);
    stream.write(`${rows("the tests cover").join("\n")}\n`);
    stream.write(`${"\u001b[2K\u001b[1A".repeat(8)}\u001b[2K\u001b[G${rows("wraps at about o").join("\n")}\n`);
    expect(writes[1]!.split(`${E}2m`).length - 1).toBe(1);
    expect(writes[1]!.split(`${E}0m`).length - 1).toBe(1);
  });

  it("leaves the pen as a fresh draw would over random coloured frames (colours compared cell by cell)", () => {
    const rnd = random(61);
    const codes = ["2", "36", "1", "33"];
    const word = () => {
      const text = ["alpha", "beta", "gamma", "──", "·"][Math.floor(rnd() * 5)]!;
      const code = rnd() < 0.5 ? codes[Math.floor(rnd() * codes.length)] : undefined;
      return code ? `${E}${code}m${text}${E}0m` : text;
    };
    const frame = () => Array.from({ length: 10 }, () => Array.from({ length: Math.floor(rnd() * 6) }, word).join(" "));
    let prev = frame();
    const plain = new PenEmulator(60, 14);
    const compact = new PenEmulator(60, 14);
    plain.write(`${prev.join("\n")}\n`);
    compact.write(`${prev.join("\n")}\n`);
    let saved = 0;
    for (let step = 0; step < 200; step++) {
      const next = prev.map((r) => (rnd() < 0.4 ? frame()[0]! : r));
      const raw = step % 2 ? inlineUpdate(prev, next, 60) : fullscreenUpdate(prev, next, 60, false).replace(/^/, `${E}H`);
      const cut = compactSgr(raw);
      saved += raw.length - cut.length;
      plain.write(raw);
      compact.write(cut);
      expect(compact.cells, `step ${step}`).toEqual(plain.cells);
      expect(compact.pen, `step ${step}`).toBe("");
      if (step % 2 === 0) {
        // back to the row below the frame, where the inline update expects the cursor
        plain.write(`${E}${next.length + 1};1H`);
        compact.write(`${E}${next.length + 1};1H`);
      }
      prev = next;
    }
    expect(saved).toBeGreaterThan(0);
  });
});

/** A tiny terminal that keeps each cell's character and SGR pen (the codes in force, in order), enough for the sequences frame-diff writes. */
class PenEmulator {
  cells: string[][];
  pen = "";
  private row = 0;
  private col = 0;
  constructor(
    private columns: number,
    rows: number,
  ) {
    this.cells = Array.from({ length: rows }, () => Array.from({ length: columns }, () => " "));
  }
  private put(ch: string) {
    if (this.col < this.columns) this.cells[this.row]![this.col] = `${this.pen}|${ch}`;
    this.col++;
  }
  write(data: string) {
    const re = /\u001b\[([0-9;]*)([A-Za-z])|\r|\n|[^\u001b\r\n]/gy;
    for (let m = re.exec(data); m; m = re.exec(data)) {
      const [tok, params = "", fin] = m;
      const n = Number(params.split(";")[0] || 1);
      if (tok === "\r") this.col = 0;
      else if (tok === "\n") {
        this.row++;
        this.col = 0;
      } else if (fin === undefined) this.put(tok);
      else if (fin === "m") for (const p of params.split(";")) this.pen = p === "" || p === "0" ? "" : `${this.pen};${p}`.replace(/^;/, "");
      else if (fin === "H") {
        const [r = "1", c = "1"] = params.split(";");
        this.row = Number(r) - 1;
        this.col = Number(c) - 1;
      } else if (fin === "G") this.col = n - 1;
      else if (fin === "A") this.row -= n;
      else if (fin === "B") this.row += n;
      else if (fin === "K") for (let c = this.col; c < this.columns; c++) this.cells[this.row]![c] = `${this.pen}| `;
      else if (fin === "X") for (let c = this.col; c < Math.min(this.columns, this.col + n); c++) this.cells[this.row]![c] = `${this.pen}| `;
      else if (fin === "J") for (let r = this.row; r < this.cells.length; r++) for (let c = r === this.row ? this.col : 0; c < this.columns; c++) this.cells[r]![c] = `${this.pen}| `;
      else throw new Error(`PenEmulator: ${JSON.stringify(tok)}`);
    }
  }
}
