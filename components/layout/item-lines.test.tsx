/**
 * itemLines draws what TranscriptItemView draws with Ink: for every kind of finished item, at narrow
 * and wide widths, details open and not, the plain rows are the same (the count is the height), and
 * no row is wider than the width.
 */
import { Box, renderToString } from "ink";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import type { ChildView, TranscriptItem } from "../state/transcript-types.js";
import { stripAnsi } from "../testing/wait-for-frame.js";
import { TranscriptItemView } from "../views/TranscriptItemView.js";
import { itemLines } from "./item-lines.js";

const usage = { input: 1200, output: 340, cacheRead: 0, cacheWrite: 0 };
const child = (over: Partial<ChildView>): ChildView => ({ childId: "0123456789abcdef0123", profile: "scout", description: "find the login handler", prompt: "find it", status: "ok", startedAt: 0, durationMs: 2100, turns: 3, usage, report: "Found it in **src/auth/login.ts**: the handler verifies the request.\n\n- a bullet that is long enough to wrap at a narrow width\n- `code` here", entries: [], dropped: 0, thinking: false, ...over }) as ChildView;

const answer = [
  "# Title of the answer, long enough to wrap on a narrow screen",
  "",
  "A paragraph with **bold**, *italic*, `code` and a [link](https://example.com/a/long/path) that wraps across rows at most widths.",
  "",
  "- first bullet that is long enough to wrap around at forty columns",
  "  - nested bullet",
  "1. numbered item",
  "",
  "> a quoted line that is long enough to wrap at a narrow width, with a rule on each row",
  "",
  "```ts",
  "const x = verify(request, 42); // a long code line that has to wrap at narrow widths",
  "",
  "```",
  "",
  "---",
  "",
  "| name | cost | note |",
  "|---|---:|---|",
  "| scout | $0.01 | a long note that wraps in its column |",
  "| general | $1.20 | short |",
].join("\n");

const items: TranscriptItem[] = [
  { kind: "header", id: "h", done: true, cwd: "/home/someone/projects/a-rather-long-directory-name", model: "claude-sonnet-4", provider: "anthropic", notices: ["AGENTS.md is large and was cut to its first 200 lines"] },
  { kind: "user", id: "u1", done: true, text: "explain the login flow, then fix the redirect\nsecond line of the prompt  with  double spaces that wraps around at a narrow width" },
  { kind: "user", id: "u2", done: true, target: "ab12", text: "try again" } as TranscriptItem,
  { kind: "assistant", id: "a", done: true, text: answer },
  { kind: "thinking", id: "t", done: true, chars: 120, text: "  I should read the file first, then the tests that cover the redirect after login.\nThen decide.  " },
  { kind: "tool", id: "c1", done: true, name: "grep", args: { pattern: "login", path: "src" }, status: "ok", durationMs: 1234, result: "src/auth/login.ts:12: export function login(request) { return verify(request) && redirect(request.user, '/home') }\nsrc/auth/b.ts\nsrc/auth/c.ts\nsrc/auth/d.ts" } as TranscriptItem,
  { kind: "tool", id: "c2", done: true, name: "bash", args: { command: "cd /work/project && npm run build && npm test -- --reporter=verbose --coverage && rm -rf dist/tmp && echo done with everything" }, status: "error", durationMs: 40, result: "Error: build failed\nat line 1\nat line 2\nat line 3" } as TranscriptItem,
  { kind: "tool", id: "c3", done: true, name: "read", args: { path: "a.ts" }, status: "ok", resultHead: ["line one", "line two", "line three"], resultLines: 900 } as TranscriptItem,
  { kind: "tool", id: "c4", done: true, name: "task", args: { description: "find" }, status: "ok", result: "done", child: child({}) } as TranscriptItem,
  { kind: "tool", id: "c5", done: true, name: "task", args: { description: "fail" }, status: "error", child: child({ status: "crash", report: "", reason: "the provider returned 500 three times in a row and the child gave up after its retries" }) } as TranscriptItem,
  { kind: "info", id: "i1", done: true, tone: "warn", text: "a warning that is long enough to wrap around at the narrow widths we test" },
  { kind: "info", id: "i2", done: true, tone: "dim", text: "Commands:\n  /cost     what the session cost so far, per model and per child session, with tokens\n  /help     this list\n\nplain line" },
  { kind: "info", id: "i3", done: true, tone: "info", text: "  name      $0.01  12k tokens (in 10k, out 2k, cache 0) and a long tail that wraps" },
];

/** The item as the Ink view draws it, in a box of `width` (as the history window places it). */
function inkRows(item: TranscriptItem, width: number, detail: boolean): string[] {
  const out = renderToString(
    <Box flexDirection="column" width={width}>
      <TranscriptItemView item={item} now={0} width={width} detail={detail} />
    </Box>,
    { columns: width },
  );
  return stripAnsi(out).split("\n").map((r) => r.trimEnd());
}

describe("itemLines", () => {
  for (const width of [24, 40, 57, 80, 120, 200]) {
    for (const detail of [false, true]) {
      it(`draws the rows the Ink view draws at ${width} columns${detail ? ", details open" : ""}`, () => {
        for (const item of items) {
          const rows = itemLines(item, width, detail);
          expect(rows.map((r) => stripAnsi(r).trimEnd()), `${item.id}`).toEqual(inkRows(item, width, detail));
          for (const row of rows) expect(stringWidth(row), `${item.id}: ${row}`).toBeLessThanOrEqual(width);
        }
      });
    }
  }

  it("keeps an item's rows per width and details state, and draws a changed item (a new object) again", () => {
    const item = items[3]!;
    expect(itemLines(item, 80)).toBe(itemLines(item, 80));
    expect(itemLines(item, 80, true)).not.toBe(itemLines(item, 80));
    const changed = { ...item, text: "changed" } as TranscriptItem;
    expect(itemLines(changed, 80).map(stripAnsi)).toEqual(["", "changed"]);
  });
});

describe("queryRow", () => {
  it("puts an answer's row holding the query at the top, and any other item from its first row", async () => {
    const { queryRow } = await import("./item-lines.js");
    const rows = itemLines(items[3]!, 80).map(stripAnsi);
    const at = queryRow(items[3]!, "NESTED bullet", 80);
    expect(at).toBeGreaterThan(0);
    expect(rows[at]).toContain("nested bullet");
    expect(queryRow(items[8]!, "login.ts", 80, true)).toBe(0);
  });
});
