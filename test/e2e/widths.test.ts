/**
 * End to end, widths: the real CLI `--inline` at 80×24 in tmux with the offline demo model. A
 * question long enough to wrap is asked; once the answer is in, every line written — read from the
 * bytes the pane received (pipe-pane) and from tmux's own rows (capture-pane -J joins a row the
 * terminal had to wrap) — fits 80 cells, and the screen ends with the prompt and status bar at the
 * bottom under the answer's end (a line too wide made the terminal wrap it, Ink's count of its rows
 * went wrong and the frame ended high above blank rows). Skipped when tmux is not installed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-widths-${process.pid}`);
/** Escape sequences (CSI, OSC, and two-byte ones) and carriage returns: what is not drawn text. */
/** A line feed, a carriage return or a cursor move (CUU, CUD, CUF, CUB, CNL, CPL, CHA, CUP, VPA). */
const CURSOR_MOVE = /\n|\r|\u001b\[[0-9;]*[A-Hd]/;
const CONTROL = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\r/g;

const QUESTION =
  "where is the login handled and the password checked while a request goes on, and how is the user sent back to the page they asked for after the login form is submitted with its fields?";

describe.skipIf(!hasTmux)("widths in a real terminal (tmux), --inline at 80×24", () => {
  const fx = cliFixture({ name: "widths", build: true, tmux, server: false, bytes: true });

  it("no line written is wider than 80 cells, and the answer's end stays above the prompt at the bottom", async () => {
    const name = "inline80";
    const bin = join(fx.out, `${name}.bin`);
    const command = `env -u ANTHROPIC_API_KEY INK_DEMO_DELAY_MS=1 INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)} --inline; echo INK_EXITED=$?; sleep 60`;
    tmux.start(name, command, 80, 24);
    tmux.pipe(name, bin);
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    tmux.type(name, QUESTION);
    await tmux.waitFor(name, (s) => s.includes("sent back to the page"), "the typed question");
    tmux.keys(name, "Enter");
    // The run is over when the conclusion is in and the idle hint is back under the prompt.
    await tmux.waitFor(name, (s) => s.includes("Conclusion:") && s.includes("Enter send"), "the answer", 600);
    // Settled: the same screen twice in a row, 300 ms apart (nothing moves once a run is over).
    let last = "";
    await tmux.waitFor(name, (s) => (s === last ? true : ((last = s), false)), "a settled screen", 100, 300);

    // The bytes: every run of text written between line feeds and cursor moves (only changed cells
    // are rewritten, at their columns), without its escape sequences, fits 80 cells.
    const lines = readFileSync(bin, "utf8").split(CURSOR_MOVE).map((l) => l.replace(CONTROL, ""));
    expect(lines.some((l) => l.includes("sent back to the page"))).toBe(true);
    expect(lines.some((l) => l.startsWith("Conclusion:"))).toBe(true);
    const wide = lines.filter((l) => stringWidth(l) > 80);
    expect(wide, wide.join("\n")).toEqual([]);

    // tmux's rows: no row was wrapped by the terminal (capture-pane -J would join it with the next).
    const rows = tmux.screen(name).split("\n");
    const joined = rows.filter((r) => stringWidth(r.trimEnd()) > 80);
    expect(joined, joined.join("\n")).toEqual([]);

    // The transcript is taller than the screen (part of it is in the scrollback), so the screen
    // ends at the bottom: the answer's end, then the prompt box and the status bar.
    expect(Number(tmux.format(name, "#{history_size}"))).toBeGreaterThan(0);
    const visible = tmux.visible(name).split("\n");
    while (visible.length > 0 && visible.at(-1)!.trim() === "") visible.pop();
    expect(visible.length, visible.join("\n")).toBeGreaterThanOrEqual(23);
    expect(visible.at(-1)).toContain("Enter send");
    expect(visible.some((r) => r.startsWith("Conclusion:"))).toBe(true);
  });
});
