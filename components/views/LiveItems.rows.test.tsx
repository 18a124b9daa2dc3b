/**
 * The live area is drawn to rows (issue #41 item 3): what LiveItems puts on screen is, row for
 * row, what layout/live-rows.ts drew, at every width from 24 to 200 columns, and the frame is never
 * taller than the rows it was given nor wider than the width — with a streaming Markdown answer
 * much longer than the area, running tool calls, a retry countdown, notices, and running children.
 */
import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import type { ChildView, ToolItem, TranscriptItem } from "../state/transcript-types.js";
import { stripAnsi } from "../testing/wait-for-frame.js";
import { liveRows } from "../layout/live-rows.js";
import { markdownLines } from "../layout/markdown-lines.js";
import { LiveItems } from "./Transcript.js";
import { runningChild, taskItem } from "../testing/children.js";

afterEach(() => cleanup());

const NOW = 1_000_000;
const WIDTHS = [24, 31, 40, 57, 80, 99, 120, 160, 200];

const answer = [
  "# A heading long enough to wrap at a narrow width of the terminal",
  "",
  ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i} with **bold**, \`code\` and words that wrap around at most widths, end${i}.`),
  "- a bullet that is long enough to wrap at forty columns and beyond",
  "> a quote that wraps on a narrow screen, with a rule on every row",
  "```ts",
  "const x = verify(request, 42); // a long code line that wraps at narrow widths",
  "```",
  "The last words of the answer so far",
].join("\n");

const tool = (id: string, over: Partial<ToolItem> = {}): ToolItem => ({ kind: "tool", id, done: false, name: "grep", args: { pattern: "login", path: "src/auth" }, status: "running", ...over });

const child = (i: number): ChildView => runningChild(i, NOW, `child ${i} is reading the login code `.repeat(4));

const rowsOnly: TranscriptItem[] = [
  { kind: "info", id: "n", done: true, tone: "warn", text: "a notice long enough to wrap around at the narrow widths we draw at" },
  { kind: "thinking", id: "th", done: false, chars: 120, text: "hmm" },
  tool("g1"),
  tool("g2", { name: "bash", args: { command: "cd /work/project && npm run build && npm test -- --reporter=verbose && echo done with all of it" }, update: "building the bundle" }),
  tool("g3", { status: "ok", durationMs: 1200, result: "a.ts:1: login\nb.ts:2: login\nc.ts:3: login" }),
  { kind: "info", id: "r", done: false, tone: "warn", text: "", retry: { label: "529 overloaded", attempt: 2, maxAttempts: 5, until: NOW + 4_000, delayMs: 8_000, reason: "overloaded" } },
  { kind: "assistant", id: "a", done: false, text: answer },
];

/** The frame LiveItems draws, as plain rows with trailing spaces dropped. */
function frameRows(live: TranscriptItem[], columns: number, rows: number, fill = false, held?: Set<string>): string[] {
  const { lastFrame } = render(
    <Box width={columns} flexDirection="column">
      <LiveItems live={live} now={NOW} columns={columns} rows={rows} fill={fill} waiting={{ children: new Set(), calls: { calls: held ?? new Set(), main: false } }} />
    </Box>,
  );
  return stripAnsi(lastFrame() ?? "")
    .split("\n")
    .map((r) => r.trimEnd());
}

/** The rows live-rows drew, plain, trailing spaces dropped. */
function drawnRows(live: TranscriptItem[], columns: number, rows: number, held?: Set<string>): string[] {
  const drawing = liveRows(live, columns, rows, { now: NOW, hold: (item) => (held?.has(item.id) ? "approval" : undefined) });
  return drawing.blocks.flatMap((b) => (b.kind === "rows" ? b.rows.map((r) => stripAnsi(r).trimEnd()) : []));
}

describe("the live area drawn to rows", () => {
  for (const columns of WIDTHS) {
    it(`at ${columns} columns shows exactly the rows it drew, never taller than its rows nor wider than the width`, () => {
      for (const rows of [6, 17, 40]) {
        const shown = frameRows(rowsOnly, columns, rows);
        expect(shown, `${rows} rows`).toEqual(drawnRows(rowsOnly, columns, rows));
        expect(shown.length).toBeLessThanOrEqual(rows);
        for (const row of shown) expect(stringWidth(row)).toBeLessThanOrEqual(columns);
        // The newest words are at the bottom: the last row the answer draws at this width.
        expect(shown.at(-1)).toBe(stripAnsi(markdownLines(answer, columns).at(-1)!).trimEnd());
      }
    });
  }

  it("the streaming answer's tail is the last of its own drawn rows, and fills the area when longer", () => {
    const live: TranscriptItem[] = [{ kind: "assistant", id: "a", done: false, text: answer }];
    const d = liveRows(live, 40, 12, { now: NOW });
    expect(d.full).toBe(true);
    expect(d.height).toBe(12);
    const shown = frameRows(live, 40, 12, true);
    expect(shown).toHaveLength(12);
    expect(shown.at(-1)).toBe("The last words of the answer so far");
    const short = liveRows([{ kind: "assistant", id: "a", done: false, text: "two\nlines" }], 40, 12, { now: NOW });
    expect(short.full).toBe(false);
    expect(short.height).toBe(3);
    // fill: exactly the rows, the content at the bottom
    const filled = frameRows([{ kind: "assistant", id: "a", done: false, text: "two\nlines" }], 40, 12, true);
    expect(filled).toHaveLength(12);
    expect(filled.slice(-2)).toEqual(["two", "lines"]);
  });

  it("cuts the oldest rows first", () => {
    const live: TranscriptItem[] = [
      { kind: "info", id: "old", done: true, tone: "info", text: Array.from({ length: 10 }, (_, i) => `old ${i}`).join("\n") },
      { kind: "info", id: "new", done: true, tone: "info", text: "new 0\nnew 1" },
    ];
    expect(frameRows(live, 40, 4)).toEqual(["old 8", "old 9", "new 0", "new 1"]);
  });

  it("a call waiting for approval says so, without a spinner, in the rows it draws", () => {
    const live = [tool("g1")];
    const held = new Set(["g1"]);
    const shown = frameRows(live, 80, 5, false, held);
    expect(shown).toEqual(drawnRows(live, 80, 5, held));
    expect(shown[0]).toContain("· waits for your approval");
  });

  for (const columns of [24, 44, 80, 120, 200]) {
    it(`with running children at ${columns} columns: as tall as drawn, never taller than its rows`, () => {
      for (const n of [1, 3, 8]) {
        const live: TranscriptItem[] = [rowsOnly[0]!, ...Array.from({ length: n }, (_, i) => taskItem(child(i))), tool("g1"), rowsOnly.at(-1)!];
        for (const rows of [8, 21, 40]) {
          const shown = frameRows(live, columns, rows);
          const d = liveRows(live, columns, rows, { now: NOW });
          expect(shown.length, `${n} children in ${rows} rows`).toBe(d.height);
          expect(shown.length).toBeLessThanOrEqual(rows);
          for (const row of shown) expect(stringWidth(row)).toBeLessThanOrEqual(columns);
          expect(shown.at(-1)).toBe(stripAnsi(markdownLines(answer, columns).at(-1)!).trimEnd());
        }
      }
    });
  }
});
