/**
 * End to end, full-screen scroll range (issue #23, item 3): the real CLI with the offline demo
 * model in tmux. After one question, with details open (Ctrl-O: both children's reports in place),
 * Home shows row 0 — the header, then the question — at 80×24, after a resize 80→200→80, and at
 * 120×40 beside the child-session sidebar; a Ctrl-F hit in the first report lands on screen.
 * Skipped when tmux is not installed; every tmux command runs on this file's own socket (-L).
 */
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-scroll-${process.pid}`);
const QUESTION = "where is the login handled?";

describe.skipIf(!hasTmux)("full-screen scroll range in a real terminal (tmux)", () => {
  const fx = cliFixture({ name: "scroll", build: true, tmux, server: false });

  /**
   * Waits until the screen's first row is the header (row 0 of the transcript) and the question is on
   * screen, and gives that same capture: under load a frame can land between two captures (a resize's
   * redraw still coming), so the state is read from the capture that showed it.
   */
  const waitForTop = async (name: string, what: string) => {
    let seen = "";
    await tmux.waitFor(
      name,
      () => {
        seen = tmux.visible(name);
        return (seen.split("\n")[0] ?? "").includes("✦ Ink") && seen.includes(`› ${QUESTION}`);
      },
      `row 0 and the question at the top ${what}`,
    );
    return seen;
  };

  /** Starts the CLI at `columns`×`rows`, asks the question, waits for the answer and opens details (Ctrl-O). */
  async function askAndOpen(name: string, columns: number, rows: number) {
    tmux.start(name, `env -u ANTHROPIC_API_KEY INK_DEMO_DELAY_MS=1 INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)}; sleep 60`, columns, rows);
    await tmux.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt");
    tmux.type(name, QUESTION);
    await tmux.waitFor(name, (s) => s.includes(QUESTION), "the typed question");
    tmux.keys(name, "Enter");
    await tmux.waitFor(name, (s) => s.includes("Conclusion: login lives mainly") && s.includes("Enter send"), "the finished answer");
    tmux.keys(name, "C-o");
    // Open: the second child's report ends under its summary row (closed, only its first line shows there).
    await tmux.waitFor(name, (s) => s.includes("Conclusion: the tests for login are in"), "the reports opened in place");
  }

  it("80×24: with details open Home shows the header and the question; again after a resize to 200 columns and back", async () => {
    const name = "narrow";
    await askAndOpen(name, 80, 24);
    tmux.keys(name, "Home");
    const top = await waitForTop(name, "with details open");
    expect(top).toContain(`› ${QUESTION}`);
    tmux.keys(name, "End");
    await tmux.waitFor(name, (s) => !s.includes("End or PgDn to follow"), "following the end");
    tmux.run("resize-window", "-t", name, "-x", "200", "-y", "24");
    await tmux.waitFor(name, (s) => s.split("\n").some((l) => l.startsWith("╰") && l.trimEnd().length === 200), "the frame at 200 columns");
    tmux.run("resize-window", "-t", name, "-x", "80", "-y", "24");
    // The frame at 80 columns, and nothing of the 200-column one left (the redraw after the resize has landed).
    await tmux.waitFor(name, () => {
      const lines = tmux.visible(name).split("\n");
      return lines.some((l) => l.startsWith("╰") && l.trimEnd().length === 80) && lines.every((l) => l.trimEnd().length <= 80);
    }, "the frame at 80 columns");
    tmux.keys(name, "Home");
    const again = await waitForTop(name, "after 80→200→80");
    expect(again).toContain(`› ${QUESTION}`);
  });

  it("120×40 beside the sidebar: Home shows the header; a search hit in the first report is on screen", async () => {
    const name = "wide";
    await askAndOpen(name, 120, 40);
    await tmux.waitFor(name, (s) => s.includes("Child sessions"), "the standing sidebar");
    tmux.keys(name, "Home");
    const top = await waitForTop(name, "beside the sidebar");
    expect(top).toContain(`› ${QUESTION}`);
    tmux.keys(name, "End");
    await tmux.waitFor(name, (s) => !s.includes("End or PgDn to follow"), "following the end");
    tmux.keys(name, "C-f");
    await tmux.waitFor(name, (s) => s.includes("type to search"), "the search line");
    tmux.type(name, "match on line 3");
    await tmux.waitFor(name, (s) => s.includes("matches · Enter jumps"), "the hits");
    tmux.keys(name, "Enter");
    // The hit — the first child's summary row, its report under it — is the screen's top row.
    const hitOnTop = () => {
      const rows = tmux.visible(name).split("\n");
      return rows.some((r) => r.includes("match 1 of")) && rows[0]!.startsWith("✓ general") && rows.slice(1, 8).some((r) => r.includes("name matches login; match on line 3"));
    };
    await tmux.waitFor(name, hitOnTop, "the hit at the top of the screen");
  });
});
