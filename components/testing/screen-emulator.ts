/**
 * A small terminal emulator for tests of the bytes the UI writes: a grid of `columns`×`rows` cells
 * (text only; colours are dropped), a cursor with the pending wrap of the last column, line feeds
 * that scroll (into a scrollback) at the bottom margin, and the sequences the renderer uses —
 * CUU/CUD/CUF/CUB/CHA/CUP/CNL, EL, ECH and ED (from the cursor, or the whole screen), DECSTBM, SU,
 * DL and IL; OSC strings are skipped. Line feeds return the carriage as a pty's ONLCR does. A wide
 * character (string-width 2) takes two cells (wrapping first when only one is left), and writing
 * over half of one blanks the other half, as tmux does. `resize` changes the size as tmux does for
 * a screen without reflow (the alternate screen). Any other escape sequence throws, so a test sees
 * what it missed. `usedWidths` tells the width each row has for a terminal that reflows the normal
 * screen on a resize (tmux 3.3: a row keeps the width of its last written cell until it is erased
 * from its first column; EL or ECH from a later column leave it).
 */
import stringWidth from "string-width";
import { BoundedCache } from "../terminal/bounded-cache.js";

/** Columns a character takes (string-width, remembered; at least one, at most two). */
const widths = new BoundedCache<string, number>(2000);
const widthOf = (ch: string): number => widths.get(ch, (c) => Math.max(1, Math.min(2, stringWidth(c))));
/** Whether the cell holds the left half of a wide character (its right half holds ""). */
const isWide = (ch: string) => ch !== "" && ch !== " " && widthOf(ch) === 2;

export class ScreenEmulator {
  grid: string[][];
  scrollback: string[] = [];
  row = 0;
  col = 0;
  private wrapPending = false;
  /** Per row: the columns a reflowing terminal counts (see usedWidths); a row absent here has 0. */
  private used = new WeakMap<string[], number>();
  private top = 0;
  private bottom: number;

  constructor(
    public columns: number,
    public rows: number,
  ) {
    this.grid = Array.from({ length: rows }, () => this.blankRow());
    this.bottom = rows - 1;
  }

  private blankRow(): string[] {
    return Array.from({ length: this.columns }, () => " ");
  }

  /**
   * The width of each row as a reflowing terminal (tmux) counts it when the screen narrows: up to
   * its last cell written since it was last erased from its first column (EL 2, EL or ED from
   * column 0, or a new blank row). A row counted wider than its text wraps onto more rows.
   */
  usedWidths(): number[] {
    return this.grid.map((r) => Math.min(this.columns, this.used.get(r) ?? 0));
  }

  /** The screen's rows, trailing blanks trimmed (the second cell of a wide character holds ""). */
  lines(): string[] {
    return this.grid.map((r) => r.join("").trimEnd());
  }

  /**
   * Resizes as tmux does a screen without reflow (the alternate screen): rows are cut or padded on
   * the right; a shorter screen first loses rows below the cursor, then rows from the top (the
   * cursor moves up with them); a taller one gets blank rows at the bottom. The scroll region resets.
   */
  resize(columns: number, rows: number): void {
    for (const r of this.grid) {
      if (r.length > columns && r[columns] === "") r[columns - 1] = " "; // a wide character cut in half
      r.length = Math.min(r.length, columns);
      while (r.length < columns) r.push(" ");
    }
    this.columns = columns;
    if (rows < this.rows) {
      let needed = this.rows - rows;
      const below = Math.min(needed, this.rows - 1 - this.row);
      this.grid.splice(this.rows - below, below);
      needed -= below;
      if (needed > 0) {
        this.grid.splice(0, needed);
        this.row -= needed;
      }
    } else while (this.grid.length < rows) this.grid.push(this.blankRow());
    this.rows = rows;
    this.top = 0;
    this.bottom = rows - 1;
    this.col = Math.min(this.col, columns - 1);
    this.wrapPending = false;
  }

  /** Puts `ch` (`width` cells) at the cursor, blanking the halves of wide characters it overwrites. */
  private put(ch: string, width: number): void {
    const line = this.grid[this.row]!;
    for (let c = this.col; c < this.col + width; c++) {
      if (line[c] === "" && c > 0) line[c - 1] = " "; // the right half of a wide character: its left half goes
      if (line[c + 1] === "" && isWide(line[c]!)) line[c + 1] = " ";
    }
    line[this.col] = ch;
    if (width === 2) line[this.col + 1] = "";
    this.used.set(line, Math.max(this.used.get(line) ?? 0, this.col + width));
    if (this.col + width >= this.columns) {
      this.col = this.columns - 1;
      this.wrapPending = true;
    } else this.col += width;
  }

  /** Scrolls rows top–bottom up `n`; rows leaving the top of the whole screen go to the scrollback. */
  private scrollUp(n: number): void {
    for (let i = 0; i < n; i++) {
      const gone = this.grid.splice(this.top, 1)[0]!;
      if (this.top === 0 && this.bottom === this.rows - 1) this.scrollback.push(gone.join("").trimEnd());
      this.grid.splice(this.bottom, 0, this.blankRow());
    }
  }

  private lineFeed(): void {
    this.wrapPending = false;
    this.col = 0; // ONLCR
    if (this.row === this.bottom) this.scrollUp(1);
    else if (this.row < this.rows - 1) this.row++;
  }

  /** The cursor position DECSC saved. */
  private saved: [number, number] | undefined;

  write(data: string): void {
    for (let i = 0; i < data.length; ) {
      const ch = String.fromCodePoint(data.codePointAt(i)!);
      if (ch === "\u001b" && data[i + 1] === "]") {
        // OSC: skipped up to its BEL or ST
        const bel = data.indexOf("\u0007", i);
        const st = data.indexOf("\u001b\\", i);
        const end = bel >= 0 && (st < 0 || bel < st) ? bel + 1 : st >= 0 ? st + 2 : -1;
        if (end < 0) throw new Error(`ScreenEmulator: unterminated OSC at ${JSON.stringify(data.slice(i, i + 12))}`);
        i = end;
        continue;
      }
      if (ch === "\u001b") {
        i = this.escape(data, i);
        continue;
      }
      i += ch.length;
      if (ch === "\r") {
        this.col = 0;
        this.wrapPending = false;
      } else if (ch === "\n") this.lineFeed();
      else if (ch === "\b") {
        // BS: one column left (not past the first); a pending wrap is cancelled, the column kept
        if (this.wrapPending) this.wrapPending = false;
        else this.col = Math.max(0, this.col - 1);
      } else if (ch === "\u0007") continue;
      else {
        const width = ch < "\u0080" ? 1 : widthOf(ch);
        if (this.wrapPending) {
          this.lineFeed();
        }
        if (width === 2 && this.col === this.columns - 1) {
          this.grid[this.row]![this.col] = " "; // no room for both halves: it goes to the next row
          this.lineFeed();
        }
        this.put(ch, width);
      }
    }
  }

  private escape(data: string, at: number): number {
    // DECSC / DECRC: the cursor's position saved and restored
    if (data[at + 1] === "7") {
      this.saved = [this.row, this.col];
      return at + 2;
    }
    if (data[at + 1] === "8") {
      [this.row, this.col] = this.saved ?? [0, 0];
      this.wrapPending = false;
      return at + 2;
    }
    const m = /^\u001b\[(\??)([0-9;]*)([A-Za-z])/.exec(data.slice(at, at + 32));
    if (!m) throw new Error(`ScreenEmulator: unknown escape at ${JSON.stringify(data.slice(at, at + 12))}`);
    const [all, private_, params, final] = m;
    const nums = params!.split(";").map((p) => (p === "" ? undefined : Number(p)));
    const n = nums[0] ?? 1;
    const clampRow = (r: number) => Math.max(0, Math.min(this.rows - 1, r));
    const clampCol = (c: number) => Math.max(0, Math.min(this.columns - 1, c));
    if (private_) {
      if (final !== "h" && final !== "l") throw new Error(`ScreenEmulator: unknown private mode ${all}`);
      return at + all.length;
    }
    if (final !== "m") this.wrapPending = false;
    switch (final) {
      case "m":
        break;
      case "A":
        this.row = Math.max(this.row >= this.top ? this.top : 0, this.row - n);
        break;
      case "B":
        this.row = Math.min(this.row <= this.bottom ? this.bottom : this.rows - 1, this.row + n);
        break;
      case "C":
        this.col = clampCol(this.col + n);
        break;
      case "D":
        this.col = clampCol(this.col - n);
        break;
      case "E":
        this.row = clampRow(this.row + n);
        this.col = 0;
        break;
      case "G":
        this.col = clampCol(n - 1);
        break;
      case "H":
        this.row = clampRow((nums[0] ?? 1) - 1);
        this.col = clampCol((nums[1] ?? 1) - 1);
        break;
      case "K": {
        const mode = nums[0] ?? 0;
        const line = this.grid[this.row]!;
        const [from, to] = mode === 0 ? [this.col, this.columns] : mode === 1 ? [0, this.col + 1] : [0, this.columns];
        for (let c = from; c < to; c++) line[c] = " ";
        if (from === 0 && to === this.columns) this.used.delete(line);
        break;
      }
      case "X": {
        // erase characters: n cells from the cursor blanked, the cursor stays
        const line = this.grid[this.row]!;
        for (let c = this.col; c < Math.min(this.columns, this.col + n); c++) line[c] = " ";
        break;
      }
      case "J": {
        const mode = nums[0] ?? 0;
        if (mode === 2 || mode === 3) {
          if (mode === 2) this.grid = this.grid.map(() => this.blankRow());
          else this.scrollback = [];
          break;
        }
        if (mode !== 0) throw new Error(`ScreenEmulator: ED ${mode} is not emulated (${all})`);
        for (let c = this.col; c < this.columns; c++) this.grid[this.row]![c] = " ";
        if (this.col === 0) this.used.delete(this.grid[this.row]!);
        for (let r = this.row + 1; r < this.rows; r++) this.grid[r] = this.blankRow();
        break;
      }
      case "r":
        this.top = (nums[0] ?? 1) - 1;
        this.bottom = (nums[1] ?? this.rows) - 1;
        this.row = 0;
        this.col = 0;
        break;
      case "S":
        this.scrollUp(n);
        break;
      case "M": // delete lines: the rows below move up within the margins, blank rows come in at the bottom
        if (this.row >= this.top && this.row <= this.bottom) {
          for (let i = 0; i < n; i++) {
            this.grid.splice(this.row, 1);
            this.grid.splice(this.bottom, 0, this.blankRow());
          }
        }
        this.col = 0;
        break;
      case "L": // insert lines: blank rows at the cursor, the rows below move down, the bottom ones are dropped
        if (this.row >= this.top && this.row <= this.bottom) {
          for (let i = 0; i < n; i++) {
            this.grid.splice(this.bottom, 1);
            this.grid.splice(this.row, 0, this.blankRow());
          }
        }
        this.col = 0;
        break;
      default:
        throw new Error(`ScreenEmulator: unknown sequence ${JSON.stringify(all)}`);
    }
    return at + all.length;
  }
}
