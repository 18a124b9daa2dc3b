/**
 * Ink's `Output` (ink/build/output.js, Ink 6.8.0) with the same contract — `write`, `clip`,
 * `unclip`, `get()` → `{ output, height }`, byte for byte the same frame — but built to be cheap
 * when a frame is mostly the rows of the last one, as every streaming frame is:
 * - each row's text is remembered by what was written on it (each placement's column and
 *   transformed line, in order), so an unchanged row costs one string key, not a grid of cell objects
 *   turned back into escape codes (styledCharsToString was the hottest function in a profile of a
 *   streaming run);
 * - a changed row whose placements do not overlap (the usual case: boxes side by side) is joined
 *   from each placed line's own escape-coded text, remembered per line, with the style change
 *   computed only where two of them meet; overlapping placements go through Ink's cell grid;
 * - a line of ASCII, common one-column symbols and SGR codes (what Ink's colouring of our rows
 *   writes) is split at its codes rather than tokenized character by character, and a clip that
 *   cuts nothing of such a line keeps the line instead of slice-ansi's copy of it;
 * - the measuring caches (styled characters, block widths, clipped slices) live across frames,
 *   each bounded without ever dropping the working set at once.
 * scripts/build.mjs substitutes this file for Ink's when bundling, after checking Ink's file is the
 * one it was written against; test/build/ink-output.test.ts compares both on the same operations.
 */
import sliceAnsi from "slice-ansi";
import stringWidth from "string-width";
import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, styledCharsFromTokens, styledCharsToString, tokenize } from "@alcalzone/ansi-tokenize";
// The project's one cache policy (two generations; scripts/ink-swaps.mjs makes the path absolute in the bundle).
import { BoundedCache } from "../components/terminal/bounded-cache.js";

// One cell object per character (with its styles array): ~300 bytes a cell, so 3,000 lines held
// ~20 MB of the heap. Only rows whose placements overlap (Ink's grid, `rowText`) use cells, so a
// few rows' lines are all this needs to hold.
const styledChars = new BoundedCache(100);
const cellsOf = (line) => styledChars.get(line, () => styledCharsFromTokens(tokenize(line)));
// Widths need no cache of their own: the bundle's string-width keeps one (scripts/build.mjs).
const blockWidths = new BoundedCache(2500);
const widestLine = (text) =>
  blockWidths.get(text, () => {
    let width = 0;
    for (const line of text.split("\n")) width = Math.max(width, stringWidth(line));
    return width;
  });
const NO_STYLES = Object.freeze([]);

/** Printable ASCII only: one cell per character, no escape codes (most of a streaming answer's rows). */
const PLAIN = /^[\x20-\x7e]*$/;
const slices = new BoundedCache(2500);
/** sliceAnsi of a clipped line, remembered: the same rows are clipped the same way frame after frame. */
const sliceOf = (line, from, to) => slices.get(`${from}:${to}:${line}`, () => (PLAIN.test(line) ? line.slice(from, to) : sliceAnsi(line, from, to)));
/** Row text by its placements (see `get`). */
const rowTexts = new BoundedCache(2000);

/**
 * A placed line as a run of cells: `inner` is its text as Ink prints it between its first
 * character's styles and its last's (the codes that open the first and close the last are added
 * where the run meets its neighbours); `width` counts cells. null for a line with no characters.
 * Built from the line's tokens without a cell object per character: between two characters the
 * style change is written only where an escape code came between them (the same styles diff to
 * nothing).
 */
const segments = new BoundedCache(1500);
const segmentOf = (line) =>
  segments.get(line, () => {
    if (PLAIN.test(line)) return line === "" ? null : { inner: line, width: line.length, first: NO_STYLES, last: NO_STYLES };
    return isSimple(line) ? simpleSegment(line) : tokenSegment(line);
  });

/**
 * Printable ASCII, characters of a few common symbol blocks (punctuation, arrows, box drawing,
 * shapes, braille spinners: no combining marks or joiners) and SGR sequences — what Ink's own
 * colouring of our rows writes. Such a line, when each of its symbols is one column to all three
 * measuring libraries (`narrowText`), is split at its codes instead of tokenized per character.
 */
const SIMPLE_STYLED = /^(?:[\x20-\x7e\u00a1-\u00ac\u00ae-\u017f\u2010-\u2027\u2030-\u205e\u2190-\u23ff\u2500-\u27bf\u2800-\u28ff]|\x1b\[[0-9;]*m)*$/;
const SGR_RUNS = /((?:\x1b\[[0-9;]*m)+)/;
/** Per symbol: one column to string-width, one narrow character to the tokenizer and to slice-ansi. */
const narrowSymbols = new Map();
function narrowText(line) {
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) < 0x7f) continue;
    const symbol = line[i];
    let narrow = narrowSymbols.get(symbol);
    if (narrow === undefined) {
      const tokens = tokenize(symbol);
      narrow = stringWidth(symbol) === 1 && tokens.length === 1 && tokens[0].type === "char" && tokens[0].value === symbol && !tokens[0].fullWidth && sliceAnsi(symbol + symbol, 0, 1) === symbol;
      narrowSymbols.set(symbol, narrow);
    }
    if (!narrow) return false;
  }
  return true;
}
const isSimple = (line) => SIMPLE_STYLED.test(line) && narrowText(line);
/** The ANSI tokens of a run of SGR sequences, as the tokenizer reads them inside a line. */
const sgrTokens = new BoundedCache(500);
const sgrTokensOf = (run) => sgrTokens.get(run, () => tokenize(run).filter((token) => token.type === "ansi"));

/**
 * True when slice-ansi's copy of all of `line` (what Ink's clip makes of a line it does not cut)
 * has the same characters with the same styles as `line` — only the codes after the last
 * character can differ — so the line can stand for its copy where only the cells count.
 * slice-ansi re-emits the styles open before the first character from its own map, which can
 * reorder or drop codes; a line that opens with at most one single-parameter code (not 0: a bare
 * reset is read differently by the two tokenizers) is copied as it is. A transformer that gives
 * the line back unchanged (Ink's Text without styles, or with colour off) is taken to leave the
 * copy unchanged too.
 */
const LEADING_CODES = /^\x1b\[[1-9][0-9]*m(?!\x1b)/;
const wholeCopyKeepsCells = (line) => (line.charCodeAt(0) !== 0x1b || LEADING_CODES.test(line)) && isSimple(line);

/** The segment of a simple line (see SIMPLE_STYLED): each symbol one cell. */
function simpleSegment(line) {
  const pieces = line.split(SGR_RUNS); // text, codes, text, codes, …, text
  const parts = []; // joined at the end: a string built with += stays a chain of fragments while cached
  let codes = NO_STYLES;
  let first;
  let last;
  let width = 0;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (i % 2 === 1) {
      codes = reduceAnsiCodesIncremental(codes, sgrTokensOf(piece));
      continue;
    }
    if (piece === "") continue;
    if (first === undefined) first = codes;
    else if (codes !== last) parts.push(ansiCodesToString(diffAnsiCodes(last, codes)));
    parts.push(piece);
    width += piece.length;
    last = codes;
  }
  return first === undefined ? null : { inner: parts.join(""), width, first, last };
}

/** The segment of any other line, from the tokenizer's characters. */
function tokenSegment(line) {
  const parts = [];
  let codes = NO_STYLES;
  let first;
  let last;
  let width = 0;
  for (const token of tokenize(line)) {
    if (token.type === "ansi") {
      codes = reduceAnsiCodesIncremental(codes, [token]);
      continue;
    }
    if (token.type !== "char") continue;
    if (first === undefined) first = codes;
    else if (codes !== last) parts.push(ansiCodesToString(diffAnsiCodes(last, codes)));
    parts.push(token.value);
    width += Math.max(1, stringWidth(token.value));
    last = codes;
  }
  return first === undefined ? null : { inner: parts.join(""), width, first, last };
}

/** The codes between a cell styled `from` (undefined: the row's start) and one styled `to`. */
const join = (from, to) => ansiCodesToString(from === undefined ? to : diffAnsiCodes(from, to));

/**
 * The row's text joined from its placed lines when none overlaps another or the row's edges
 * (what Ink's grid prints for them, code for code); undefined when they do.
 */
function joinedRowText(width, placements) {
  const runs = [];
  for (const [x, line] of placements) {
    const run = segmentOf(line);
    if (run === null) continue;
    if (!Number.isInteger(x) || x < 0 || x + run.width > width) return undefined;
    runs.push([x, run]);
  }
  runs.sort((a, b) => a[0] - b[0]);
  const parts = []; // joined at the end, for the same reason as a segment's text
  let at = 0;
  let styles;
  for (const [x, run] of runs) {
    if (x < at) return undefined;
    if (x > at) {
      parts.push(join(styles, NO_STYLES), " ".repeat(x - at));
      styles = NO_STYLES;
    }
    parts.push(join(styles, run.first), run.inner);
    styles = run.last;
    at = x + run.width;
  }
  if (at < width) {
    parts.push(join(styles, NO_STYLES), " ".repeat(width - at));
    styles = NO_STYLES;
  }
  if (styles !== undefined) parts.push(ansiCodesToString(diffAnsiCodes(styles, NO_STYLES)));
  return parts.join("").trimEnd();
}

const BLANK = Object.freeze({ type: "char", value: " ", fullWidth: false, styles: Object.freeze([]) });
const PIECE = "\u0001";
const NEXT = "\u0002";

/** The row's text from its placements ([x, line] in write order), as Ink's grid would print it. */
function rowText(width, placements) {
  const row = new Array(width).fill(BLANK);
  for (const [x, line] of placements) {
    let offsetX = x;
    for (const character of cellsOf(line)) {
      row[offsetX] = character;
      const characterWidth = Math.max(1, stringWidth(character.value));
      for (let index = 1; index < characterWidth; index++) {
        row[offsetX + index] = { type: "char", value: "", fullWidth: false, styles: character.styles };
      }
      offsetX += characterWidth;
    }
  }
  return styledCharsToString(row.filter((item) => item !== undefined)).trimEnd();
}

export default class Output {
  width;
  height;
  operations = [];

  constructor(options) {
    const { width, height } = options;
    this.width = width;
    this.height = height;
  }

  write(x, y, text, options) {
    const { transformers } = options;
    if (!text) return;
    this.operations.push({ type: "write", x, y, text, transformers });
  }

  clip(clip) {
    this.operations.push({ type: "clip", clip });
  }

  unclip() {
    this.operations.push({ type: "unclip" });
  }

  get() {
    /** Per row, the [x, line] placements written on it, in order. */
    const rows = Array.from({ length: this.height }, () => []);
    const clips = [];
    for (const operation of this.operations) {
      if (operation.type === "clip") clips.push(operation.clip);
      if (operation.type === "unclip") clips.pop();
      if (operation.type !== "write") continue;
      const { text, transformers } = operation;
      let { x, y } = operation;
      let lines = text.split("\n");
      const clip = clips.at(-1);
      if (clip) {
        const clipHorizontally = typeof clip?.x1 === "number" && typeof clip?.x2 === "number";
        const clipVertically = typeof clip?.y1 === "number" && typeof clip?.y2 === "number";
        if (clipHorizontally) {
          const width = widestLine(text);
          if (x + width < clip.x1 || x > clip.x2) continue;
        }
        if (clipVertically) {
          const height = lines.length;
          if (y + height < clip.y1 || y > clip.y2) continue;
        }
        if (clipHorizontally) {
          lines = lines.map((line, index) => {
            const from = x < clip.x1 ? clip.x1 - x : 0;
            const width = stringWidth(line);
            const to = x + width > clip.x2 ? clip.x2 - x : width;
            if (from === 0 && to === width && wholeCopyKeepsCells(line) && transformers.every((transform) => transform(line, index) === line)) return line;
            return sliceOf(line, from, to);
          });
          if (x < clip.x1) x = clip.x1;
        }
        if (clipVertically) {
          const from = y < clip.y1 ? clip.y1 - y : 0;
          const height = lines.length;
          const to = y + height > clip.y2 ? clip.y2 - y : height;
          lines = lines.slice(from, to);
          if (y < clip.y1) y = clip.y1;
        }
      }
      let offsetY = 0;
      for (let index = 0; index < lines.length; index++) {
        // As in Ink: a line below the last row (or above the first) is dropped without moving on.
        const row = rows[y + offsetY];
        if (!row) continue;
        let line = lines[index];
        for (const transformer of transformers) line = transformer(line, index);
        row.push([x, line]);
        offsetY++;
      }
    }
    const texts = rows.map((placements) => {
      if (placements.length === 0) return "";
      let key = `${this.width}`;
      for (const [x, line] of placements) key += `${NEXT}${x}${PIECE}${line}`;
      return rowTexts.get(key, () => joinedRowText(this.width, placements) ?? rowText(this.width, placements));
    });
    return { output: texts.join("\n"), height: rows.length };
  }
}
