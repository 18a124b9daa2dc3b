/**
 * End to end: the real `ink` CLI in a real terminal (tmux), driven by the offline demo model over
 * a small git repository. Types a question (editing it with keys sent together in one chunk),
 * waits for the children's summary lines and the answer, then exits with Ctrl-C twice; a second
 * flow, inline, checks that a width change redraws the live frame without broken copies, opens
 * the child-session sidebar and a child's transcript with the keyboard and closes them — the
 * history stays once in the scrollback and no byte written ever erases it. Skipped when tmux is not installed. Every tmux command
 * runs on this file's own socket (-L), which is the only server it ever kills.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureBuilt } from "../helpers/build.js";
import { hasTmux, quote, Tmux } from "./tmux.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const cli = join(root, "dist", "cli.js");
const socket = `ink-e2e-${process.pid}`;
const target = "ink-e2e";
const server = new Tmux(socket);

const tmux = (...args: string[]): string => server.run(...args);
/** The visible screen plus scrollback of tmux session `name`. */
const screen = (name = target) => server.screen(name);
const waitForScreen = (test: (s: string) => boolean, what: string, tries = 300, intervalMs = 50, name = target) => server.waitFor(name, test, what, tries, intervalMs);
/** The visible screen only (no scrollback). */
const visible = (name = target) => server.visible(name);

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}


describe.skipIf(!hasTmux)("TUI in a real terminal (tmux)", () => {
  let repo = "";
  let inkHome = "";

  beforeAll(() => {
    ensureBuilt();
    repo = mkdtempSync(join(tmpdir(), "ink-e2e-repo-"));
    inkHome = mkdtempSync(join(tmpdir(), "ink-e2e-home-"));
    write(join(repo, "src", "auth", "login.ts"), "import { verify } from './verify.js';\n\nexport function handleLogin(req: Request): Response {\n  const user = verify(req);\n  return redirectAfterLogin(user);\n}\n");
    write(join(repo, "src", "auth", "verify.ts"), "export function verify(req: Request) {\n  return req.headers.get('user');\n}\n");
    write(join(repo, "test", "auth", "login.test.ts"), "import { handleLogin } from '../../src/auth/login.js';\n\ntest('login', () => handleLogin(new Request('http://x')));\n");
    write(join(repo, "README.md"), "# shop\nUsers login with their email.\n");
    const git = (...args: string[]) => spawnSync("git", ["-c", "user.email=e2e@example.com", "-c", "user.name=e2e", ...args], { cwd: repo });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "init");
  }, 120_000);

  afterAll(() => {
    server.kill();
    if (repo) rmSync(repo, { recursive: true, force: true });
    if (inkHome) rmSync(inkHome, { recursive: true, force: true });
  });

  /** Starts the CLI in a new tmux session `name` of this socket. */
  const startInk = (name: string, args = "") => {
    const command = [
      "env -u ANTHROPIC_API_KEY",
      `INK_HOME=${quote(inkHome)} INK_DEMO_DELAY_MS=1`,
      `${quote(process.execPath)} ${quote(cli)} --cwd ${quote(repo)} ${args};`,
      "echo INK_EXITED=$?; sleep 60",
    ].join(" ");
    tmux("new-session", "-d", "-s", name, "-x", "160", "-y", "50", command);
  };

  it("answers a question with live children, then exits on Ctrl-C twice", async () => {
    startInk(target);
    await waitForScreen((s) => s.includes("Ask Ink"), "the prompt");

    tmux("send-keys", "-t", target, "-l", "where is the login handled?xyz");
    await waitForScreen((s) => s.includes("handled?xyz"), "the typed text");
    // One chunk of three DELs (and of three ←/→) is three keys, not one unknown key.
    tmux("send-keys", "-t", target, "Left", "Left", "Left");
    tmux("send-keys", "-t", target, "Right", "Right", "Right");
    tmux("send-keys", "-t", target, "BSpace", "BSpace", "BSpace");
    await waitForScreen((s) => s.includes("› where is the login handled? ") && !s.includes("handled?x"), "three characters deleted");
    tmux("send-keys", "-t", target, "Enter");
    const answered = await waitForScreen((s) => /Conclusion:.*src\/auth\/login\.ts/.test(s) && s.includes("Ask Ink"), "the final answer");
    expect(answered).toContain("› where is the login handled?");
    expect(answered).not.toContain("handled?x");
    // Two children ran in parallel and collapsed to summary lines.
    expect(answered.match(/✓ general · (implementation|tests) of login · \d+ turns? · [\d.]+s · [\d.]+k? tokens — /g)?.length).toBe(2);
    expect(answered).toMatch(/ctx \d+% of 200k/);

    tmux("send-keys", "-t", target, "C-c");
    await waitForScreen((s) => s.includes("Press Ctrl-C again to exit"), "the exit hint");
    tmux("send-keys", "-t", target, "C-c");
    const ended = await waitForScreen((s) => s.includes("INK_EXITED="), "the CLI to exit");
    expect(ended).toContain("INK_EXITED=0");
    expect(ended).toMatch(/Session saved: .*\.jsonl/);
    expect(ended).toMatch(/Resume this session: node \S*dist\/cli\.js --resume \d{8}-\d{6}-[0-9a-f]{6}/);
  }, 60_000);

  it("inline: opens the child-session sidebar and a child's transcript by keyboard, closes them, exits — never clearing the scrollback", async () => {
    const name = "ink-e2e-sidebar";
    const wait = (test: (s: string) => boolean, what: string) => waitForScreen(test, what, 300, 50, name);
    const bytes = join(inkHome, "sidebar-pane.bin");
    startInk(name, "--inline");
    tmux("pipe-pane", "-t", name, `cat >> ${quote(bytes)}`);
    await wait((s) => s.includes("Ask Ink"), "the prompt");
    tmux("send-keys", "-t", name, "-l", "where is the login handled?");
    tmux("send-keys", "-t", name, "Enter");
    await wait((s) => /Conclusion:.*src\/auth\/login\.ts/.test(s) && s.includes("Ask Ink"), "the final answer");

    // A width change redraws the live frame: one prompt box, no broken copies.
    tmux("resize-window", "-t", name, "-x", "120");
    tmux("resize-window", "-t", name, "-x", "110");
    const count = (s: string, part: string) => s.split(part).length - 1;
    const redrawn = (s: string) => count(s, "✦ Ink") === 1 && count(s, "Conclusion:") === 1 && count(s, "Ask Ink") === 1 && visible(name).split("\n").some((l) => l.startsWith("╭") && l.length === 110);
    await wait(redrawn, "the redraw at 110 columns");
    await new Promise((r) => setTimeout(r, 300));
    const resized = screen(name);
    expect(redrawn(resized), resized).toBe(true);
    expect(resized.split("\n").filter((l) => l.startsWith("╭")).every((l) => l.length <= 110)).toBe(true);

    tmux("send-keys", "-t", name, "Tab");
    const side = await wait((s) => s.includes("Child sessions") && s.includes("this session"), "the sidebar");
    expect(side).toMatch(/›✓ (?:\S+ )?\[[0-9a-f]{6}\] +(?:\S+ +)?(implementation|tests) of login/); // the agent and age columns give way to the task
    expect(side).toContain("Enter transcript (r there resumes it)");

    tmux("send-keys", "-t", name, "Enter");
    // (Opening, the first frame may still have the old height, its top rows cut: wait for the whole box.)
    const overlay = await wait((s) => /lines 1–\d+ of \d+/.test(s) && /general · (implementation|tests) of login \[[0-9a-f]{6}\] · ok · /.test(s), "the child's transcript");
    expect(overlay).toMatch(/general · (implementation|tests) of login \[[0-9a-f]{6}\] · ok · <1m ago(?! · session)/);
    expect(overlay).toMatch(/› Find /); // the child's prompt
    expect(overlay).toMatch(/⏺ grep [^\n]*\n(│ {3,}[^⎿\n]*\n)?│ +⎿ /); // its tool calls, each result right under its call (a long call's arguments may take a second row)
    tmux("send-keys", "-t", name, "End"); // the end of a long transcript: what the main agent got
    await wait((s) => s.includes("── result returned to the main agent ──"), "the child's result at the transcript's end");

    tmux("send-keys", "-t", name, "Escape");
    await wait((s) => s.includes("Child sessions") && !/lines 1–\d+ of/.test(s.split("Conclusion:").pop()!), "the sidebar again");
    tmux("send-keys", "-t", name, "Escape");
    await wait((s) => s.includes("Enter send · ↑/↓ history · Tab sidebar"), "the prompt again");
    // The overlay and the sidebar closed without clearing anything: the history is in the
    // scrollback once.
    expect(screen(name).split("Conclusion:").length - 1).toBe(1);

    tmux("send-keys", "-t", name, "C-c");
    await wait((s) => s.includes("Press Ctrl-C again to exit"), "the exit hint");
    tmux("send-keys", "-t", name, "C-c");
    const ended = await wait((s) => s.includes("INK_EXITED="), "the CLI to exit");
    expect(ended).toContain("INK_EXITED=0");
    // The person's scrollback was never erased (ESC[3J), not even by the resize.
    expect(readFileSync(bytes, "latin1")).not.toContain("\u001b[3J");
  }, 60_000);
});
