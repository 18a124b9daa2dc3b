import { afterEach, describe, expect, it, vi } from "vitest";
import { Box, render, Text } from "ink";
import { useEffect, useState } from "react";
import { ScreenEmulator } from "../testing/screen-emulator.js";
import { FakeTerminal, fakeStdin } from "../testing/fake-terminal.js";
import { ownFullscreenFrames, UNSYNCED_PATCH_BYTES, type FrameMetrics, type FrameOwner } from "./frame-owner.js";
import { TerminalWriteContext, useTerminalWrite } from "./terminal-write.js";
import { CaretMarkContext } from "./caret.js";
import { LineInput } from "../views/LineInput.js";

// Ink draws only a final frame when it believes it runs in CI.
vi.hoisted(() => {
  for (const key of Object.keys(process.env)) if (key === "CI" || key === "CONTINUOUS_INTEGRATION" || key.startsWith("CI_")) delete process.env[key];
});


let beside: ((data: string) => void) | undefined;
/** Ticks further apart than a frame at 30 fps: each one is a frame of its own. */
const tickMs = 50;
function View({ ticks }: { ticks: number }) {
  const [n, setN] = useState(0);
  beside = useTerminalWrite();
  useEffect(() => {
    if (n >= ticks) return;
    const t = setTimeout(() => setN(n + 1), tickMs);
    return () => clearTimeout(t);
  }, [n, ticks]);
  return (
    <Box flexDirection="column" width={40} height={10}>
      <Box borderStyle="round" flexGrow={1} flexDirection="column" overflow="hidden">
        {Array.from({ length: n }, (_, i) => (
          <Text key={i}>line {i + 1}</Text>
        )).slice(-7)}
      </Box>
      <Text color="green">{n < ticks ? `working ${n}` : "done"}</Text>
    </Box>
  );
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const trimmed = (lines: string[]) => lines.map((l) => l.trimEnd());

let owner: FrameOwner | undefined;
afterEach(() => owner?.stop());

function start(term: FakeTerminal, ticks: number) {
  owner = ownFullscreenFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
  const app = render(
    <TerminalWriteContext.Provider value={owner.write}>
      <View ticks={ticks} />
      {owner.probe}
    </TerminalWriteContext.Provider>,
    { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
  );
  return app;
}

describe("ownFullscreenFrames: the frame that reaches the terminal is drawn from Ink's tree by our code", () => {
  it("shows every frame, and not a byte Ink's log-update writes reaches the terminal", async () => {
    const term = new FakeTerminal();
    const app = start(term, 12);
    for (let i = 0; i < 100 && term.screen.lines().at(-1)?.trimEnd() !== "done"; i++) await settle(50);
    const row = (text: string) => `│${text.padEnd(38)}│`;
    expect(trimmed(term.screen.lines())).toEqual([`╭${"─".repeat(38)}╮`, ...[6, 7, 8, 9, 10, 11, 12].map((i) => row(`line ${i}`)), `╰${"─".repeat(38)}╯`, "done"]);
    const bytes = term.writes.join("");
    // Ink's log-update erases its last frame line by line (ESC[2K ESC[1A … ESC[G) before each one.
    expect(bytes).not.toContain("\u001b[2K");
    expect(bytes).not.toContain("\u001b[G");
    expect(bytes).not.toMatch(/\u001b\[[23]J/); // no clear of the screen or the scrollback
    // Every frame is one write in a synchronized-output block (but a patch of a cell or two); only the first is drawn whole.
    const synced = (w: string) => w.startsWith("\u001b[?2026h") && w.endsWith("\u001b[?2026l");
    expect(term.writes.every((w) => synced(w) || w.length <= UNSYNCED_PATCH_BYTES)).toBe(true);
    expect(term.writes.filter(synced).length).toBeGreaterThan(5);
    expect(term.writes.filter((w) => w.includes("\u001b[H\u001b[J"))).toHaveLength(1);
    expect(term.writes.length).toBeGreaterThan(5);
    app.unmount();
    await settle(50);
    expect(term.writes.join("")).toBe(bytes); // unmounting draws nothing over the last frame
  });

  it("bytes the app writes beside the frame reach the terminal, and the frame is drawn whole after them", async () => {
    const term = new FakeTerminal();
    const app = start(term, 0);
    await settle(50);
    const before = term.writes.length;
    beside!("\u001b[2J\u001b[H");
    await settle(50);
    expect(term.writes[before]).toBe("\u001b[2J\u001b[H");
    expect(term.writes.slice(before + 1).join("")).toContain("\u001b[H\u001b[J");
    expect(trimmed(term.screen.lines()).at(-1)).toBe("done");
    app.unmount();
  });

  it("a bell or a notification's escape sequence beside the frame is written alone: the frame is not drawn again", async () => {
    const term = new FakeTerminal();
    const app = start(term, 0);
    await settle(50);
    const before = term.writes.length;
    beside!("\u0007");
    beside!("\u001b]9;Ink: done\u0007");
    await settle(50);
    expect(term.writes.slice(before)).toEqual(["\u0007", "\u001b]9;Ink: done\u0007"]);
    expect(trimmed(term.screen.lines()).at(-1)).toBe("done");
    app.unmount();
  });

  it("a resize (Ink redraws its own frame, into nothing) makes our next frame whole, at the new size", async () => {
    const term = new FakeTerminal();
    const app = start(term, 0);
    await settle(50);
    const before = term.writes.length;
    term.columns = 30;
    term.screen = new ScreenEmulator(30, 10);
    term.emit("resize");
    await settle(80);
    const after = term.writes.slice(before).join("");
    expect(after).toContain("\u001b[H\u001b[J");
    expect(after).not.toContain("\u001b[2K");
    expect(trimmed(term.screen.lines())[0]).toBe(`╭${"─".repeat(28)}…`); // the 40-wide box cut to 30 columns, the cut marked
    app.unmount();
  });
});

describe("ownFullscreenFrames: the terminal's cursor follows the prompt's caret", () => {
  function Input({ at }: { at: number }) {
    return (
      <Box flexDirection="column" width={40} height={10}>
        <Text>header</Text>
        <Box borderStyle="round">
          <Text>› </Text>
          <LineInput value="hello world" cursor={at} showCursor width={30} placeholder="" />
        </Box>
      </Box>
    );
  }
  const mount = (term: FakeTerminal, at: number) => {
    owner = ownFullscreenFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
    const tree = (n: number) => (
      <CaretMarkContext.Provider value={true}>
        <Input at={n} />
        {owner!.probe}
      </CaretMarkContext.Provider>
    );
    const app = render(tree(at), { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false });
    return { app, move: (n: number) => app.rerender(tree(n)) };
  };

  it("leaves the (hidden) cursor on the caret's cell after each frame, moving it alone when only the caret moved; the mark is never drawn", async () => {
    const term = new FakeTerminal();
    const { app, move } = mount(term, 2);
    await settle(50);
    expect(trimmed(term.screen.lines()).slice(0, 4)).toEqual(["header", `╭${"─".repeat(38)}╮`, `│› hello world${" ".repeat(25)}│`, `╰${"─".repeat(38)}╯`]);
    expect([term.screen.row, term.screen.col]).toEqual([2, 5]); // border, "› ", "he"
    const before = term.writes.length;
    move(8);
    await settle(80);
    expect([term.screen.row, term.screen.col]).toEqual([2, 11]);
    expect(term.writes.slice(before).join("")).not.toContain("hello"); // the caret's cells changed, not the text
    expect(term.writes.join("")).not.toContain("ink-caret");
    expect(term.writes.join("")).not.toContain("\u001b[?25h"); // the cursor stays hidden: the inverse cell is the caret people see
    app.unmount();
  });

  it("a patch of a cell or two (a spinner's step) is written without the synchronized-output pair; a bigger one inside it", async () => {
    const term = new FakeTerminal();
    owner = ownFullscreenFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
    const tree = (glyph: string, text: string) => (
      <>
        <Box flexDirection="column" width={40}>
          <Text>{text}</Text>
          <Text>{`${glyph} working`}</Text>
        </Box>
        {owner!.probe}
      </>
    );
    const app = render(tree("⠋", "first line"), { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false });
    await settle(50);
    let before = term.writes.length;
    app.rerender(tree("⠙", "first line"));
    await settle(60);
    const step = term.writes.slice(before);
    expect(step).toHaveLength(1);
    expect(step[0]).not.toContain("\u001b[?2026");
    expect(step[0]!.length).toBeLessThanOrEqual(UNSYNCED_PATCH_BYTES);
    expect(trimmed(term.screen.lines()).slice(0, 2)).toEqual(["first line", "⠙ working"]);
    before = term.writes.length;
    app.rerender(tree("⠹", "a longer line, many cells changed"));
    await settle(60);
    const bigger = term.writes.slice(before);
    expect(bigger).toHaveLength(1);
    expect(bigger[0]).toMatch(/^\u001b\[\?2026h[^]*\u001b\[\?2026l$/);
    expect(trimmed(term.screen.lines()).slice(0, 2)).toEqual(["a longer line, many cells changed", "⠹ working"]);
    app.unmount();
  });

  it("a spinner's step below the prompt saves the parked caret and restores it (DECSC/DECRC) instead of moving back to it", async () => {
    const term = new FakeTerminal();
    owner = ownFullscreenFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
    const tree = (glyph: string) => (
      <CaretMarkContext.Provider value={true}>
        <Box flexDirection="column" width={40} height={10}>
          <Box borderStyle="round">
            <Text>› </Text>
            <LineInput value="hello world" cursor={5} showCursor width={30} placeholder="" />
          </Box>
          <Text color="cyan">{glyph}</Text>
        </Box>
        {owner!.probe}
      </CaretMarkContext.Provider>
    );
    const app = render(tree("⠋"), { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false });
    await settle(50);
    expect([term.screen.row, term.screen.col]).toEqual([1, 8]); // border, "› ", "hello"
    for (const glyph of ["⠙", "⠹", "⠸"]) {
      const before = term.writes.length;
      app.rerender(tree(glyph));
      await settle(60);
      const step = term.writes.slice(before).join("");
      expect(step.startsWith("\u001b7") && step.endsWith("\u001b8")).toBe(true);
      expect(step).not.toMatch(/\u001b\[2;9H/); // no move back to the caret
      expect(trimmed(term.screen.lines())[3]).toBe(glyph);
      expect([term.screen.row, term.screen.col]).toEqual([1, 8]); // the cursor is on the caret again
    }
    app.unmount();
  });

  it("a commit that changes nothing on screen writes nothing: no empty synchronized-output pair, no caret park", async () => {
    const term = new FakeTerminal();
    const { app, move } = mount(term, 2);
    await settle(50);
    const before = term.writes.length;
    // New props, the same cells (a streaming child's memoised row, a figure sampled on the tick): frames drawn, nothing written.
    for (let i = 0; i < 5; i++) {
      move(2);
      await settle(40);
    }
    expect(term.writes.slice(before)).toEqual([]);
    move(3);
    await settle(60);
    expect(term.writes.length).toBe(before + 1); // a real change still writes its frame
    app.unmount();
  });
});

describe("ownFullscreenFrames: each frame's time and where it went (INK_BENCH_FRAMES)", () => {
  it("reports every drawn frame with its phases, Yoga's layout before it and, when it can be read, its wait for a CPU", async () => {
    const term = new FakeTerminal();
    const frames: FrameMetrics[] = [];
    let waitedSoFar = 0;
    // A reading of the thread's wait that grows 3 ms across each frame (read before and after it).
    const waitedMs = () => (waitedSoFar += 1.5);
    owner = ownFullscreenFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30, onFrame: (m) => frames.push(m), waitedMs });
    const app = render(
      <TerminalWriteContext.Provider value={owner.write}>
        <View ticks={4} />
        {owner.probe}
      </TerminalWriteContext.Provider>,
      { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
    );
    for (let i = 0; i < 100 && term.screen.lines().at(-1)?.trimEnd() !== "done"; i++) await settle(50);
    expect(frames.length).toBeGreaterThanOrEqual(4);
    for (const f of frames) {
      const { rows, cells, diff, write, layout } = f.phases;
      for (const v of [rows, cells, diff, write, layout]) expect(v).toBeGreaterThanOrEqual(0);
      expect(rows + cells + diff + write).toBeLessThanOrEqual(f.renderTime + 1e-6);
      expect(f.waited).toBe(1.5);
    }
    // Every frame after the first followed a commit Yoga laid out (the first's layout was before the owner took over).
    expect(frames.slice(1).some((f) => f.phases.layout > 0)).toBe(true);
    app.unmount();
  });
});
