import { Box, render, Text } from "ink";
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { inlineUpdate } from "./frame-diff.js";
import { frameDiffEnabled, inkStream, reflowedRows, reflowErase, scrollRegionSupport, terminalRows } from "./ink-stream.js";
import { ScreenEmulator } from "./testing/screen-emulator.js";

const inlineUpdateOf = (a: string[], b: string[]) => inlineUpdate(a, b, 100);

describe("inline reflow on a narrower terminal", () => {
  const frame = `${"─".repeat(160)}\n│ › Ask Ink${" ".repeat(148)}│\n${"─".repeat(160)}\nstatus\nkeys\n`;

  it("counts the rows each frame line covers once wrapped at the new width", () => {
    expect(reflowedRows(frame, 160)).toBe(5);
    expect(reflowedRows(frame, 120)).toBe(8); // three 160-column lines take two rows each
    expect(reflowedRows(frame, 50)).toBe(4 * 3 + 2);
    expect(reflowedRows("\u001b[36mcoloured\u001b[39m\n", 4)).toBe(2); // colours take no columns
  });

  it("erases the reflowed rows and leaves the cursor where Ink's own erase reaches the frame's top", () => {
    // Cursor just below the frame: up 8 rows to its top, erase to the end, down 5 (Ink erases 6 rows up).
    expect(reflowErase(frame, 120)).toBe("\u001b[8A\r\u001b[J\u001b[5B");
    expect(reflowErase(frame, 160)).toBe("");
    expect(reflowErase("short\nlines\n", 40)).toBe("");
  });
});

describe("inkStream", () => {
  it("tells Ink the terminal is unboundedly tall (so Ink never clears it) and keeps the real height for the UI", () => {
    const tty = Object.assign(new PassThrough(), { rows: 24, columns: 80, isTTY: true }) as unknown as NodeJS.WriteStream;
    const s = inkStream(tty, { reflow: false });
    expect(s.rows).toBeGreaterThan(10_000);
    expect(terminalRows(s)).toBe(24);
    (tty as { rows: number }).rows = 30;
    expect(terminalRows(s)).toBe(30);
    expect(s.columns).toBe(80);
    expect(terminalRows(tty)).toBe(30);
  });
});

/** A terminal stand-in: a TTY-like stream of `columns`×`rows` whose writes are kept. */
function fakeTty(columns: number, rows: number) {
  const writes: string[] = [];
  const tty = Object.assign(new PassThrough(), { rows, columns, isTTY: true }) as unknown as NodeJS.WriteStream;
  tty.write = ((chunk: string) => {
    writes.push(chunk);
    return true;
  }) as NodeJS.WriteStream["write"];
  return { tty, writes };
}

/** Ink's erase of a frame of `lines` lines (ansi-escapes' eraseLines, as Ink's standard renderer writes it). */
const eraseLines = (lines: number) => `${"\u001b[2K\u001b[1A".repeat(Math.max(0, lines - 1))}${lines > 0 ? "\u001b[2K" : ""}\u001b[G`;
/** Ink's write of `frame` (rows) over the last frame of `previous` rows (0: nothing to erase). */
const inkFrame = (frame: string[], previous: number) => `${previous ? eraseLines(previous + 1) : ""}${frame.join("\n")}\n`;

describe("inkStream rewrites only what changed", () => {
  const live = (glyph: string) => [...Array.from({ length: 38 }, (_, i) => `child ${i}: reading src/auth/login.ts and the tests beside it`), `${glyph} working… (Esc stops)`];

  it("inline: a spinner tick writes a few bytes instead of the 39-row live area, and the screen is the frame", () => {
    const { tty, writes } = fakeTty(100, 45);
    const s = inkStream(tty, { reflow: true, frames: "inline" });
    s.write(inkFrame(live("⠋"), 0));
    const full = writes.join("").length;
    for (const [i, glyph] of ["⠙", "⠹", "⠸"].entries()) {
      writes.length = 0;
      s.write(inkFrame(live(glyph), 39));
      const tick = writes.join("");
      expect(tick.length, `tick ${i}`).toBeLessThan(20);
      expect(tick).toContain(glyph);
    }
    expect(full).toBeGreaterThan(2000);
    const term = new ScreenEmulator(100, 45);
    term.write(inkFrame(live("⠋"), 0));
    term.write(inlineUpdateOf(live("⠋"), live("⠸")));
    expect(term.lines().slice(0, 39)).toEqual(live("⠸"));
  });

  it("full-screen: a one-row scroll of the transcript is the scroll sequence and the new row", () => {
    const rows = (from: number) => [...Array.from({ length: 21 }, (_, i) => `line ${from + i}: the login flow verifies the request`), "─".repeat(80), "│ › Ask Ink"];
    const { tty, writes } = fakeTty(80, 24);
    const s = inkStream(tty, { reflow: false, frames: "fullscreen", scroll: true });
    s.write(inkFrame(rows(0), 0));
    writes.length = 0;
    s.write(inkFrame(rows(1), 23));
    const bytes = writes.join("");
    expect(bytes).toContain("\u001b[1;21r\u001b[1S\u001b[r");
    expect(bytes).toContain("line 21: the login flow");
    expect(bytes).not.toContain("line 5:");
    expect(bytes.length).toBeLessThan(120);
    // Without scroll support, the rows are patched in place (every row changed).
    const plain = fakeTty(80, 24);
    const p = inkStream(plain.tty, { reflow: false, frames: "fullscreen", scroll: false });
    p.write(inkFrame(rows(0), 0));
    plain.writes.length = 0;
    p.write(inkFrame(rows(1), 23));
    expect(plain.writes.join("")).not.toContain("r\u001b[1S");
    const term = new ScreenEmulator(80, 24);
    term.write(inkFrame(rows(0), 0) + bytes);
    expect(term.lines().slice(0, 23)).toEqual(rows(1));
  });

  it("inline: a live area whose rows moved up is moved by deleting and inserting lines — no scroll region, nothing into the scrollback", () => {
    const rows = (from: number) => [...Array.from({ length: 20 }, (_, i) => `line ${from + i}: the answer streams below the last one`), "─".repeat(60), "│ › working…", "status"];
    const { tty, writes } = fakeTty(60, 30);
    const s = inkStream(tty, { reflow: true, frames: "inline", scroll: true });
    const term = new ScreenEmulator(60, 30);
    term.write("$ ink --inline\n");
    const draw = (frame: string[], previous: number) => {
      writes.length = 0;
      s.write(inkFrame(frame, previous));
      term.write(writes.join(""));
      return writes.join("");
    };
    draw(rows(0), 0);
    for (let from = 1; from <= 5; from++) {
      const bytes = draw(rows(from), 23);
      expect(bytes).toContain("\u001b[1M");
      expect(bytes).toContain("\u001b[1L");
      expect(bytes).not.toMatch(/\u001b\[\d+;\d+r|\u001b\[\d+S/);
      expect(bytes.length).toBeLessThan(120);
      expect(term.lines().slice(1, 24)).toEqual(rows(from));
    }
    expect(term.lines()[0]).toBe("$ ink --inline");
    expect(term.scrollback).toEqual([]);
    // Without scroll support: the same screen, written row by row.
    const plain = fakeTty(60, 30);
    const p = inkStream(plain.tty, { reflow: true, frames: "inline" });
    p.write(inkFrame(rows(0), 0));
    plain.writes.length = 0;
    p.write(inkFrame(rows(1), 23));
    expect(plain.writes.join("")).not.toMatch(/\u001b\[\d+[MLS]/);
  });

  it("passes Ink's writes through when it cannot vouch for the screen: after a resize, after an erase, for a frame as tall as the terminal", () => {
    const { tty, writes } = fakeTty(80, 10);
    const s = inkStream(tty, { reflow: true, frames: "inline" });
    const a = ["one", "two", "three"];
    const b = ["one", "two", "four"];
    s.write(inkFrame(a, 0));
    tty.emit("resize");
    writes.length = 0;
    s.write(inkFrame(b, 3));
    expect(writes).toEqual([inkFrame(b, 3)]); // the first frame after a resize: as Ink wrote it
    s.write(eraseLines(4)); // Ink's clear before static output
    s.write("static line\n");
    s.write(inkFrame(a, 0));
    writes.length = 0;
    s.write(inkFrame(b, 3));
    expect(writes.join("")).toBe("\u001b[1A\r\u001b[2Kfour\u001b[1B\r"); // diffed against the frame Ink drew after the static line (a shorter row: erased whole, then written)
    const tall = Array.from({ length: 10 }, (_, i) => `row ${i}`);
    writes.length = 0;
    s.write(inkFrame(tall, 3));
    expect(writes).toEqual([inkFrame(tall, 3)]);
    // Its last line feed scrolled the terminal: the next frame is not diffed against it but goes whole.
    writes.length = 0;
    s.write(inkFrame(b, 10));
    expect(writes).toEqual([inkFrame(b, 10)]);
    writes.length = 0;
    s.write(inkFrame(a, 3));
    expect(writes.join("")).toBe("\u001b[1A\rthree\u001b[1B\r"); // then diffs again
  });

  it("full-screen: after a frame as tall as the terminal (it scrolled the screen), the next frame is drawn whole, so the screen is never garbled", () => {
    const { tty, writes } = fakeTty(40, 6);
    const s = inkStream(tty, { reflow: false, frames: "fullscreen" });
    const short = ["header", "one", "two", "prompt"];
    s.write(inkFrame(short, 0));
    s.write(inkFrame(["header", "one", "two", "three", "four", "prompt"], 4)); // 6 rows on a 6-row terminal
    writes.length = 0;
    s.write(inkFrame(short, 6));
    // Drawn whole from the top-left corner: Ink's erase, up from the cursor, is made a wipe from the top.
    expect(writes).toEqual([`\u001b[H\u001b[J${short.join("\n")}\n`]);
  });

  it("full-screen: a frame with a row wider than the terminal (laid out before a shrink) is drawn whole, and so is the frame after it", () => {
    const { tty, writes } = fakeTty(20, 8);
    const term = new ScreenEmulator(20, 8);
    const s = inkStream(tty, { reflow: false, frames: "fullscreen" });
    const send = (chunk: string) => {
      const from = writes.length;
      s.write(chunk);
      for (const w of writes.slice(from)) term.write(w.replaceAll("\n", "\r\n"));
    };
    const box = (w: number, mid: string) => ["header", "body", `╭${"─".repeat(w - 2)}╮`, `│ ${mid.padEnd(w - 4)} │`, `╰${"─".repeat(w - 2)}╯`];
    send(inkFrame(box(20, "a"), 0));
    send(inkFrame(box(30, "a"), 5)); // Ink's redraw right after the shrink, laid out for the old width: three rows wrap
    writes.length = 0;
    send(inkFrame(box(20, "ab"), 5));
    expect(writes).toEqual([`\u001b[H\u001b[J${box(20, "ab").join("\n")}\n`]); // not diffed against the wrapped frame
    expect(term.lines()).toEqual([...box(20, "ab").map((l) => l.trimEnd()), "", "", ""]);
    writes.length = 0;
    send(inkFrame(box(20, "abc"), 5));
    expect(writes.join("")).toBe("\u001b[4;5Hc\u001b[6;1H"); // then diffed again
  });

  it("full-screen: the frame Ink writes again after its clear for a line of output is drawn from the top (the line is wiped); a frame as tall as the screen does not scroll", () => {
    const { tty, writes } = fakeTty(20, 6);
    const term = new ScreenEmulator(20, 6);
    const s = inkStream(tty, { reflow: false, frames: "fullscreen" });
    const send = (chunk: string, to = s) => {
      const from = writes.length;
      to.write(chunk);
      for (const w of writes.slice(from)) term.write(w);
    };
    const frame = ["header", "one", "prompt"];
    send(inkFrame(frame, 0));
    send(eraseLines(4)); // Ink's clear before a console message (its writeToStderr)
    term.write("warning one\r\nwarning two\r\n"); // the message, on stderr beside the stream
    send(`${frame.join("\n")}\n`); // Ink's frame again, without an erase
    expect(term.lines()).toEqual([...frame, "", "", ""]);
    send(inkFrame(["header", "two", "prompt"], 3));
    expect(term.lines()).toEqual(["header", "two", "prompt", "", "", ""]); // diffed against a frame where the stream drew it
    const tall = ["r0", "r1", "r2", "r3", "r4", "r5"];
    send(inkFrame(tall, 3));
    expect(term.lines()).toEqual(tall); // shown whole, not scrolled up by its last line feed
    send(inkFrame(frame, 6));
    expect(term.lines()).toEqual([...frame, "", "", ""]);
  });

  it("inline: after a frame with a row wider than the terminal, the rows it wrapped onto are erased before the next frame", () => {
    const { tty, writes } = fakeTty(20, 12);
    const term = new ScreenEmulator(20, 12);
    const s = inkStream(tty, { reflow: true, frames: "inline" });
    const send = (chunk: string) => {
      const from = writes.length;
      s.write(chunk);
      for (const w of writes.slice(from)) term.write(w);
    };
    const box = (w: number, mid: string) => [`╭${"─".repeat(w - 2)}╮`, `│ ${mid.padEnd(w - 4)} │`, `╰${"─".repeat(w - 2)}╯`];
    send("scrollback line\n");
    send(inkFrame(box(20, "a"), 0));
    send(inkFrame(box(30, "a"), 3)); // laid out for a wider terminal: each row wraps onto two
    send(inkFrame(box(20, "ab"), 3));
    expect(term.lines()).toEqual(["scrollback line", ...box(20, "ab"), ...Array(8).fill("")]);
    send(inkFrame(box(20, "abc"), 3));
    expect(term.lines()).toEqual(["scrollback line", ...box(20, "abc"), ...Array(8).fill("")]);
  });
});

/** Ink writes no frames when it thinks it runs in CI (its is-in-ci check). */
const isInCi = ["CI", "CONTINUOUS_INTEGRATION"].some((k) => k in process.env && process.env[k] !== "0" && process.env[k] !== "false");

describe.skipIf(isInCi)("inkStream under Ink itself (inline)", () => {
  it("a spinner tick rewrites the glyph, not the live area: bytes per tick", async () => {
    const { tty, writes } = fakeTty(100, 45);
    const rows = Array.from({ length: 38 }, (_, i) => `child ${i}: reading src/auth/login.ts and the tests beside it`);
    const view = (glyph: string) => h(Box, { flexDirection: "column" }, ...rows.map((r, i) => h(Text, { key: i }, r)), h(Text, { color: "cyan" }, `${glyph} working… (Esc stops)`));
    const app = render(view("⠋"), { stdout: inkStream(tty, { reflow: true, frames: "inline" }), patchConsole: false, exitOnCtrlC: false });
    const settle = () => new Promise((r) => setTimeout(r, 80));
    await settle();
    const first = writes.join("").length;
    const perTick: number[] = [];
    for (const glyph of ["⠙", "⠹", "⠸", "⠼"]) {
      writes.length = 0;
      app.rerender(view(glyph));
      await settle();
      const bytes = writes.join("");
      expect(bytes).toContain(glyph);
      expect(bytes).not.toContain("child 3:");
      perTick.push(bytes.replaceAll("\u001b[?2026h", "").replaceAll("\u001b[?2026l", "").length);
    }
    app.unmount();
    expect(first).toBeGreaterThan(38 * 50);
    for (const n of perTick) expect(n).toBeLessThan(40);
  });
});

describe("scroll region support", () => {
  it("the cell diff is on unless INK_FRAME_DIFF=off", () => {
    expect(frameDiffEnabled({})).toBe(true);
    expect(frameDiffEnabled({ INK_FRAME_DIFF: "on" })).toBe(true);
    expect(frameDiffEnabled({ INK_FRAME_DIFF: " OFF " })).toBe(false);
  });

  it("is decided from INK_SCROLL_REGION, else from TERM, and names a bad setting", () => {
    expect(scrollRegionSupport({ TERM: "tmux-256color" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "xterm-256color" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "linux" })).toBe(false);
    expect(scrollRegionSupport({ TERM: "dumb" })).toBe(false);
    expect(scrollRegionSupport({ TERM: "linux", WT_SESSION: "x" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "linux", INK_SCROLL_REGION: "on" })).toBe(true);
    expect(scrollRegionSupport({ TERM: "xterm", INK_SCROLL_REGION: "off" })).toBe(false);
    const warnings: string[] = [];
    expect(scrollRegionSupport({ TERM: "xterm", INK_SCROLL_REGION: "yes" }, (m) => warnings.push(m))).toBe(true);
    expect(warnings[0]).toContain("INK_SCROLL_REGION=yes");
  });
});
