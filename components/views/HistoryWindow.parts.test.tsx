/**
 * Full-screen cost does not follow what is above (issue #29, item 1): a finished answer is drawn to
 * rows once per width (layout/item-lines.ts) and the window draws only the rows in view — exactly
 * the rows the whole answer drawn in full by the Ink view has there (bottom, middle, top); a
 * finished answer is not drawn again while a new answer streams below it, and not at all while the
 * live answer fills the region.
 */
import { Box } from "ink";
import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentMessage } from "../../src/protocol/messages.js";
import { initialStreamState, reduceAll } from "../state/agent-stream-reducer.js";
import type { StreamState, TranscriptItem } from "../state/transcript-types.js";
import { HistoryWindow } from "./HistoryWindow.js";
import { totalRows } from "../layout/virtual-window.js";
import { screenLayout } from "../layout/screen-layout.js";
import { ScreenBody } from "./ScreenBody.js";
import { stripAnsi } from "../testing/wait-for-frame.js";
import { TranscriptItemView } from "./TranscriptItemView.js";

/** Every time Markdown is drawn to rows: its text, counted. */
const drawn = vi.hoisted(() => new Map<string, number>());
vi.mock("../layout/markdown-lines.js", async (importActual) => {
  const actual = await importActual<typeof import("../layout/markdown-lines.js")>();
  const markdownLines = (text: string, width: number) => {
    drawn.set(text, (drawn.get(text) ?? 0) + 1);
    return actual.markdownLines(text, width);
  };
  return { ...actual, markdownLines };
});

afterEach(() => {
  cleanup();
  drawn.clear();
});

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 };
/** A long answer: numbered paragraphs (some wrapping), bullets and code blocks, blank lines between. */
function longAnswer(paragraphs: number, tag: string): string {
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    if (i % 7 === 3) parts.push("```ts", `const ${tag.toLowerCase()}${i} = verify(request, ${i});`, "```");
    else if (i % 5 === 1) parts.push(`- ${tag}-${i} bullet: the session store keeps one append-only file per session, which wraps`);
    else parts.push(`${tag}-${i}. The login is handled in src/auth/login.ts${i % 3 === 0 ? ", which verifies the request and redirects the user after a successful check" : ""}.`);
    parts.push("");
  }
  return parts.join("\n");
}
function history(answer: string): AgentMessage[] {
  return [
    { role: "user", content: "explain the whole code base" },
    { role: "assistant", content: [{ type: "text", text: answer }], stopReason: "end_turn", usage },
  ] as AgentMessage[];
}
const tick = () => new Promise((r) => setTimeout(r, 5));
/** Renders again until the frame stops changing (heights measured after a draw land a render later). */
async function settle(app: ReturnType<typeof render>, view: () => React.ReactElement): Promise<string> {
  let before = "";
  for (let i = 0; i < 20; i++) {
    app.rerender(view());
    await tick();
    const f = stripAnsi(app.lastFrame() ?? "");
    if (f === before) return f;
    before = f;
  }
  return before;
}
const oldDraws = () => [...drawn].filter(([k]) => k.includes("OLD")).reduce((n, [, c]) => n + c, 0);

describe("a finished answer drawn in parts", () => {
  const W = 60;
  const H = 12;
  const items: TranscriptItem[] = initialStreamState(undefined, history(longAnswer(120, "OLD"))).finished;

  it("shows the very rows the whole answer has, at the bottom, the middle and the top, drawing a screenful of rows", async () => {
    // The reference: every item drawn whole, in one tall column.
    const whole = render(
      <Box flexDirection="column" width={W}>
        {items.map((item) => (
          <Box key={item.id} flexDirection="column" width={W}>
            <TranscriptItemView item={item} now={0} width={W} />
          </Box>
        ))}
      </Box>,
    );
    const rows = stripAnsi(whole.lastFrame()!).split("\n");
    whole.unmount();
    drawn.clear();
    expect(rows.length).toBeGreaterThan(200);
    for (const offset of [0, Math.floor(rows.length / 2), rows.length - H]) {
      const view = () => <HistoryWindow items={items} width={W} height={H} offset={offset} />;
      const app = render(view());
      const frame = await settle(app, view);
      expect(totalRows(items, W), "the window's heights are the drawn ones").toBe(rows.length);
      const want = rows.slice(rows.length - offset - H, rows.length - offset);
      expect(frame.split("\n").map((r) => r.trimEnd()), `offset ${offset}`).toEqual(want.map((r) => r.trimEnd()));
      // A screenful of rows was drawn, not the answer's hundreds.
      expect(frame.split("\n").length, `offset ${offset}`).toBe(H);
      app.unmount();
    }
    // The answer was drawn to rows once at this width, whatever the offset.
    expect(oldDraws()).toBe(1);
    expect(rows[1]).toContain("› explain the whole code base"); // the top offset reached the very first rows
  });
});

describe("while a new answer streams below", () => {
  const COLUMNS = 80;
  const ROWS = 24;
  const layout = screenLayout({ mode: "fullscreen", columns: COLUMNS, rows: ROWS, promptRows: 1, approvalRows: 0, picker: false, sidebar: false, overlay: false });
  const base = initialStreamState(undefined, history(longAnswer(300, "OLD")));
  const streaming = (text: string): StreamState => reduceAll(base, [{ type: "run_start", text: "and now the tests?", at: 0 }, { type: "event", event: { type: "text_delta", text }, at: 0 }]);
  const body = (state: StreamState, onHistoryRendered?: (n: number) => void) => (
    <ScreenBody mode="fullscreen" layout={layout} state={state} now={0} scroll={{ offset: 0, scrolled: false, unseen: 0 }} sidebar={{ rows: [], selected: 0, focused: false }} running={0} onHistoryRendered={onHistoryRendered} />
  );

  it("the finished answer is not drawn again, frame after frame", async () => {
    let text = "NEW answer starts.";
    const app = render(body(streaming(text)));
    await settle(app, () => body(streaming(text)));
    const first = oldDraws();
    expect(first).toBeGreaterThan(0); // the old answer's end shows above the new one
    for (let i = 0; i < 5; i++) {
      text += ` more-${i}`;
      app.rerender(body(streaming(text)));
      await tick();
      const frame = stripAnsi(app.lastFrame()!);
      expect(frame).toContain(`more-${i}`);
      expect(frame).toContain("OLD-299.");
    }
    expect(oldDraws()).toBe(first);
  });

  it("a live answer that fills the region hides the history: the window is not drawn, and the region is the answer's rows", async () => {
    const long = Array.from({ length: 40 }, (_, i) => `NEW-${i} line of the answer being written`).join("\n\n");
    let windows = 0;
    const app = render(body(streaming("NEW short"), () => windows++));
    await settle(app, () => body(streaming("NEW short"), () => windows++));
    expect(windows).toBeGreaterThan(0);
    windows = 0;
    drawn.clear();
    app.rerender(body(streaming(long), () => windows++));
    await tick();
    app.rerender(body(streaming(`${long}\n\nNEW-last`), () => windows++));
    await tick();
    const frame = stripAnsi(app.lastFrame()!);
    expect(windows).toBe(0);
    expect(oldDraws()).toBe(0);
    expect(frame).not.toContain("OLD");
    expect(frame).toContain("NEW-last");
    expect(frame.split("\n").length).toBe(layout.regionRows);
  });
});
