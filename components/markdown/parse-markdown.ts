/**
 * A small Markdown reader for terminal output: headings, bullet and numbered lists, quotes,
 * fenced code, tables (a header row, a `|---|:-:|` rule, body rows), rules and paragraphs; inline bold, italic, `code` and links. Pure and forgiving —
 * unclosed markers (common while text is still streaming) stay as plain text, and an unclosed
 * code fence runs to the end.
 */

export type CellAlign = "left" | "right" | "center";

/** A parsed table: plain-text cells (inline Markdown already reduced to text). */
export interface TableData {
  align: CellAlign[];
  header: string[];
  rows: string[][];
}

/** A run of inline text with its style. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  /** Link target; `text` is the link's label. */
  link?: string;
}

/** One rendered line-level block. */
export type MdBlock =
  | { type: "heading"; level: number; spans: Span[] }
  | { type: "bullet"; indent: number; marker: string; spans: Span[] }
  | { type: "quote"; spans: Span[] }
  | { type: "code"; lang?: string; lines: string[] }
  | ({ type: "table" } & TableData)
  | { type: "rule" }
  | { type: "blank" }
  | { type: "para"; spans: Span[] };

const INLINE = /(`+)([^`]+?)\1|\*\*([^*]+?)\*\*|(?<![\w*])\*(?![\s*])([^*]+?)(?<!\s)\*(?![\w*])|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Inline spans of one line of text. */
export function parseInline(text: string, style: Omit<Span, "text"> = {}): Span[] {
  const spans: Span[] = [];
  const push = (span: Span) => {
    if (span.text === "") return;
    const last = spans[spans.length - 1];
    const same = last && last.bold === span.bold && last.italic === span.italic && last.code === span.code && last.link === span.link;
    if (same) last.text += span.text;
    else spans.push(span);
  };
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    push({ ...style, text: text.slice(at, m.index) });
    if (m[2] !== undefined) push({ ...style, code: true, text: m[2] });
    else if (m[3] !== undefined) for (const s of parseInline(m[3], { ...style, bold: true })) push(s);
    else if (m[4] !== undefined) for (const s of parseInline(m[4], { ...style, italic: true })) push(s);
    else push({ ...style, text: m[5]!, link: m[6]! });
    at = m.index + m[0].length;
  }
  push({ ...style, text: text.slice(at) });
  return spans;
}

/** The blocks of a Markdown text (one block per source line, except fenced code). */
export function parseMarkdown(text: string): MdBlock[] {
  return parseBlocks(text).map((b) => b.block);
}

/** A parsed block and the index of its first source line (a code block's opening fence). */
export interface SourcedBlock {
  block: MdBlock;
  line: number;
}

/** parseMarkdown's blocks, each with the source line it starts on. */
export function parseBlocks(text: string): SourcedBlock[] {
  const blocks: SourcedBlock[] = [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let code: { lang?: string; lines: string[]; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(raw);
    if (code) {
      if (fence) {
        blocks.push({ block: { type: "code", lang: code.lang, lines: code.lines }, line: code.line });
        code = undefined;
      } else code.lines.push(raw);
      continue;
    }
    if (fence) {
      code = { lang: fence[2] || undefined, lines: [], line: i };
      continue;
    }
    const align = raw.includes("|") ? tableRule(lines[i + 1]) : undefined;
    if (align) {
      const start = i;
      const header = tableCells(raw);
      const rows: string[][] = [];
      i += 2;
      for (; i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== ""; i++) rows.push(tableCells(lines[i]!));
      i--;
      const n = Math.max(header.length, align.length);
      const fit = (r: string[]) => Array.from({ length: n }, (_, c) => r[c] ?? "");
      blocks.push({ block: { type: "table", align: Array.from({ length: n }, (_, c) => align[c] ?? "left"), header: fit(header), rows: rows.map(fit) }, line: start });
      continue;
    }
    blocks.push({ block: lineBlock(raw), line: i });
  }
  if (code) blocks.push({ block: { type: "code", lang: code.lang, lines: code.lines }, line: code.line });
  // Collapse runs of blank lines and drop leading/trailing ones.
  const out = blocks.filter((b, i) => b.block.type !== "blank" || (i > 0 && blocks[i - 1]!.block.type !== "blank"));
  while (out[0]?.block.type === "blank") out.shift();
  while (out[out.length - 1]?.block.type === "blank") out.pop();
  return out;
}

/** The column alignments of a table's rule line (`| --- | :-: | --: |`), or undefined when it is none. */
function tableRule(line: string | undefined): CellAlign[] | undefined {
  if (line === undefined || !line.includes("-")) return undefined;
  const cells = tableCells(line);
  if (cells.length === 0 || !cells.every((c) => /^:?-+:?$/.test(c))) return undefined;
  if (!line.includes("|") && cells.length < 2) return undefined;
  return cells.map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : "left"));
}

/** A table row's cells as plain text (inline Markdown reduced to its text; `\|` is a literal bar). */
function tableCells(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((c) => parseInline(c.trim().replace(/\\\|/g, "|")).map((sp) => sp.text).join(""));
}

function lineBlock(raw: string): MdBlock {
  if (raw.trim() === "") return { type: "blank" };
  const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
  if (heading) return { type: "heading", level: heading[1]!.length, spans: parseInline(heading[2]!) };
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(raw)) return { type: "rule" };
  const bullet = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/.exec(raw);
  if (bullet) return { type: "bullet", indent: Math.floor(bullet[1]!.replace(/\t/g, "  ").length / 2), marker: bullet[2]!, spans: parseInline(bullet[3]!) };
  const quote = /^\s*>\s?(.*)$/.exec(raw);
  if (quote) return { type: "quote", spans: parseInline(quote[1]!) };
  return { type: "para", spans: parseInline(raw.trimEnd()) };
}
