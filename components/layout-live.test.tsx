import { Box } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { ChildRow, STALL_MS } from "./views/ChildRow.js";
import { HistoryWindow } from "./views/HistoryWindow.js";
import { stripAnsi } from "./testing/wait-for-frame.js";
import type { ChildView, TranscriptItem } from "./state/transcript-types.js";
import { screenLayout } from "./layout/screen-layout.js";
import { LiveItems } from "./views/Transcript.js";
import { runningChild, taskItem } from "./testing/children.js";

const tick = () => new Promise((r) => setTimeout(r, 60));
const NOW = 1_000_000;

const child = (i: number, over: Partial<ChildView> = {}): ChildView => runningChild(i, NOW, `child ${i} is reading the login code and writing a long paragraph about it `.repeat(4), over);


describe("the live area at 80×24", () => {
  const { liveRows } = screenLayout({ mode: "inline", columns: 80, rows: 24, promptRows: 1, approvalRows: 0, picker: false, sidebar: false, overlay: false });

  for (const n of [1, 4, 8, 16]) {
    it(`${n} running children with a streaming answer fit the rows left by the prompt and status bar; each child is shown or counted`, async () => {
      const kids = Array.from({ length: n }, (_, i) => child(i));
      const live: TranscriptItem[] = [...kids.map(taskItem), { kind: "assistant", id: "a", done: false, text: "the main agent is still writing ".repeat(40) }];
      const { lastFrame } = render(
        <Box width={80} flexDirection="column">
          <LiveItems live={live} now={NOW} columns={80} rows={liveRows} />
        </Box>,
      );
      await tick();
      const frame = lastFrame() ?? "";
      expect(frame.split("\n").length).toBeLessThanOrEqual(liveRows);
      const shown = kids.filter((k) => frame.includes(k.childId.slice(-6))).length;
      const more = Number(/\+(\d+) more/.exec(frame)?.[1] ?? 0);
      expect(shown + more).toBe(n);
    });
  }
});

describe("ChildRow", () => {
  it("tells a silent child from a working one, and counts streamed text as tokens before the turn ends", () => {
    const working = render(<ChildRow child={child(1, { pendingChars: 4_000 })} now={NOW} width={100} />).lastFrame()!;
    expect(working).toContain("1.0k tok");
    expect(working).not.toContain("no output");
    const silent = render(<ChildRow child={child(1, { lastEventAt: NOW - STALL_MS - 5_000 })} now={NOW} width={100} />).lastFrame()!;
    expect(silent).toContain("no output for 15s");
    // A child whose question waits for the person is not "silent": it says what it waits for.
    const asking = render(<ChildRow child={child(1, { lastEventAt: NOW - STALL_MS - 5_000 })} now={NOW} width={100} waiting />).lastFrame()!;
    expect(asking).toContain("waiting for approval");
    expect(asking).not.toContain("no output");
    expect(stripAnsi(asking).startsWith("? ")).toBe(true); // marked where the spinner was
    expect(stripAnsi(working).startsWith("? ")).toBe(false);
  });
});

describe("HistoryWindow (full-screen transcript)", () => {
  const items: TranscriptItem[] = Array.from({ length: 5_000 }, (_, i) => ({ kind: "info", id: `m${i}`, done: true, text: `message ${i}`, tone: "info" }));

  it("renders only the items in view of a 5,000-message transcript, following the end", async () => {
    const counts: number[] = [];
    const { lastFrame } = render(<HistoryWindow items={items} width={80} height={10} offset={0} onRendered={(n) => counts.push(n)} />);
    await tick();
    const frame = lastFrame()!;
    expect(frame).toContain("message 4999");
    expect(frame).not.toContain("message 4989\n");
    expect(frame.split("\n").length).toBe(10);
    expect(Math.max(...counts)).toBeLessThanOrEqual(12);
  });

  it("scrolled up, shows the rows above; a narrower width re-measures wrapped items and still fills the view exactly", async () => {
    const { lastFrame, rerender } = render(<HistoryWindow items={items} width={80} height={10} offset={100} />);
    await tick();
    expect(lastFrame()).toContain("message 4899");
    expect(lastFrame()).not.toContain("message 4999");
    const long: TranscriptItem[] = items.slice(0, 50).map((it, i) => ({ ...it, id: `w${i}`, text: `wide ${i} ${"word ".repeat(12)}end${i}` }));
    rerender(<HistoryWindow items={long} width={30} height={10} offset={0} />);
    await tick();
    await tick();
    const frame = lastFrame()!;
    expect(frame).toContain("end49");
    expect(frame.split("\n").length).toBe(10);
  });
});

describe("details in place (Ctrl-O)", () => {
  const done = child(7, { status: "ok", durationMs: 3_000, report: "REPORT-LINE-1: login is in src/auth/login.ts\nREPORT-LINE-2: tests in test/login.test.ts" });
  const items: TranscriptItem[] = [
    { kind: "thinking", id: "th", done: true, chars: 21, text: "THOUGHT: check the tests" },
    { ...taskItem(done), done: true, status: "ok", result: "REPORT-LINE-1" },
    { kind: "tool", id: "g", done: true, name: "grep", args: { pattern: "login" }, status: "ok", result: Array.from({ length: 12 }, (_, i) => `hit-${i}`).join("\n") },
  ];

  it("opens a finished child's report, a whole tool result and the thought where they sit, and closes them again", async () => {
    const { lastFrame, rerender } = render(<HistoryWindow items={items} width={100} height={40} offset={0} />);
    await tick();
    const closed = lastFrame()!;
    expect(closed).not.toContain("REPORT-LINE-2");
    expect(closed).not.toContain("hit-11");
    expect(closed).toContain("+10 lines");
    expect(closed).not.toContain("THOUGHT:");
    rerender(<HistoryWindow items={items} width={100} height={40} offset={0} detail />);
    await tick();
    const open = lastFrame()!;
    expect(open).toContain("REPORT-LINE-2: tests in test/login.test.ts");
    expect(open).toContain("hit-11");
    expect(open).toContain("THOUGHT: check the tests");
    rerender(<HistoryWindow items={items} width={100} height={40} offset={0} />);
    await tick();
    expect(lastFrame()).not.toContain("REPORT-LINE-2");
  });
});
