/**
 * Markdown drawn to rows at a width, as views/Markdown.tsx draws it with Ink: each parsed block
 * (parse-markdown.ts) to its rows — paragraphs and headings wrapped, bullets with their marker and
 * the text beside it, quotes behind a dim rule, code indented, tables laid out (table-layout.ts).
 */
import chalk from "chalk";
import stringWidth from "string-width";
import { parseBlocks, parseMarkdown, type MdBlock, type Span } from "../markdown/parse-markdown.js";
import { layoutTable } from "./table-layout.js";
import { paint, textRows, wrapTextRows } from "./text-rows.js";

/** Inline spans styled as Markdown's Spans draws them: code cyan, links underlined with their target dim. */
export function spansText(spans: readonly Span[]): string {
  let out = "";
  for (const s of spans) {
    if (s.code) out += paint(s.text, { color: "cyan" });
    else if (s.link) out += paint(`${s.text}${paint(` (${s.link})`, { dimColor: true })}`, { underline: true, bold: s.bold, italic: s.italic });
    else out += paint(s.text, { bold: s.bold, italic: s.italic });
  }
  return out;
}

/** A box `width` wide holding a fixed `lead` beside rows drawn in the rest: the lead on the first row, its width of spaces on the others. */
function beside(lead: string, rows: readonly string[]): string[] {
  const pad = " ".repeat(stringWidth(lead));
  return rows.map((row, i) => (i === 0 ? lead : pad) + row);
}

/** Rows behind a dim left rule and a space, on every row (a box with only its left border, single, dim, and a padding of 1). */
export function ruled(rows: readonly string[]): string[] {
  return rows.map((row) => `${chalk.dim("│")} ${row}`);
}

/** The rows of one block at `width` columns. */
export function blockLines(block: MdBlock, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  switch (block.type) {
    case "table": {
      const t = layoutTable(block, w);
      return [
        ...textRows(t.rules.top, w, { dimColor: true }),
        ...t.header.flatMap((row) => textRows(row, w, { bold: true })),
        ...textRows(t.rules.mid, w, { dimColor: true }),
        ...t.body.flatMap((row) => textRows(row, w)),
        ...textRows(t.rules.bottom, w, { dimColor: true }),
      ];
    }
    case "heading":
      return wrapTextRows(spansText(block.spans), w, { bold: true, color: block.level <= 2 ? "magenta" : undefined, underline: block.level === 1 }, false);
    case "bullet": {
      const indent = " ".repeat(block.indent * 2);
      const marker = /^\d/.test(block.marker) ? `${block.marker} ` : "• ";
      const inner = Math.max(1, w - indent.length - stringWidth(marker));
      return beside(indent + marker, wrapTextRows(spansText(block.spans), inner, undefined, false));
    }
    case "quote":
      return ruled(wrapTextRows(spansText(block.spans), Math.max(1, w - 2), { dimColor: true }, false));
    case "code":
      return block.lines.flatMap((line) => textRows(line === "" ? " " : line, Math.max(1, w - 2), { color: "yellow" }).map((row) => `  ${row}`));
    case "rule":
      return textRows("─".repeat(24), w, { dimColor: true });
    case "blank":
      return [" "];
    case "para":
      return wrapTextRows(spansText(block.spans), w, undefined, false);
  }
}

/** Markdown `text` drawn at `width` columns: its blocks' rows in order. */
export function markdownLines(text: string, width: number): string[] {
  return parseMarkdown(text).flatMap((block) => blockLines(block, width));
}

/** Whether `lines` end inside a fenced code block (an odd count of fence lines). */
function insideFence(lines: readonly string[]): boolean {
  let open = false;
  for (const line of lines) if (/^\s*(```|~~~)/.test(line)) open = !open;
  return open;
}

/**
 * The last `rows` rows a streaming Markdown `text` draws at `width` (its newest words), and whether
 * it draws more than that. Only the end of the source is drawn: the last source lines, more of
 * them until they draw more than `rows` rows or the text runs out; a cut inside a code block
 * reopens it, so its closing fence is not read as an opening one. The rows shown are rows drawn,
 * so the count is the height.
 */
export function markdownTail(text: string, rows: number, width: number): { rows: string[]; more: boolean } {
  // A frame drawn for the clock alone (a spinner, an elapsed time) asks for the same tail again: it is not drawn again.
  const last = lastTail;
  if (last && last.text === text && last.rows === rows && last.width === width) return last.tail;
  const tail = drawTail(text, rows, width);
  lastTail = { text, rows, width, tail };
  return tail;
}

let lastTail: { text: string; rows: number; width: number; tail: { rows: string[]; more: boolean } } | undefined;

function drawTail(text: string, rows: number, width: number): { rows: string[]; more: boolean } {
  const want = Math.max(0, Math.floor(rows));
  const lines = text.split("\n");
  for (let take = Math.max(1, want + 1); ; take *= 2) {
    const from = Math.max(0, lines.length - take);
    const tail = lines.slice(from);
    const source = from > 0 && insideFence(lines.slice(0, from)) ? ["```", ...tail] : tail;
    const drawn = markdownLines(source.join("\n"), width);
    if (drawn.length > want || from === 0) return { rows: want === 0 ? [] : drawn.slice(-want), more: drawn.length > want };
  }
}

/**
 * The rows of a streaming Markdown `text` that no more text can change (its settled blocks, drawn
 * at `width`), and `at`: the offset in `text` where the rest starts. A block is settled when a
 * complete source line after it starts another block: only the complete lines (those a newline
 * ended) are read, and of their blocks every one but the last — the last may still grow (a
 * paragraph's line, a table's rows, an open code fence) or change what it is (a line with a bar
 * becomes a table's header when a rule line follows). The rest starts on the first line of a block
 * that is not blank, so `text.slice(at)` draws exactly the rows after these (a blank block between
 * them is settled with the block before it), and read from there gives the same blocks as the
 * whole text does: a caller keeps `at` and reads only what follows it.
 */
export function settledRows(text: string, width: number): { rows: string[]; at: number } {
  const lines = text.split("\n");
  const blocks = parseBlocks(lines.slice(0, -1).join("\n"));
  if (blocks.length < 2) return { rows: [], at: 0 };
  let at = 0;
  for (let i = 0; i < blocks[blocks.length - 1]!.line; i++) at += lines[i]!.length + 1;
  return { rows: blocks.slice(0, -1).flatMap((b) => blockLines(b.block, width)), at };
}
