/**
 * Tree → rows: the step from Ink's laid-out tree to the rows of terminal cells the frame diff
 * works on, written here. Each box draws its background and border, each text node its text
 * (wrapped or truncated to its box as the layout measured it, run through its output transforms),
 * at the absolute position yoga computed, inside the clip of every `overflow: hidden` box above
 * it (the intersection). A wide character takes two cells, the second empty. Ink's internals are
 * reached only through ./ink-seam.ts.
 */
import type { DOMElement } from "ink";
import cliBoxes from "cli-boxes";
import stringWidth from "string-width";
import { CARET_MARK, type CaretAt } from "./caret.js";
import { applySgr } from "./sgr-state.js";
import { BoundedCache } from "./bounded-cache.js";
import { bordersOf, colorize, dim, firstChildOffset, insetXOf, layoutOf, textOf, wrapForLayout, type SeamNode } from "./ink-seam.js";

const CSI = "\u001b[";

/** One row of cells: `chars[i]` is the grapheme at column i ("" after a wide one), `styles[i]` the SGR codes in force ("" for none). */
export interface CellRow {
  chars: string[];
  styles: string[];
}

type Transform = (line: string, index: number) => string;
interface Clip {
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}

/**
 * Characters that are one cell and a grapheme on their own, never joined to a neighbour that is one
 * too: printable ASCII, and the one-unit characters of Latin-1, Latin Extended-A, general
 * punctuation, arrows and technical symbols, box drawing, shapes, dingbats and braille that
 * string-width counts one cell (frame-diff's narrow ranges; none is a mark, a joiner or a
 * prepended character).
 */
const ONE_CELL_RANGES = /^[\x20-\x7e\u00a1-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u2800-\u28ff]$/;
/** oneCell by UTF-16 unit: 0 not asked yet, 1 yes, 2 no (64 KB, filled as characters are met). */
const oneCellUnits = new Uint8Array(0x10000);
function oneCell(code: number): boolean {
  let known = oneCellUnits[code]!;
  if (known === 0) {
    const ch = String.fromCharCode(code);
    known = oneCellUnits[code] = ONE_CELL_RANGES.test(ch) && stringWidth(ch) === 1 ? 1 : 2;
  }
  return known === 1;
}

const ESCAPE = /\u001b(?:\[([0-9;:]*)([ -/]*[@-~])|\][^\u0007\u001b]*(?:\u0007|\u001b\\))/y;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter();

/** A styled text line (SGR codes in it) as cells: [grapheme, style, width] in order. Other escapes are dropped. */
export function styledCells(line: string): StyledCell[] {
  return styledRuns(line).flatMap((run) => (run.narrow ? [...run.ch].map((ch) => ({ ch, style: run.style, width: 1 })) : [run]));
}

/**
 * A styled text line as runs, kept for the lines drawn lately: a run of narrow characters in one
 * style — printable ASCII, and any grapheme that is one UTF-16 unit one cell wide (borders `╭─│`,
 * `·`, `●`, `…`) — is one entry (`narrow`: each unit one cell), any other grapheme an entry of its own.
 */
export function styledRuns(line: string): readonly StyledRun[] {
  return runCache.get(line, tokenize);
}

/** A grapheme with its style and the columns it takes. */
export interface StyledCell {
  ch: string;
  style: string;
  width: number;
  /** The caret's mark (caret.ts): no cell, the place of the next one. */
  caret?: true;
}

/** A StyledCell, or (`narrow`) a run of one-unit, one-cell characters in one style, one cell each (`width` = their count). */
export interface StyledRun extends StyledCell {
  narrow?: true;
}

/**
 * Lines tokenized lately (most lines are the same from frame to frame): at most 2,000 lines and
 * RUN_CACHE_BUDGET in weight a generation, a line weighing its characters plus its runs (each run
 * an object, its characters again). A run of narrow characters is one object, not one per cell:
 * held a cell at a time, 4,000 lines were ~25 MB of the heap, filled over minutes of a long session
 * (the soak); a pane's border (`╭────╮`, `│ text │`) is one run, not one a character. Weighed by
 * runs alone, lines of few runs filled both generations' 2,000 lines over minutes (2.4 MB in a
 * 4-minute soak's snapshot); weighed by characters the cache holds many screens of rows, bounded
 * in memory, and is full within the first minutes.
 */
export const RUN_CACHE_BUDGET = 60_000;
const runCache = new BoundedCache<string, readonly StyledRun[]>(2000, { weigh: (line, runs) => line.length + runs.length, budget: RUN_CACHE_BUDGET });

/** What the lines held by the cache of tokenized lines weigh (both generations; characters plus runs); for tests. */
export const heldRuns = () => runCache.weight;

/** Lines held by the cache of tokenized lines (both generations); for tests. */
export const heldLines = () => runCache.size;

function tokenize(line: string): StyledRun[] {
  const out: StyledRun[] = [];
  let open: string[] = [];
  let style = "";
  // Narrow characters join the narrow run before them when it has the same style.
  const addNarrow = (ch: string) => {
    const last = out.at(-1);
    if (last?.narrow && last.style === style) {
      last.ch += ch;
      last.width += ch.length;
    } else out.push({ ch, style, width: ch.length, narrow: true });
  };
  const segment = (text: string) => {
    for (const { segment } of segmenter.segment(text)) {
      const width = stringWidth(segment);
      if (segment.length === 1 && width === 1) addNarrow(segment);
      else out.push({ ch: segment, style, width: Math.max(1, width) });
    }
  };
  // A one-cell character (oneCell) between two others, or at an end of `text`, is a grapheme of
  // its own: it is added as it is, and only the pieces between such characters are segmented and
  // measured (the same graphemes: a boundary lies on either side of it).
  const addGraphemes = (text: string) => {
    const n = text.length;
    let from = 0;
    for (let i = 0; i < n; i++) {
      if (!oneCell(text.charCodeAt(i)) || (i > 0 && !oneCell(text.charCodeAt(i - 1))) || (i + 1 < n && !oneCell(text.charCodeAt(i + 1)))) continue;
      if (i > from) segment(text.slice(from, i));
      addNarrow(text[i]!);
      from = i + 1;
    }
    if (from < n) segment(text.slice(from));
  };
  const addText = (text: string) => {
    if (!text) return;
    if (PRINTABLE_ASCII.test(text)) {
      addNarrow(text);
      return;
    }
    // Mostly one-cell characters with a few others (`·`, `●`, `…` in a row of figures): the one-cell
    // ones stay runs and only the rest is split into graphemes (each measured).
    addGraphemes(text);
  };
  let from = 0;
  for (let i = line.indexOf("\u001b"); i >= 0; i = line.indexOf("\u001b", i)) {
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(line);
    if (!m) {
      i++;
      continue;
    }
    addText(line.slice(from, i));
    from = i = ESCAPE.lastIndex;
    if (m[0] === CARET_MARK) out.push({ ch: "", style, width: 0, caret: true });
    if (m[2] !== "m") continue;
    open = applySgr(open, m[1]!);
    style = open.map((c) => `${CSI}${c}m`).join("");
  }
  addText(line.slice(from));
  return out;
}

/** The grid a frame is drawn into. */
class Grid {
  readonly rows: CellRow[] = [];
  /** Where the caret's mark was drawn, if it was. */
  caret: CaretAt | undefined;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    for (let y = 0; y < height; y++) this.rows.push({ chars: new Array<string>(width).fill(" "), styles: new Array<string>(width).fill("") });
  }

  /** Writes `text` (lines split on "\n") with its top-left at x, y, each line through `transforms`, inside `clip`. */
  write(x: number, y: number, text: string, transforms: readonly Transform[], clip: Clip | undefined): void {
    if (!text) return;
    let lines = text.split("\n");
    if (clip) {
      if (y + lines.length < clip.y1 || y > clip.y2) return;
      const from = y < clip.y1 ? clip.y1 - y : 0;
      const to = y + lines.length > clip.y2 ? clip.y2 - y : lines.length;
      lines = lines.slice(from, Math.max(from, to));
      y += from;
    }
    lines.forEach((raw, index) => {
      const row = this.rows[y + index];
      if (!row) return;
      let line = raw;
      for (const t of transforms) line = t(line, index);
      let col = x;
      for (const cell of styledRuns(line)) {
        if (cell.narrow) {
          for (let k = 0; k < cell.width; k++, col++) if ((clip ? col >= clip.x1 && col < clip.x2 : true) && col >= 0) this.put(row, col, cell.ch[k]!, cell.style);
          continue;
        }
        if (cell.caret) {
          if ((!clip || (col >= clip.x1 && col < clip.x2 && y + index >= clip.y1 && y + index < clip.y2)) && col >= 0) this.caret = { x: col, y: y + index };
          continue;
        }
        const end = col + cell.width;
        const inside = clip ? col >= clip.x1 && end <= clip.x2 : true;
        if (inside && col >= 0) {
          this.put(row, col, cell.ch, cell.style);
          for (let k = 1; k < cell.width; k++) this.put(row, col + k, "", cell.style);
        }
        col = end;
      }
    });
  }

  private put(row: CellRow, col: number, ch: string, style: string): void {
    if (col >= row.chars.length) {
      // a row drawn past the root's width (Ink keeps it): grow with blanks
      while (row.chars.length < col) {
        row.chars.push(" ");
        row.styles.push("");
      }
      row.chars.push(ch);
      row.styles.push(style);
      return;
    }
    row.chars[col] = ch;
    row.styles[col] = style;
  }
}

/** Options of treeRows. */
export interface TreeRowsOptions {
  /** Skip <Static> subtrees (the live frame) — true for the root's frame, false for its static node. */
  skipStatic?: boolean;
  /** Told where the caret's mark (caret.ts) was drawn, when it was (inside every clip). */
  caret?: (at: CaretAt) => void;
}

/** The rows of cells the laid-out `root` draws: one per row of its computed height. */
export function treeRows(root: DOMElement, { skipStatic = true, caret }: TreeRowsOptions = {}): CellRow[] {
  const layout = layoutOf(root);
  if (!layout) return [];
  const grid = new Grid(layout.width, layout.height);
  draw(grid, root, 0, 0, [], undefined, skipStatic);
  if (grid.caret && caret) caret(grid.caret);
  return grid.rows;
}

function intersect(a: Clip | undefined, b: Clip): Clip {
  if (!a) return b;
  return { x1: Math.max(a.x1, b.x1), x2: Math.min(a.x2, b.x2), y1: Math.max(a.y1, b.y1), y2: Math.min(a.y2, b.y2) };
}

function draw(grid: Grid, node: SeamNode, offsetX: number, offsetY: number, transforms: readonly Transform[], clip: Clip | undefined, skipStatic: boolean): void {
  if (node.nodeName === "#text") return;
  if (skipStatic && node.internal_static) return;
  const layout = layoutOf(node);
  if (!layout) return;
  const x = offsetX + layout.left;
  const y = offsetY + layout.top;
  const own = typeof node.internal_transform === "function" ? [node.internal_transform as Transform, ...transforms] : transforms;
  if (node.nodeName === "ink-text") {
    let text = textOf(node);
    if (!text) return;
    const maxWidth = layout.width - insetXOf(node);
    if (widest(text) > maxWidth) text = wrapForLayout(text, maxWidth, node.style.textWrap ?? "wrap");
    const at = firstChildOffset(node);
    if (at.x || at.y) text = "\n".repeat(at.y) + text.split("\n").map((l) => (l ? " ".repeat(at.x) + l : l)).join("\n");
    grid.write(x, y, text, own, clip);
    return;
  }
  let inner = clip;
  if (node.nodeName === "ink-box") {
    drawBackground(grid, node, x, y, layout, clip);
    drawBorder(grid, node, x, y, layout, clip);
    const s = node.style;
    const hideX = s.overflowX === "hidden" || s.overflow === "hidden";
    const hideY = s.overflowY === "hidden" || s.overflow === "hidden";
    if (hideX || hideY) {
      const border = bordersOf(node);
      inner = intersect(clip, {
        x1: hideX ? x + border.left : -Infinity,
        x2: hideX ? x + layout.width - border.right : Infinity,
        y1: hideY ? y + border.top : -Infinity,
        y2: hideY ? y + layout.height - border.bottom : Infinity,
      });
    }
  }
  for (const child of node.childNodes) draw(grid, child as SeamNode, x, y, own, inner, skipStatic);
}

function widest(text: string): number {
  let w = 0;
  for (const line of text.split("\n")) w = Math.max(w, PRINTABLE_ASCII.test(line) ? line.length : stringWidth(line));
  return w;
}

type Layout = NonNullable<ReturnType<typeof layoutOf>>;

function drawBackground(grid: Grid, node: DOMElement, x: number, y: number, l: Layout, clip: Clip | undefined): void {
  const s = node.style;
  if (!s.backgroundColor) return;
  const left = s.borderStyle && s.borderLeft !== false ? 1 : 0;
  const right = s.borderStyle && s.borderRight !== false ? 1 : 0;
  const top = s.borderStyle && s.borderTop !== false ? 1 : 0;
  const bottom = s.borderStyle && s.borderBottom !== false ? 1 : 0;
  const w = l.width - left - right;
  const h = l.height - top - bottom;
  if (w <= 0 || h <= 0) return;
  const line = colorize(" ".repeat(w), s.backgroundColor, "background");
  grid.write(x + left, y + top, Array.from({ length: h }, () => line).join("\n"), [], clip);
}

function drawBorder(grid: Grid, node: DOMElement, x: number, y: number, l: Layout, clip: Clip | undefined): void {
  const s = node.style;
  if (!s.borderStyle) return;
  const box = typeof s.borderStyle === "string" ? cliBoxes[s.borderStyle] : s.borderStyle;
  const showTop = s.borderTop !== false;
  const showBottom = s.borderBottom !== false;
  const showLeft = s.borderLeft !== false;
  const showRight = s.borderRight !== false;
  const inner = l.width - (showLeft ? 1 : 0) - (showRight ? 1 : 0);
  const paint = (text: string, color: string | undefined, dimmed: boolean | undefined) => {
    const c = colorize(text, color, "foreground");
    return dimmed ? dim(c) : c;
  };
  const sides = l.height - (showTop ? 1 : 0) - (showBottom ? 1 : 0);
  const column = (ch: string, color: string | undefined, dimmed: boolean | undefined) => Array.from({ length: Math.max(0, sides) }, () => paint(ch, color, dimmed)).join("\n");
  const offsetY = showTop ? 1 : 0;
  if (showTop) grid.write(x, y, paint((showLeft ? box.topLeft : "") + box.top.repeat(Math.max(0, inner)) + (showRight ? box.topRight : ""), s.borderTopColor ?? s.borderColor, s.borderTopDimColor ?? s.borderDimColor), [], clip);
  if (showLeft && sides > 0) grid.write(x, y + offsetY, column(box.left, s.borderLeftColor ?? s.borderColor, s.borderLeftDimColor ?? s.borderDimColor), [], clip);
  if (showRight && sides > 0) grid.write(x + l.width - 1, y + offsetY, column(box.right, s.borderRightColor ?? s.borderColor, s.borderRightDimColor ?? s.borderDimColor), [], clip);
  if (showBottom) grid.write(x, y + l.height - 1, paint((showLeft ? box.bottomLeft : "") + box.bottom.repeat(Math.max(0, inner)) + (showRight ? box.bottomRight : ""), s.borderBottomColor ?? s.borderColor, s.borderBottomDimColor ?? s.borderDimColor), [], clip);
}

/** A row as the SGR-coloured text a terminal is sent (trailing blank cells dropped; styles reset at the end). */
export function rowLine(row: CellRow): string {
  let end = row.chars.length;
  while (end > 0 && row.chars[end - 1] === " " && !row.styles[end - 1]) end--;
  let out = "";
  let style = "";
  for (let i = 0; i < end; i++) {
    const s = row.styles[i]!;
    if (s !== style) {
      out += s.startsWith(style) ? s.slice(style.length) : `${CSI}0m${s}`;
      style = s;
    }
    out += row.chars[i];
  }
  return style ? `${out}${CSI}0m` : out;
}
