/**
 * End to end, full-screen mode: the real CLI in tmux draws in the alternate screen, with its own
 * scrolling, and puts the terminal back on every way out (Ctrl-C twice, SIGTERM, SIGHUP). Four
 * children streaming at 80×24 (a loopback Messages-API server) stay on screen without a single
 * screen or scrollback clear in the bytes written; `--inline` never enters the alternate screen;
 * a wide terminal stands the child-session sidebar beside the transcript.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { pacedText, sseTurn } from "../helpers/fake-anthropic-server.js";
import { countBytes, hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-fs-${process.pid}`);
const CLEAR_SCROLLBACK = "\u001b[3J";
const CLEAR_SCREEN = "\u001b[2J";

describe.skipIf(!hasTmux)("full-screen TUI in a real terminal (tmux)", () => {
  const fx = cliFixture({ name: "fs", build: true, tmux, bytes: true });

  /** Starts the CLI in session `name`; the shell reports its exit status and stays. */
  const startInk = (name: string, size: [number, number], opts: { args?: string; env?: string } = {}) => {
    const env = opts.env ?? `env -u ANTHROPIC_API_KEY INK_DEMO_DELAY_MS=1`;
    const command = `${env} INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)} ${opts.args ?? ""}; echo INK_EXITED=$?; sleep 60`;
    tmux.start(name, command, size[0], size[1]);
    tmux.pipe(name, join(fx.out, `${name}.bin`));
  };
  const bytes = (name: string, needle: string) => countBytes(join(fx.out, `${name}.bin`), needle);

  it("four children streaming at 80×24: all on screen with the status bar, no clears, PageUp scrolls back, Ctrl-C twice restores the terminal", async () => {
    const name = "four";
    fx.server.reset();
    fx.server.enqueue(sseTurn(["a", "b", "c", "d"].map((x) => ({ toolUse: { id: `t-${x}`, name: "task", input: { prompt: `look at part ${x} of the login code` } } }))));
    const body = Array.from({ length: 30 }, (_, i) => `finding ${i}: the login handler checks the password before it returns the user.`).join(" ");
    for (let i = 0; i < 4; i++) fx.server.enqueue(pacedText(body, 60, 60));
    const report = Array.from({ length: 30 }, (_, i) => `- report line ${i}`).join("\n");
    fx.server.setFallback(sseTurn([{ text: `${report}\n\nFOUR-DONE: all four children reported.` }]));
    startInk(name, [80, 24], { env: `env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=${quote(fx.server.url)}` });
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    expect(tmux.format(name, "#{alternate_on}")).toBe("1");
    tmux.type(name, "check the login code with four children");
    tmux.keys(name, "Enter");
    // Every child is on screen (a compact row each at this size), or counted in a "+N more" row.
    const children = (s: string) => new Set(s.match(/[0-9a-f]{6}/g) ?? []).size + Number(/\+(\d+) more/.exec(s)?.[1] ?? 0);
    // Waited for whole (with the status bar and the prompt box while they stream): a capture can land mid-frame.
    const running = await tmux.waitFor(name, (s) => s.includes("4 agents running") && children(s) >= 4 && /working… \(Esc stops/.test(s), "four children running, all on screen");
    expect(children(running), running).toBeGreaterThanOrEqual(4);
    expect(running).toMatch(/working… \(Esc stops/);
    const shown = tmux.visible(name).split("\n");
    expect(shown.some((l) => l.startsWith("╭─")), shown.join("\n")).toBe(true);
    expect(shown.some((l) => l.includes("4 agents running"))).toBe(true);
    // Only changed rows are rewritten (incremental rendering): every frame still lands where the
    // last one was — one status bar, one prompt box, the header row at the top.
    for (let i = 0; i < 8; i++) {
      const rows = tmux.visible(name).split("\n");
      expect(rows.filter((l) => / · ctx \d+% of /.test(l)), rows.join("\n")).toHaveLength(1);
      expect(rows.filter((l) => /^│ › /.test(l)), rows.join("\n")).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 150));
    }
    await tmux.waitFor(name, (s) => s.includes("FOUR-DONE") && s.includes("Ask Ink"), "the final answer", 600);
    expect(bytes(name, CLEAR_SCROLLBACK)).toBe(0);
    expect(bytes(name, CLEAR_SCREEN)).toBe(0);

    // The answer is taller than the screen: its start and the question above it are off screen.
    expect(tmux.visible(name)).not.toContain("› check the login code with four children");
    tmux.keys(name, "PPage");
    const up = await tmux.waitFor(name, (s) => s.includes("End or PgDn to follow") && s.includes("report line 0"), "the scrolled-up hint and the top");
    expect(up).toContain("report line 0");
    tmux.keys(name, "End");
    await tmux.waitFor(name, (s) => !s.includes("End or PgDn to follow") && s.includes("FOUR-DONE"), "back at the end");
    // The mouse wheel: the terminal was asked for SGR reports; three notches up scroll back.
    expect(tmux.format(name, "#{mouse_sgr_flag}#{mouse_standard_flag}")).toBe("11");
    for (let i = 0; i < 3; i++) tmux.run("send-keys", "-t", name, "-l", "\u001b[<64;10;5M");
    const wheeled = await tmux.waitFor(name, (s) => s.includes("End or PgDn to follow") && !/<64|;10;5M/.test(s), "scrolled up by the wheel, no report echoed");
    expect(wheeled).not.toMatch(/<64|;10;5M/);
    for (let i = 0; i < 30; i++) tmux.run("send-keys", "-t", name, "-l", "\u001b[<65;10;5M");
    await tmux.waitFor(name, (s) => !s.includes("End or PgDn to follow") && s.includes("FOUR-DONE"), "back at the end by the wheel");
    // A resize out and back redraws the same screen (no stale rows from the rows-only updates).
    // (Compared without trailing blanks: a row written as spaces and an erased row look the same.)
    const trimmed = (s: string) => s.split("\n").map((l) => l.trimEnd()).join("\n");
    const settled = trimmed(tmux.visible(name));
    tmux.run("resize-window", "-t", name, "-x", "100", "-y", "30");
    await tmux.waitFor(name, (s) => s.split("\n").some((l) => l.startsWith("╭") && l.length === 100), "the 100-column frame");
    tmux.run("resize-window", "-t", name, "-x", "80", "-y", "24");
    await tmux.waitFor(name, () => trimmed(tmux.visible(name)) === settled, "the same screen back at 80×24");

    tmux.keys(name, "C-c");
    await tmux.waitFor(name, (s) => s.includes("Press Ctrl-C again to exit"), "the exit hint");
    tmux.keys(name, "C-c");
    const ended = await tmux.waitFor(name, (s) => s.includes("INK_EXITED="), "the CLI to exit");
    expect(ended).toContain("INK_EXITED=0");
    expect(tmux.format(name, "#{alternate_on}")).toBe("0");
    expect(tmux.format(name, "#{mouse_sgr_flag}#{mouse_standard_flag}")).toBe("00"); // mouse reports off again
    // On the normal screen: the last answer and how to come back.
    expect(ended).toContain("FOUR-DONE: all four children reported.");
    expect(ended).toMatch(/Resume this session: node \S*dist\/cli\.js --resume \d{8}-\d{6}-[0-9a-f]{6}/);
  }, 90_000);

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    it(`${signal} while children run leaves the alternate screen and no process behind`, async () => {
      const name = signal.toLowerCase();
      startInk(name, [100, 30], { env: "env -u ANTHROPIC_API_KEY INK_DEMO_DELAY_MS=40" });
      await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
      expect(tmux.format(name, "#{alternate_on}")).toBe("1");
      tmux.type(name, "where is the login handled?");
      tmux.keys(name, "Enter");
      await tmux.waitFor(name, (s) => /agents? running/.test(s), "children running");
      const pid = tmux.childPid(name);
      expect(pid).toBeDefined();
      process.kill(pid!, signal);
      const ended = await tmux.waitFor(name, (s) => s.includes("INK_EXITED="), "the CLI to exit");
      expect(ended).toMatch(/INK_EXITED=1(29|43)/);
      expect(tmux.format(name, "#{alternate_on}")).toBe("0");
      expect(tmux.format(name, "#{mouse_sgr_flag}#{mouse_standard_flag}")).toBe("00");
      expect(tmux.childPid(name)).toBeUndefined();
    }, 60_000);
  }

  it("--inline stays in the normal screen", async () => {
    const name = "inline";
    startInk(name, [80, 24], { args: "--inline" });
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    expect(tmux.format(name, "#{alternate_on}")).toBe("0");
    tmux.keys(name, "C-c");
    tmux.keys(name, "C-c");
    await tmux.waitFor(name, (s) => s.includes("INK_EXITED="), "the CLI to exit");
    expect(tmux.format(name, "#{alternate_on}")).toBe("0");
  }, 30_000);

  it("160×45: the child-session sidebar stands beside the transcript", async () => {
    // A child's row right of column 100: its glyph, short id and task (the agent and age columns give way to the task when narrow).
    const sidebarChildRow = (l: string) => /[✓✗⏹] (?:\S+ )?\[[0-9a-f]{6}\] +(?:\S+ +)?\S/.test(l.slice(100));
    const name = "wide";
    startInk(name, [160, 45]);
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    tmux.type(name, "where is the login handled?");
    tmux.keys(name, "Enter");
    // The sidebar box starts right of the transcript column, which keeps its own text (waited for
    // whole: a capture can land mid-frame).
    const besides = (s: string) => {
      const rows = s.split("\n");
      const head = rows.find((l) => l.includes("Child sessions"));
      return head !== undefined && head.indexOf("│") > 100 && rows.filter(sidebarChildRow).length >= 2 && rows.some((l) => l.includes("Conclusion:") && l.indexOf("Conclusion:") < 100);
    };
    const done = await tmux.waitFor(name, (s) => /Conclusion:.*src\/auth\/login\.ts/.test(s) && s.includes("Ask Ink") && besides(s), "the final answer beside the sidebar");
    const lines = done.split("\n");
    const title = lines.find((l) => l.includes("Child sessions"))!;
    expect(title).toBeDefined();
    // The sidebar box starts right of the transcript column, which keeps its own text.
    expect(title.indexOf("│")).toBeGreaterThan(100);
    expect(lines.filter(sidebarChildRow).length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.includes("Conclusion:") && l.indexOf("Conclusion:") < 100)).toBe(true);
    expect(bytes(name, CLEAR_SCROLLBACK)).toBe(0);

    // Narrower and shorter, twice in a row: the frame is drawn afresh, one prompt box at the new width.
    tmux.run("resize-window", "-t", name, "-x", "120", "-y", "40");
    tmux.run("resize-window", "-t", name, "-x", "100", "-y", "30");
    const clean = (s: string) => s.split("\n").filter((l) => l.startsWith("╭─")).length === 1 && s.split("\n").some((l) => l.startsWith("╭─") && l.length === 100) && (s.match(/Ask Ink/g) ?? []).length === 1;
    await tmux.waitFor(name, () => clean(tmux.visible(name)), "one frame at 100 columns");
    // And it stays so: two captures 300 ms apart both clean (a capture taken while a frame is being
    // written may catch it half-drawn under load; a second box or a stale width would persist).
    const settled = async () => {
      for (let i = 0; i < 20; i++) {
        const first = clean(tmux.visible(name));
        await new Promise((r) => setTimeout(r, 300));
        if (first && clean(tmux.visible(name))) return true;
      }
      return false;
    };
    expect(await settled(), tmux.visible(name)).toBe(true);
    expect(tmux.visible(name)).toContain("Conclusion:");
    expect(bytes(name, CLEAR_SCROLLBACK)).toBe(0);
    tmux.keys(name, "C-c");
    tmux.keys(name, "C-c");
    await tmux.waitFor(name, (s) => s.includes("INK_EXITED="), "the CLI to exit");
  }, 60_000);
});
