/**
 * End to end, resizes while children stream (issue #41 "done when": 80×24, 120×40 and 200×60 with
 * resizes mid-stream), full-screen and `--inline`: four children stream from a loopback
 * Messages-API server while the terminal goes 80×24 → 200×60 → 120×40 → 80×24. At every size the
 * screen settles into one frame at that size — one prompt box, one status bar, no row wider than
 * the terminal (a row drawn for an older, wider size wraps, and capture-pane -J joins it back),
 * every running child on screen or counted — and the scrollback is never cleared (full-screen's
 * alternate screen is wiped once a resize settles, never otherwise; inline never).
 */
import { join } from "node:path";
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { pacedText, sseTurn } from "../helpers/fake-anthropic-server.js";
import { countBytes, hasTmux, quote, Tmux } from "./tmux.js";

const CLEAR_SCROLLBACK = "\u001b[3J";
const CLEAR_SCREEN = "\u001b[2J";
const SIZES: [number, number][] = [
  [200, 60],
  [120, 40],
  [80, 24],
];

describe.skipIf(!hasTmux)("resizes while children stream (tmux)", () => {
  // A fixture (loopback server, repo, home) and a tmux server per mode: the two modes run at the same time.
  const tmuxes = { fullscreen: new Tmux(`ink-rs-fs-${process.pid}`), inline: new Tmux(`ink-rs-in-${process.pid}`) };
  const fixtures = { fullscreen: cliFixture({ name: "rs-fs", build: true, tmux: tmuxes.fullscreen, bytes: true }), inline: cliFixture({ name: "rs-in", build: true, tmux: tmuxes.inline, bytes: true }) };

  /** Distinct short ids on screen plus any "+N more" count. */
  const children = (s: string) => new Set(s.match(/\[[0-9a-f]{6}\]|[0-9a-f]{6}/g)?.map((m) => m.replace(/[[\]]/g, "")) ?? []).size + Number(/\+(\d+) more/.exec(s)?.[1] ?? 0);

  /** The visible screen is one settled frame at `columns`: why not, or undefined. */
  const problem = (s: string, columns: number): string | undefined => {
    const rows = s.split("\n");
    const wide = rows.find((l) => stringWidth(l) > columns);
    if (wide !== undefined) return `a row wider than ${columns}: ${wide}`;
    if ((s.match(/Ask Ink/g) ?? []).length !== 1 && !rows.some((l) => /^│ › /.test(l))) return "not one prompt box";
    if (rows.filter((l) => / · ctx \d+% of /.test(l)).length !== 1) return "not one status bar";
    if (!s.includes("agents running")) return "the children are not running any more";
    if (children(s) < 4) return `only ${children(s)} children on screen`;
    return undefined;
  };

  for (const mode of ["fullscreen", "inline"] as const) {
    it.concurrent(`${mode}: 80×24 → 200×60 → 120×40 → 80×24 while four children stream — one clean frame at each size, no scrollback clear`, async () => {
      const name = mode;
      const fx = fixtures[mode];
      const tmux = tmuxes[mode];
      fx.server.reset();
      fx.server.enqueue(sseTurn(["a", "b", "c", "d"].map((x) => ({ toolUse: { id: `t-${x}`, name: "task", input: { prompt: `look at part ${x} of the login code` } } }))));
      const body = Array.from({ length: 60 }, (_, i) => `finding ${i}: the login handler checks the password before it returns the user.`).join(" ");
      // ~24 s of streaming each: long enough for three resizes to settle on a loaded machine.
      for (let i = 0; i < 4; i++) fx.server.enqueue(pacedText(body, 240, 100));
      fx.server.setFallback(sseTurn([{ text: "RESIZE-DONE: all four children reported." }]));
      const args = mode === "inline" ? "--inline" : "";
      const command = `env ANTHROPIC_API_KEY=k ANTHROPIC_BASE_URL=${quote(fx.server.url)} INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)} ${args}; echo INK_EXITED=$?; sleep 60`;
      tmux.start(name, command, 80, 24);
      const file = join(fx.out, `${name}.bin`);
      tmux.pipe(name, file);
      await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
      tmux.type(name, "check the login code with four children");
      tmux.keys(name, "Enter");
      await tmux.waitFor(name, (s) => s.includes("4 agents running") && children(s) >= 4, "four children running at 80×24");

      for (const [columns, rows] of SIZES) {
        tmux.run("resize-window", "-t", name, "-x", String(columns), "-y", String(rows));
        // Settled: two captures 300 ms apart both clean (a capture can land mid-frame under load).
        let last = "";
        let settled = false;
        for (let i = 0; i < 60 && !settled; i++) {
          const first = tmux.visible(name);
          await new Promise((r) => setTimeout(r, 300));
          last = tmux.visible(name);
          settled = problem(first, columns) === undefined && problem(last, columns) === undefined;
        }
        expect(settled, `${columns}×${rows}: ${problem(last, columns)}\n${last}`).toBe(true);
        expect(Number(tmux.format(name, "#{window_width}"))).toBe(columns);
      }

      await tmux.waitFor(name, (s) => s.includes("RESIZE-DONE") && s.includes("Ask Ink"), "the final answer", 900, 100);
      expect(countBytes(file, CLEAR_SCROLLBACK)).toBe(0);
      // Full-screen wipes its alternate screen once after each settled resize, and only then; inline never clears.
      if (mode === "inline") expect(countBytes(file, CLEAR_SCREEN)).toBe(0);
      else expect(countBytes(file, CLEAR_SCREEN)).toBeLessThanOrEqual(SIZES.length);
      tmux.keys(name, "C-c");
      tmux.keys(name, "C-c");
      await tmux.waitFor(name, (s) => s.includes("INK_EXITED="), "the CLI to exit");
    }, 150_000);
  }
});
