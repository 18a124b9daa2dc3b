/**
 * End to end, keys typed while Ink starts: the real CLI in tmux with the demo model, the keys sent
 * right after the command (before Node has even started, so the terminal still echoes them). They
 * reach the prompt, and their echo is gone: inline, the header starts at the first column of the
 * line Ink starts on (it stood after the echoed text); full-screen, the normal screen it comes back
 * to at exit holds no echo either. Skipped when tmux is not installed.
 */
import { describe, expect, it } from "vitest";
import { CLI, cliFixture } from "../helpers/cli.js";
import { hasTmux, quote, Tmux } from "./tmux.js";

const tmux = new Tmux(`ink-typeahead-${process.pid}`);
const TYPED = "typed ahead words";

describe.skipIf(!hasTmux)("keys typed while Ink starts (tmux, demo model)", () => {
  const fx = cliFixture({ name: "typeahead", build: true, tmux, server: false });
  const command = (flags: string) =>
    `env -u CI -u ANTHROPIC_API_KEY INK_HOME=${quote(fx.home)} ${quote(process.execPath)} ${quote(CLI)} --cwd ${quote(fx.repo)} ${flags}; echo INK_EXITED=$?; sleep 60`;

  it("--inline 80×24: the typed words are in the prompt, and the header starts the first line (no echo before it)", async () => {
    tmux.start("inline", command("--inline"), 80, 24);
    tmux.type("inline", TYPED);
    await tmux.waitFor("inline", (s) => s.includes(`› ${TYPED}`), "the typed words in the prompt");
    const rows = tmux.visible("inline").split("\n");
    expect(rows[0]).toMatch(/^✦ Ink/);
    expect(rows.filter((r) => r.includes(TYPED))).toEqual([expect.stringContaining(`› ${TYPED}`)]);
    tmux.keys("inline", "C-c"); // clears the draft
    await tmux.waitFor("inline", (s) => s.includes("Ask Ink"), "the empty prompt");
    tmux.keys("inline", "C-c");
    tmux.keys("inline", "C-c");
    await tmux.waitFor("inline", (s) => s.includes("INK_EXITED=0"), "the CLI to exit");
  }, 60_000);

  it("full-screen 80×24: the typed words are in the prompt, and the screen left at exit holds no echo of them", async () => {
    tmux.start("full", command(""), 80, 24);
    tmux.type("full", TYPED);
    await tmux.waitFor("full", (s) => s.includes(`› ${TYPED}`), "the typed words in the prompt");
    tmux.keys("full", "C-c"); // clears the draft
    await tmux.waitFor("full", (s) => s.includes("Ask Ink"), "the empty prompt");
    tmux.keys("full", "C-c");
    tmux.keys("full", "C-c");
    const after = await tmux.waitFor("full", (s) => s.includes("INK_EXITED=0"), "the CLI to exit");
    expect(after).not.toContain(TYPED);
  }, 60_000);
});
