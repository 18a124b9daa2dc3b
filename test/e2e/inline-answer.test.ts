/**
 * End to end, `--inline` at 80×24: an answer several screens long streams from a loopback
 * Messages-API server, and its settled rows go into the terminal's scrollback as it streams
 * (components/layout/scrollback-log.ts). When it ends — or is stopped, or the terminal is resized
 * while it streams — the scrollback (capture-pane -S -) holds each line of the answer exactly
 * once, in order; nothing clears the screen or the scrollback; the prompt box is at the bottom.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { pacedText } from "../helpers/fake-anthropic-server.js";
import { countBytes, hasTmux, quote, Tmux } from "./tmux.js";

const CLEAR_SCROLLBACK = "\u001b[3J";
const CLEAR_SCREEN = "\u001b[2J";
const BLOCKS = 90;

/** A Markdown answer of paragraphs, bullets, code blocks and tables; every source line holds a marker `m<n>`, numbered in order. */
function answer(): string {
  const out: string[] = [];
  let m = 0;
  for (let i = 0; i < BLOCKS; i++) {
    if (i % 10 === 3) out.push(`- item m${m++}: the session store keeps one file`, `- item m${m++}: the index keeps listing flat`);
    else if (i % 10 === 6) out.push("```ts", `const m${m++} = verify(req);`, `return redirect(m${m++});`, "```");
    else if (i % 10 === 8) out.push(`| name m${m++} | value |`, "|---|---|", `| row m${m++} | ${i} |`);
    else out.push(`Paragraph m${m++}: the login handler checks the password first.`);
    out.push("");
  }
  return out.join("\n");
}
const MARKERS = (answer().match(/\bm\d+\b/g) ?? []).length;

/** The markers in `screen`, in the order they appear. */
const markers = (screen: string) => (screen.match(/\bm\d+\b/g) ?? []).map((x) => Number(x.slice(1)));

describe.skipIf(!hasTmux)("an answer streamed --inline is written into the scrollback once (tmux)", () => {
  const tmux = new Tmux(`ink-ia-${process.pid}`);
  const fx = cliFixture({ name: "ia", build: true, tmux, bytes: true });

  const start = (name: string, columns: number, rows: number) => {
    const command = `env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=${quote(fx.server.url)} INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)} --inline; echo INK_EXITED=$?; sleep 60`;
    tmux.start(name, command, columns, rows);
    const file = join(fx.out, `${name}.bin`);
    tmux.pipe(name, file);
    return file;
  };
  const all = (name: string) => tmux.run("capture-pane", "-p", "-J", "-S", "-", "-t", name);
  const ask = async (name: string) => {
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    tmux.type(name, "explain the login code at length");
    tmux.keys(name, "Enter");
  };
  const exit = async (name: string) => {
    tmux.keys(name, "C-c");
    tmux.keys(name, "C-c");
    await tmux.waitFor(name, (s) => s.includes("INK_EXITED="), "the CLI to exit");
  };
  /** The bytes written cleared nothing, and the prompt box is at the bottom of the screen, once. */
  const clean = (name: string, file: string) => {
    expect(countBytes(file, CLEAR_SCROLLBACK)).toBe(0);
    expect(countBytes(file, CLEAR_SCREEN)).toBe(0);
    const visible = tmux.visible(name).trimEnd().split("\n");
    expect(visible.filter((l) => l.includes("Ask Ink")).length, visible.join("\n")).toBe(1);
    expect(visible.slice(-5).some((l) => l.includes("Ask Ink")), visible.join("\n")).toBe(true);
  };

  it("80×24: each line of an answer several screens long is in the scrollback exactly once, in order", async () => {
    fx.server.reset();
    fx.server.enqueue(pacedText(answer(), 150, 30));
    const file = start("whole", 80, 24);
    await ask("whole");
    // Mid-stream, the rows that left the live area are in the scrollback already, once and in order.
    await tmux.waitFor("whole", (s) => markers(s).some((m) => m >= 50), "fifty lines of the answer", 600, 100);
    const streaming = all("whole");
    expect(streaming).not.toContain("Ask Ink");
    const early = markers(streaming).slice(0, -1); // the last may be cut mid-word (m5 of m53)
    expect(early.join(" "), streaming).toBe(Array.from({ length: early.length }, (_, i) => i).join(" "));
    await tmux.waitFor("whole", (s) => markers(s).includes(MARKERS - 1) && s.includes("Ask Ink"), "the whole answer", 600, 100);
    expect(markers(all("whole"))).toEqual(Array.from({ length: MARKERS }, (_, i) => i));
    clean("whole", file);
    await exit("whole");
  }, 120_000);

  it("stopped mid-answer (Esc): what streamed is in the scrollback once, in order", async () => {
    fx.server.reset();
    fx.server.enqueue(pacedText(answer(), 300, 60));
    const file = start("stop", 80, 24);
    await ask("stop");
    await tmux.waitFor("stop", (s) => markers(s).some((m) => m >= 60), "sixty lines of the answer", 600, 100);
    tmux.keys("stop", "Escape");
    await tmux.waitFor("stop", (s) => s.includes("Ask Ink") && !s.includes("working…"), "the run to stop", 600, 100);
    await new Promise((r) => setTimeout(r, 500));
    const seen = markers(all("stop")).slice(0, -1); // the last may have been cut mid-word by the stop
    expect(seen.length).toBeGreaterThanOrEqual(60); // m60 was on screen before Esc (the last marker seen is left out); the stop may land right after it
    expect(seen.length).toBeLessThan(MARKERS);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i));
    clean("stop", file);
    await exit("stop");
  }, 120_000);

  it("resized 80 → 60 columns mid-stream: every line still once, in order", async () => {
    fx.server.reset();
    fx.server.enqueue(pacedText(answer(), 200, 40));
    const file = start("resize", 80, 24);
    await ask("resize");
    await tmux.waitFor("resize", (s) => markers(s).some((m) => m >= 40), "forty lines of the answer", 600, 100);
    tmux.run("resize-window", "-t", "resize", "-x", "60", "-y", "24");
    await tmux.waitFor("resize", (s) => markers(s).includes(MARKERS - 1) && s.includes("Ask Ink"), "the whole answer", 900, 100);
    await new Promise((r) => setTimeout(r, 500));
    expect(markers(all("resize"))).toEqual(Array.from({ length: MARKERS }, (_, i) => i));
    clean("resize", file);
    await exit("resize");
  }, 120_000);
});
