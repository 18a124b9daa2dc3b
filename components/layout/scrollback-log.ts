/**
 * What the inline screen writes into the terminal's scrollback (<Static>, each entry written once,
 * in order): the finished transcript items and, while an answer streams, its settled rows
 * (markdown-lines.ts `settledRows`: rows of blocks no more text can change) as they settle. The
 * answer is then written once: its settled rows as it streams, and, when it finishes (or is
 * stopped), only the rows from where the written ones ended (a block's first line). The live area draws the
 * streaming answer from there on too (`written`), so no row is in both.
 *
 * Rows are drawn at the width of their moment: after a resize, rows already written stay at the old
 * width, like any terminal output, and the rest (from a block's first line) is drawn at the
 * new one; nothing is written twice or left out. A new epoch (the history written afresh) starts
 * the log over, the streaming answer with it (it is then written from its start).
 *
 * Only an answer nothing unfinished precedes (running background rows aside) is written as it
 * streams: the scrollback keeps the transcript's order. The transcript item itself is unchanged.
 */
import type { TranscriptItem } from "../state/transcript-types.js";
import { itemLines } from "./item-lines.js";
import { markdownLines, settledRows } from "./markdown-lines.js";

/** One write into the scrollback: a finished item (`from`: its rows from that offset of its text on, the rows before it were written as it streamed), or an answer's settled rows. */
export type ScrollbackEntry = { key: string; item: TranscriptItem; from?: number } | { key: string; rows: readonly string[] };

/** The streaming answer's rows already in the scrollback: drawn live from offset `at` of its text on (a block's first line), without the leading blank row. */
export interface WrittenAnswer {
  id: string;
  at: number;
}

/** An entry's rows at `columns`. */
export function entryRows(entry: ScrollbackEntry, columns: number): readonly string[] {
  if ("rows" in entry) return entry.rows;
  if (entry.from === undefined || entry.item.kind !== "assistant") return itemLines(entry.item, columns);
  return markdownLines(entry.item.text.slice(entry.from), columns);
}

/** Builds the log as the screen renders (one per inline screen). */
export class ScrollbackLog {
  private entries: ScrollbackEntry[] = [];
  private logged = 0;
  private epoch: number | string | undefined;
  private open: WrittenAnswer | undefined;
  /** Where the open answer's settled rows are in `entries`. */
  private chunks: number[] = [];

  /**
   * The log for `finished` and `live` at `columns` (append-only: the array grows, or is new with a
   * new epoch), and the streaming answer's rows written so far. The same arguments again change nothing.
   */
  update(finished: readonly TranscriptItem[], live: readonly TranscriptItem[], columns: number, epoch: number | string): { entries: readonly ScrollbackEntry[]; written?: WrittenAnswer } {
    if (epoch !== this.epoch || finished.length < this.logged) {
      this.epoch = epoch;
      this.entries = [];
      this.logged = 0;
      this.open = undefined;
      this.chunks = [];
    }
    let grew = false;
    const add = (entry: ScrollbackEntry) => {
      if (!grew) this.entries = [...this.entries];
      grew = true;
      this.entries.push(entry);
    };
    for (const item of finished.slice(this.logged)) {
      const open = this.open?.id === item.id ? this.open : undefined;
      if (!open) {
        add({ key: item.id, item });
        continue;
      }
      add({ key: item.id, item, from: open.at });
      // Its settled rows were written in earlier commits (<Static> draws only entries it has not
      // drawn): they are not kept for the rest of the session.
      for (const i of this.chunks) this.entries[i] = { key: this.entries[i]!.key, rows: [] };
      this.open = undefined;
      this.chunks = [];
    }
    this.logged = finished.length;
    const answer = streamingAnswer(live);
    if (this.open && this.open.id !== answer?.id && !live.some((i) => i.id === this.open!.id)) {
      this.open = undefined;
      this.chunks = [];
    }
    if (answer && (!this.open || this.open.id === answer.id)) {
      const open = this.open ?? { id: answer.id, at: 0 };
      const settled = settledRows(answer.text.slice(open.at), columns);
      if (settled.rows.length > 0) {
        add({ key: `${answer.id}@${open.at}`, rows: open.at === 0 ? ["", ...settled.rows] : settled.rows });
        if (open.at === 0) this.chunks = [];
        this.chunks.push(this.entries.length - 1);
        this.open = { id: answer.id, at: open.at + settled.at };
      }
    }
    return { entries: this.entries, ...(this.open ? { written: { ...this.open } } : {}) };
  }
}

/** The answer streaming now, when nothing unfinished comes before it in `live` (a running background child's row aside): the one the live area draws as its tail. */
function streamingAnswer(live: readonly TranscriptItem[]): Extract<TranscriptItem, { kind: "assistant" }> | undefined {
  const first = live.find((item) => !(item.kind === "tool" && item.background));
  if (!first || first.kind !== "assistant" || first.done) return undefined;
  const tail = [...live].reverse().find((item) => item.kind === "assistant" && !item.done);
  return tail === first ? first : undefined;
}
