/**
 * A maintained terminal emulator for tests (@xterm/headless, the emulator of VS Code's terminal):
 * write the bytes the UI wrote, then read the screen's rows as text or one cell's character,
 * colours and attributes — what components/testing/screen-emulator.ts cannot (it keeps text only).
 */
import xterm from "@xterm/headless";

/** A colour as the terminal holds it: the default, an index of the 256-colour palette, or 0xRRGGBB. */
export type CellColor = { mode: "default" } | { mode: "palette"; index: number } | { mode: "rgb"; rgb: number };

export interface CellStyle {
  char: string;
  /** Columns the character takes (2 for a wide character; 0 for the right half of one). */
  width: number;
  fg: CellColor;
  bg: CellColor;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
}

type Cell = NonNullable<ReturnType<xterm.IBufferLine["getCell"]>>;
function colorOf(cell: Cell, which: "Fg" | "Bg"): CellColor {
  if (which === "Fg" ? cell.isFgDefault() : cell.isBgDefault()) return { mode: "default" };
  const value = which === "Fg" ? cell.getFgColor() : cell.getBgColor();
  return (which === "Fg" ? cell.isFgRGB() : cell.isBgRGB()) ? { mode: "rgb", rgb: value } : { mode: "palette", index: value };
}

export class XtermScreen {
  readonly term: xterm.Terminal;

  constructor(columns: number, rows: number, options: { scrollback?: number } = {}) {
    // convertEol: a line feed returns the carriage, as a pty's ONLCR does.
    this.term = new xterm.Terminal({ cols: columns, rows, scrollback: options.scrollback ?? 1000, allowProposedApi: true, convertEol: true });
  }

  /** Writes `bytes` and resolves once the terminal has parsed them. */
  write(bytes: string): Promise<void> {
    return new Promise((resolve) => this.term.write(bytes, resolve));
  }

  resize(columns: number, rows: number): void {
    this.term.resize(columns, rows);
  }

  /** The visible rows as text, trailing blanks trimmed. */
  rows(): string[] {
    const buffer = this.term.buffer.active;
    return Array.from({ length: this.term.rows }, (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
  }

  /** Every row the terminal holds, the scrollback first, trailing blanks trimmed. */
  allRows(): string[] {
    const buffer = this.term.buffer.active;
    return Array.from({ length: buffer.length }, (_, y) => buffer.getLine(y)?.translateToString(true) ?? "");
  }

  /** The cursor's position on the visible screen (0-based). */
  cursor(): { row: number; col: number } {
    const buffer = this.term.buffer.active;
    return { row: buffer.cursorY, col: buffer.cursorX };
  }

  /** The character, colours and attributes of the visible cell at `row`, `col` (0-based). */
  cell(row: number, col: number): CellStyle {
    const buffer = this.term.buffer.active;
    const cell = buffer.getLine(buffer.viewportY + row)?.getCell(col);
    if (!cell) throw new Error(`no cell at row ${row}, column ${col} of a ${this.term.cols}x${this.term.rows} screen`);
    return {
      char: cell.getChars(),
      width: cell.getWidth(),
      fg: colorOf(cell, "Fg"),
      bg: colorOf(cell, "Bg"),
      bold: cell.isBold() !== 0,
      dim: cell.isDim() !== 0,
      italic: cell.isItalic() !== 0,
      underline: cell.isUnderline() !== 0,
      inverse: cell.isInverse() !== 0,
    };
  }

  /** The first visible position of `text` (row, column), or undefined. Wide characters count two columns. */
  find(text: string): { row: number; col: number } | undefined {
    const buffer = this.term.buffer.active;
    for (let y = 0; y < this.term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      if (!line) continue;
      // Column by column, so a wide character's two cells map back to one position in the string.
      let s = "";
      const cols: number[] = [];
      for (let x = 0; x < line.length; x++) {
        const c = line.getCell(x);
        if (!c || c.getWidth() === 0) continue;
        const ch = c.getChars() || " ";
        for (let i = 0; i < ch.length; i++) cols.push(x);
        s += ch;
      }
      const at = s.indexOf(text);
      if (at >= 0) return { row: y, col: cols[at]! };
    }
    return undefined;
  }

  dispose(): void {
    this.term.dispose();
  }
}
