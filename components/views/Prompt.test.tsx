import { cleanup, render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { draftRows } from "./LineInput.js";
import { Prompt } from "./Prompt.js";
import { SLASH_COMMANDS } from "../state/slash-commands.js";
import { waitForFrame } from "../testing/wait-for-frame.js";

afterEach(() => cleanup());

describe("Prompt", () => {
  it("while a run works, names Esc and Enter only when it has the keyboard (a focused pane or an open question takes them)", () => {
    const focused = render(<Prompt onSubmit={() => true} history={[]} focus busy />);
    expect(focused.lastFrame()).toContain("working… (Esc stops the turn · Enter queues a prompt)");
    const away = render(<Prompt onSubmit={() => true} history={[]} focus={false} busy />);
    expect(away.lastFrame()).toContain("working…");
    expect(away.lastFrame()).not.toContain("Esc stops the turn");
  });

  it("submits on Enter, clears, and recalls earlier inputs with ↑/↓", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={["older", "newer"]} focus busy={false} />);
    app.stdin.write("draft");
    await waitForFrame(app.lastFrame, (f) => f.includes("draft"));
    app.stdin.write("\u001b[A");
    await waitForFrame(app.lastFrame, (f) => f.includes("newer"), { what: "↑ to recall the newest entry" });
    app.stdin.write("\u001b[A");
    await waitForFrame(app.lastFrame, (f) => f.includes("older"));
    app.stdin.write("\u001b[B");
    await waitForFrame(app.lastFrame, (f) => f.includes("newer"));
    app.stdin.write("\u001b[B");
    await waitForFrame(app.lastFrame, (f) => f.includes("draft"), { what: "↓ past the newest to restore the draft" });
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, (f) => !f.includes("draft"), { what: "the box to clear" });
    expect(sent).toEqual(["draft"]);
  });

  it("treats text arriving together with Enter as typed-then-submitted", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={[]} focus busy={false} />);
    app.stdin.write("where is login?\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["where is login?"]);
  });

  it("keeps the text when the input is refused, and ignores keys when unfocused", async () => {
    const app = render(<Prompt onSubmit={() => false} history={[]} focus busy />);
    await waitForFrame(app.lastFrame, (f) => f.includes("working…"));
    app.stdin.write("next question");
    await waitForFrame(app.lastFrame, (f) => f.includes("next question"));
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, (f) => f.includes("next question"));
    const off = render(<Prompt onSubmit={() => true} history={[]} focus={false} busy={false} />);
    off.stdin.write("typed");
    await new Promise((r) => setTimeout(r, 30));
    expect(off.lastFrame()).not.toContain("typed");
  });

  it("ignores keys (text, recall, Enter) while unfocused, takes them once focused, and clearOnBlur forgets the text", async () => {
    const sent: string[] = [];
    const view = (focus: boolean) => <Prompt onSubmit={(t) => (sent.push(t), true)} history={["old"]} focus={focus} busy={false} clearOnBlur label="↻ resume x" />;
    const app = render(view(false));
    app.stdin.write("lost\u001b[A\r");
    app.rerender(view(true));
    app.stdin.write("kept");
    await waitForFrame(app.lastFrame, (f) => f.includes("↻ resume x › kept"), { what: "the text typed right after focus" });
    app.rerender(view(false));
    await waitForFrame(app.lastFrame, (f) => !f.includes("kept"), { what: "the text to be forgotten on blur" });
    app.rerender(view(true));
    app.stdin.write("go\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["go"]);
    expect(app.frames.some((f) => f.includes("lost") || f.includes("old"))).toBe(false);
  });

  it("applies every key of a chunk: a chunk of three DELs deletes three characters, three ← move three places", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={[]} focus busy={false} />);
    app.stdin.write("hello");
    await waitForFrame(app.lastFrame, (f) => f.includes("› hello"));
    app.stdin.write("\u007f\u007f\u007f");
    await waitForFrame(app.lastFrame, (f) => f.includes("› he ") && !f.includes("hel"), { what: "three characters deleted" });
    app.stdin.write("llo");
    app.stdin.write("\u001b[D\u001b[D\u001b[D");
    app.stdin.write("X");
    await waitForFrame(app.lastFrame, (f) => f.includes("heXllo"), { what: "the cursor three places left" });
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["heXllo"]);
  });

  it("editing keys (Ctrl-W/A/E/U/K, Home/End, word moves) edit and never insert a letter", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={[]} focus busy={false} />);
    const send = async (chunk: string, shows: string) => {
      app.stdin.write(chunk);
      await waitForFrame(app.lastFrame, (f) => f.includes(shows), { what: `"${shows}" after ${JSON.stringify(chunk)}` });
    };
    await send("git commit -m", "git commit -m");
    await send("\u0017", "› git commit  "); // Ctrl-W: the previous word
    await send("\u0001X", "Xgit commit"); // Ctrl-A: start
    await send("\u0005Y", "Xgit commit Y"); // Ctrl-E: end
    await send("\u001b[1;5D\u001b[1;5DZ", "Xgit Zcommit Y"); // Ctrl-← twice
    await send("\u000b", "› Xgit Z "); // Ctrl-K: to the end
    await send("\u001b[H\u001b[3~", "› git Z "); // Home, Delete
    await send("\u001b[F\u0015new", "› new "); // End, Ctrl-U
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["new"]);
  });

  it("Ctrl-C clears a non-empty draft; on an empty box it is the owner's", async () => {
    let interrupts = 0;
    const app = render(<Prompt onSubmit={() => true} history={[]} focus busy={false} onInterrupt={() => interrupts++} />);
    app.stdin.write("half a thought");
    await waitForFrame(app.lastFrame, (f) => f.includes("half a thought"));
    app.stdin.write("\u0003");
    await waitForFrame(app.lastFrame, (f) => f.includes("Ask Ink"), { what: "the draft to clear" });
    expect(interrupts).toBe(0);
    app.stdin.write("\u0003");
    await waitForFrame(app.lastFrame, () => interrupts === 1, { what: "the interrupt" });
  });

  it("takes plain typing while unfocused when the owner says so (onTypeWhileAway), not commands", async () => {
    const offered: string[] = [];
    const app = render(<Prompt onSubmit={() => true} history={[]} focus={false} busy={false} onTypeWhileAway={(raw) => (offered.push(raw), raw !== "x")} />);
    app.stdin.write("x");
    app.stdin.write("\u001b[A");
    app.stdin.write("hi there");
    await waitForFrame(app.lastFrame, (f) => f.includes("hi there"), { what: "the stray typing in the box" });
    expect(offered).toEqual(["x", "hi there"]);
    expect(app.lastFrame()).not.toContain("xhi");
  });

  it("keys arriving in one chunk (tmux, a paste without brackets, a loaded machine) act as when typed one at a time", async () => {
    const sources = { commands: SLASH_COMMANDS, files: [] };
    /** What was submitted once the box shows `box` after `keys`, written one per chunk or all in one. */
    const run = async (keys: string[], together: boolean, box: string) => {
      const sent: string[] = [];
      const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={[]} focus busy={false} completion={sources} />);
      if (together) app.stdin.write(keys.join(""));
      else for (const key of keys) app.stdin.write(key);
      await waitForFrame(app.lastFrame, (f) => /› (.*?)\s*│/.exec(f)?.[1] === box, { what: `"${box}" in the box after ${JSON.stringify(keys.join(""))} (${together ? "one chunk" : "key by key"})` });
      app.unmount();
      return sent;
    };
    const cases: Array<{ keys: string[]; sent: string[]; box: string }> = [
      { keys: [..."hello", "\r", "x"], sent: ["hello"], box: "x" },
      { keys: [..."one", "\r", ..."two", "\r"], sent: ["one", "two"], box: "Ask Ink · / commands · @ files · ! shell" },
      { keys: [..."/mo", "\t"], sent: [], box: "/model" },
      { keys: [..."/mode", "\r"], sent: ["/mode "], box: "Ask Ink · / commands · @ files · ! shell" },
    ];
    for (const c of cases) {
      expect(await run(c.keys, false, c.box), JSON.stringify(c.keys)).toEqual(c.sent);
      expect(await run(c.keys, true, c.box), JSON.stringify(c.keys.join(""))).toEqual(c.sent);
    }
  });

  it("a bracketed paste of several lines (Tabs, a last line break) stays a multi-line draft until Enter", async () => {
    const sent: string[] = [];
    const app = render(<Prompt onSubmit={(t) => (sent.push(t), true)} history={[]} focus busy={false} completion={{ commands: SLASH_COMMANDS, files: [] }} />);
    app.stdin.write("\u001b[200~");
    app.stdin.write("/mo first\r\tsecond\r");
    app.stdin.write("\u001b[201~");
    await waitForFrame(app.lastFrame, (f) => f.includes("   second"), { what: "the pasted lines" });
    expect(sent).toEqual([]);
    app.stdin.write("\r");
    await waitForFrame(app.lastFrame, () => sent.length === 1);
    expect(sent).toEqual(["/mo first\n  second\n"]);
  });

  it("a tall draft (a pasted log) shows only the rows around the cursor and reports the rows it takes", async () => {
    const reported: number[] = [];
    const app = render(<Prompt onSubmit={() => true} history={[]} focus busy={false} width={40} maxRows={4} onRowsChange={(n) => reported.push(n)} />);
    app.stdin.write("\u001b[200~");
    app.stdin.write(Array.from({ length: 12 }, (_, i) => `log line ${i}`).join("\n"));
    app.stdin.write("\u001b[201~");
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes("log line 11"), { what: "the end of the paste" });
    expect(frame).toContain("↑ 10 more rows");
    expect(frame).not.toContain("log line 9");
    expect(frame.split("\n")).toHaveLength(6); // 4 rows in the border
    expect(reported.at(-1)).toBe(4);
    app.stdin.write("\u0001"); // Ctrl-A: the start of the cursor's line
    app.stdin.write("\u001b[A"); // ↑ is history recall: the window stays on the cursor
    app.stdin.write("\u0003"); // Ctrl-C clears it
    await waitForFrame(app.lastFrame, (f) => f.includes("Ask Ink"));
    expect(reported.at(-1)).toBe(1);
  });

  it("draftRows: hard-wraps each line at the width", () => {
    expect(draftRows("abcdefgh\nij", 3)).toEqual([
      { start: 0, end: 3 },
      { start: 3, end: 6 },
      { start: 6, end: 8 },
      { start: 9, end: 11 },
    ]);
    expect(draftRows("", 5)).toEqual([{ start: 0, end: 0 }]);
  });
});
