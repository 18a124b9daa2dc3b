/**
 * Full-screen frames from rows of cells (components/terminal/tree-rows.ts) to terminal bytes: the
 * first frame (and the first after `invalidate`, e.g. a resize) drawn whole from the screen's
 * top-left corner, every later one as the cells that changed (components/frame-diff.ts, with the
 * terminal's scroll region when a band moved up), its SGR compacted. The rows' cells go to the diff
 * as they are (primeCells): nothing is parsed back from bytes. Rows are cut to the terminal's width
 * and the frame to its height. A frame the same as the one shown writes nothing.
 */
import { fullscreenUpdate, primeCells, type Cells } from "../frame-diff.js";
import { compactSgr } from "../sgr-peephole.js";
import { rowLine, type CellRow } from "./tree-rows.js";

const CSI = "\u001b[";
/** Characters frame-diff patches by column (one UTF-16 unit, one column everywhere): see frame-diff's module note. */
const NARROW = /^[\x20-\x7e\u00a1-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u2800-\u28ff]$/;

/** `row` as frame-diff's Cells, or undefined when a cell is not a narrow one-unit character (the row is then rewritten whole). */
export function diffCells(row: CellRow): Cells | undefined {
  let end = row.chars.length;
  while (end > 0 && row.chars[end - 1] === " " && !row.styles[end - 1]) end--;
  let text = "";
  let styled = false;
  for (let i = 0; i < end; i++) {
    const ch = row.chars[i]!;
    if (!NARROW.test(ch)) return undefined;
    text += ch;
    if (row.styles[i]) styled = true;
  }
  return { text, styles: styled ? row.styles.slice(0, end) : null };
}

/** Cuts `row` to `columns` cells (a wide character cut in half is dropped). */
function cut(row: CellRow, columns: number): CellRow {
  if (row.chars.length <= columns) return row;
  const chars = row.chars.slice(0, columns);
  if (row.chars[columns] === "") chars[columns - 1] = " ";
  return { chars, styles: row.styles.slice(0, columns) };
}

export class TreeFrameWriter {
  private shown: string[] | undefined;

  constructor(
    private readonly write: (bytes: string) => void,
    private readonly scroll: boolean,
  ) {}

  /** The screen no longer shows the last frame (a resize, a write beside the frames): the next is drawn whole. */
  invalidate(): void {
    this.shown = undefined;
  }

  /** Draws `rows` on a `columns`×`height` screen. */
  draw(rows: readonly CellRow[], columns: number, height: number): void {
    const lines: string[] = [];
    for (const row of rows.slice(0, height)) {
      const fitted = cut(row, columns);
      const line = rowLine(fitted);
      primeCells(line, diffCells(fitted));
      lines.push(line);
    }
    const shown = this.shown;
    this.shown = lines;
    if (shown && shown.length === lines.length && shown.every((l, i) => l === lines[i])) return; // nothing changed: nothing written
    if (!shown) {
      this.write(`${CSI}H${CSI}J${lines.join("\r\n")}${lines.length < height ? `${CSI}${lines.length + 1};1H` : ""}`);
      return;
    }
    const bytes = compactSgr(fullscreenUpdate(shown, lines, columns, this.scroll));
    this.write(bytes);
  }
}
