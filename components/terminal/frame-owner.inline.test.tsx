import { afterEach, describe, expect, it, vi } from "vitest";
import { Box, render, Static, Text } from "ink";
import { useEffect, useState } from "react";
import { ScreenEmulator } from "../testing/screen-emulator.js";
import { FakeTerminal, fakeStdin } from "../testing/fake-terminal.js";
import { ownInlineFrames, type FrameOwner } from "./frame-owner.js";
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
/** Each tick finishes an item (written once above, through <Static>) and changes the live rows. */
function View({ ticks, width = 40 }: { ticks: number; width?: number }) {
  const [n, setN] = useState(0);
  beside = useTerminalWrite();
  useEffect(() => {
    if (n >= ticks) return;
    const t = setTimeout(() => setN(n + 1), tickMs);
    return () => clearTimeout(t);
  }, [n, ticks]);
  const finished = Array.from({ length: n }, (_, i) => `item ${i + 1} done`);
  return (
    <>
      <Static items={finished}>{(item) => <Text key={item}>{item}</Text>}</Static>
      <Box flexDirection="column" width={width}>
        <Box borderStyle="round" flexDirection="column">
          <Text>{"x".repeat(Math.max(0, width - 4))}</Text>
          <Text color="green">{n < ticks ? `working ${n}` : "done"}</Text>
        </Box>
      </Box>
    </>
  );
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

let owner: FrameOwner | undefined;
afterEach(() => owner?.stop());

function start(term: FakeTerminal, ticks: number, width?: number) {
  owner = ownInlineFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
  const app = render(
    <TerminalWriteContext.Provider value={owner.write}>
      <View ticks={ticks} width={width} />
      {owner.probe}
    </TerminalWriteContext.Provider>,
    { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
  );
  return app;
}

const frame = (last: string, width = 40) => [`╭${"─".repeat(width - 2)}╮`, `│${"x".repeat(width - 4)}  │`, `│${last.padEnd(width - 2)}│`, `╰${"─".repeat(width - 2)}╯`];

describe("ownInlineFrames: inline frames drawn from Ink's tree by our code, finished items written once above", () => {
  it("each finished item lands once in the scrollback, in order, above the live frame; not a byte of Ink's log-update reaches the terminal", async () => {
    const term = new FakeTerminal();
    const app = start(term, 12);
    for (let i = 0; i < 100 && !term.all().includes("│done                                  │"); i++) await settle(50);
    expect(term.all()).toEqual([...Array.from({ length: 12 }, (_, i) => `item ${i + 1} done`), ...frame("done")]);
    const bytes = term.writes.join("");
    // Ink's log-update erases its last frame line by line (ESC[2K ESC[1A … ESC[G) before each one.
    expect(bytes).not.toContain("\u001b[2K\u001b[1A");
    expect(bytes).not.toContain("\u001b[G");
    // The frame is never erased by going to its top and erasing to the end of the screen: when the
    // frame's top is the screen's, tmux moves the whole screen into the scrollback for that.
    expect(bytes).not.toMatch(/\u001b\[\d+A\u001b\[J/);
    expect(bytes).not.toMatch(/\u001b\[[23]J/); // no clear of the screen or the scrollback
    expect(term.writes.every((w) => w.startsWith("\u001b[?2026h") && w.endsWith("\u001b[?2026l"))).toBe(true);
    app.unmount();
    await settle(50);
    expect(term.writes.join("").slice(bytes.length)).toBe("\u001b[?25h"); // at exit: the cursor shown again, the frame left as it was
    expect(term.all()).toEqual([...Array.from({ length: 12 }, (_, i) => `item ${i + 1} done`), ...frame("done")]);
  });

  it("bytes written beside the frame: a bell leaves the frame be, a line of text goes above it", async () => {
    const term = new FakeTerminal();
    const app = start(term, 0);
    await settle(50);
    const before = term.writes.length;
    // A notification (a bell) leaves the frame be; text written beside goes above it, the frame below.
    beside!("\u0007");
    expect(term.writes.slice(before)).toEqual(["\u0007"]); // a short write: no synchronized-output pair (UNSYNCED_PATCH_BYTES)
    beside!("a line from the side\n");
    await settle(50);
    expect(term.all()).toEqual(["a line from the side", ...frame("done")]);
    app.unmount();
  });

  it("a narrower terminal: the rows the rewrapped frame covers are erased, the frame drawn again at the new width, nothing above it touched", async () => {
    const term = new FakeTerminal();
    const app = start(term, 2);
    for (let i = 0; i < 100 && !term.all().includes("│done                                  │"); i++) await settle(50);
    // What the terminal does on the narrowing (tmux reflows): the 40-wide rows wrap onto two each.
    const reflowed = term.all().flatMap((l) => (l.length > 30 ? [l.slice(0, 30), l.slice(30)] : [l]));
    term.screen = new ScreenEmulator(30, 10);
    term.screen.write(reflowed.join("\n") + "\n");
    term.columns = 30;
    term.emit("resize");
    await settle(80);
    // Each row cut at 30 columns, ending in … where what was cut held something (the box's right border).
    const cut30 = (l: string) => (l.slice(30).trim() !== "" ? `${l.slice(0, 29)}…` : l.slice(0, 30).trimEnd());
    expect(term.all()).toEqual(["item 1 done", "item 2 done", ...frame("done").map(cut30)]);
    app.unmount();
  });
});

describe("ownInlineFrames: the terminal's cursor follows the prompt's caret", () => {
  function Input({ at, done }: { at: number; done: number }) {
    return (
      <>
        <Static items={Array.from({ length: done }, (_, i) => `item ${i + 1} done`)}>{(item) => <Text key={item}>{item}</Text>}</Static>
        <Box borderStyle="round" width={40}>
          <Text>› </Text>
          <LineInput value="hello world" cursor={at} showCursor width={30} placeholder="" />
        </Box>
        <Text>status</Text>
      </>
    );
  }

  it("leaves the (hidden) cursor on the caret after each frame, comes back from it for the next (items written above land in order), and below the frame at exit", async () => {
    const term = new FakeTerminal();
    owner = ownInlineFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
    const tree = (at: number, done: number) => (
      <CaretMarkContext.Provider value={true}>
        <Input at={at} done={done} />
        {owner!.probe}
      </CaretMarkContext.Provider>
    );
    const app = render(tree(2, 0), { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false });
    const box = [`╭${"─".repeat(38)}╮`, `│› hello world${" ".repeat(25)}│`, `╰${"─".repeat(38)}╯`, "status"];
    await settle(50);
    expect(term.all()).toEqual(box);
    expect([term.screen.row, term.screen.col]).toEqual([1, 5]); // border, "› ", "he"
    app.rerender(tree(8, 0));
    await settle(80);
    expect([term.screen.row, term.screen.col]).toEqual([1, 11]);
    app.rerender(tree(8, 2));
    await settle(80);
    expect(term.all()).toEqual(["item 1 done", "item 2 done", ...box]);
    expect([term.screen.row, term.screen.col]).toEqual([3, 11]);
    app.rerender(tree(0, 3));
    await settle(80);
    expect(term.all()).toEqual(["item 1 done", "item 2 done", "item 3 done", ...box]);
    expect([term.screen.row, term.screen.col]).toEqual([4, 3]);
    expect(term.writes.join("")).not.toContain("ink-caret");
    app.unmount();
    await settle(50);
    expect([term.screen.row, term.screen.col]).toEqual([7, 0]); // the row below the frame: what the CLI prints at exit goes there
    expect(term.all()).toEqual(["item 1 done", "item 2 done", "item 3 done", ...box]);
  });

  it("a commit that changes nothing on screen writes nothing: no empty synchronized-output pair, no move away from the caret and back", async () => {
    const term = new FakeTerminal();
    owner = ownInlineFrames(term as unknown as NodeJS.WriteStream, { scroll: true, maxFps: 30 });
    const tree = (at: number) => (
      <CaretMarkContext.Provider value={true}>
        <Input at={at} done={0} />
        {owner!.probe}
      </CaretMarkContext.Provider>
    );
    const app = render(tree(2), { stdout: owner.inkStdout, stdin: fakeStdin() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false });
    await settle(50);
    const before = term.writes.length;
    for (let i = 0; i < 5; i++) {
      app.rerender(tree(2));
      await settle(40);
    }
    expect(term.writes.slice(before)).toEqual([]);
    app.rerender(tree(3));
    await settle(60);
    expect(term.writes.length).toBe(before + 1);
    expect([term.screen.row, term.screen.col]).toEqual([1, 6]);
    app.unmount();
  });
});
