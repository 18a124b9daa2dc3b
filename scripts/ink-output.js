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
 * - the measuring caches (styled characters, block widths, clipped slices) live across frames,
 *   each cleared when it passes a bound.
 * scripts/build.mjs substitutes this file for Ink's when bundling, after checking Ink's file is the
 * one it was written against; test/build/ink-output.test.ts compares both on the same operations.
 */
import sliceAnsi from "slice-ansi";
import stringWidth from "string-width";
import { ansiCodesToString, diffAnsiCodes, styledCharsFromTokens, styledCharsToString, tokenize } from "@alcalzone/ansi-tokenize";

/** A Map that forgets everything once it holds `max` entries (the working set refills it in a frame). */
class BoundedCache {
  constructor(max) {
    this.max = max;
    this.map = new Map();
  }

  /** The value of `key`, made by `compute(key)` when absent. */
  get(key, compute) {
    let value = this.map.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, value);
    }
    return value;
  }
}

// One cell object per character (with its styles array): ~300 bytes a cell, so 3,000 lines held
// ~20 MB of the heap. Lines are looked up here only when `segments` (below) or `rowTexts` miss,
// so a frame's working set (40 rows, a few placements each) is all this needs to hold.
const styledChars = new BoundedCache(200);
const cellsOf = (line) => styledChars.get(line, () => styledCharsFromTokens(tokenize(line)));
// Widths need no cache of their own: the bundle's string-width keeps one (scripts/build.mjs).
const blockWidths = new BoundedCache(5000);
const widestLine = (text) =>
  blockWidths.get(text, () => {
    let width = 0;
    for (const line of text.split("\n")) width = Math.max(width, stringWidth(line));
    return width;
  });
const NO_STYLES = Object.freeze([]);

/** Printable ASCII only: one cell per character, no escape codes (most of a streaming answer's rows). */
const PLAIN = /^[\x20-\x7e]*$/;
const slices = new BoundedCache(5000);
/** sliceAnsi of a clipped line, remembered: the same rows are clipped the same way frame after frame. */
const sliceOf = (line, from, to) => slices.get(`${from}:${to}:${line}`, () => (PLAIN.test(line) ? line.slice(from, to) : sliceAnsi(line, from, to)));
/** Row text by its placements (see `get`). */
const rowTexts = new BoundedCache(4000);

/**
 * A placed line as a run of cells: `inner` is its text as Ink prints it between its first
 * character's styles and its last's (the codes that open the first and close the last are added
 * where the run meets its neighbours); `width` counts cells. null for a line with no characters.
 */
const segments = new BoundedCache(3000);
const segmentOf = (line) => segments.get(line, () => {
  if (PLAIN.test(line)) return line === "" ? null : { inner: line, width: line.length, first: NO_STYLES, last: NO_STYLES };
  const chars = cellsOf(line);
  if (chars.length === 0) return null;
  // Joined from an array: a string built with += stays a chain of fragments while it is cached.
  const parts = [];
  let width = 0;
  for (let i = 0; i < chars.length; i++) {
    if (i > 0) parts.push(ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, chars[i].styles)));
    parts.push(chars[i].value);
    width += Math.max(1, stringWidth(chars[i].value));
  }
  return { inner: parts.join(""), width, first: chars[0].styles, last: chars[chars.length - 1].styles };
});


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
          lines = lines.map((line) => {
            const from = x < clip.x1 ? clip.x1 - x : 0;
            const width = stringWidth(line);
            const to = x + width > clip.x2 ? clip.x2 - x : width;
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
