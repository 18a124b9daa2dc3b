/**
 * End to end (issue #40's "Done when"): the real `ink` CLI at 80x24 in tmux, driven by the offline
 * demo model over a small git repository, on a machine with no git identity (HOME and the global
 * git config empty). A demo worker child edits NOTES.md in the shared tree and the main agent
 * edits TODO.md; `/rewind` takes the files back (each turn on its own) and, separately, the
 * conversation; a file the person changed meanwhile is named and kept until the force answer;
 * three worktree workers leave three branches, `/merge all` stops at the conflict and shows it,
 * `/merge hand` has the branch's own worker resolve it, and no worktree or `ink/*` branch is left.
 * Each step is checked on disk and on the visible 80x24 screen (not the scrollback): what the
 * person needs must not be cut. Once full-screen, once `--inline`, the two at the same time (each
 * waits mostly on its CLI). Skipped without tmux; every tmux command runs on this file's own
 * sockets (-L, one a mode), the only servers it kills.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBuilt } from "../helpers/build.js";
import { hasTmux, quote, Tmux } from "./tmux.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const cli = join(root, "dist", "cli.js");
const servers = { "full-screen": new Tmux(`ink-e2e-undo-fs-${process.pid}`), inline: new Tmux(`ink-e2e-undo-inline-${process.pid}`) };
const dirs: string[] = [];

/** Polls for a screen that waits on real work (children, git): up to a minute on a loaded machine. */
const TRIES = 600;
const INTERVAL = 100;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", ["-c", "user.email=e2e@example.com", "-c", "user.name=e2e", ...args], { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** The screen as one line (Ink wraps rows itself at 80 columns). */
const flat = (s: string) => s.replace(/[│╭╮╰╯─]/g, " ").replace(/\s+/g, " ");

describe.skipIf(!hasTmux)("checkpoints, /rewind and /merge at 80x24 (tmux, demo model)", () => {
  beforeAll(() => ensureBuilt(), 120_000);
  afterAll(() => {
    for (const server of Object.values(servers)) server.kill();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  for (const mode of ["full-screen", "inline"] as const) {
    it.concurrent(`${mode}: rewinds a child's and the main agent's edits (files, conversation), keeps a file changed by hand until forced, merges three workers' branches with the conflict handed back`, async () => {
      const server = servers[mode];
      const base = mkdtempSync(join(tmpdir(), "ink-e2e-undo-"));
      dirs.push(base);
      const repo = join(base, "repo");
      const home = join(base, "home");
      for (const d of [repo, home]) spawnSync("mkdir", ["-p", d]);
      writeFileSync(join(repo, "NOTES.md"), "# Notes\n");
      git(repo, "init", "-q", "-b", "main");
      git(repo, "add", "-A");
      git(repo, "commit", "-qm", "init");
      const name = `undo-${mode}`;
      server.start(
        name,
        [
          "env -u ANTHROPIC_API_KEY -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u EMAIL",
          `HOME=${quote(home)} INK_HOME=${quote(join(home, ".ink"))} GIT_CONFIG_GLOBAL=/dev/null INK_DEMO_DELAY_MS=1`,
          `${quote(process.execPath)} ${quote(cli)} --provider demo --yolo ${mode === "inline" ? "--inline " : ""}--cwd ${quote(repo)};`,
          "echo INK_EXITED=$?; sleep 60",
        ].join(" "),
        80,
        24,
      );
      const visible = () => server.visible(name);
      const idle = (s: string) => s.includes("Ask Ink") && s.includes("Enter send");
      /**
       * Waits until the visible screen (flattened) passes `test`; returns that capture (a capture taken
       * again could be a later frame: once the note's rows had scrolled off by the time it was read).
       */
      const see = async (test: (flatScreen: string) => boolean, what: string) => {
        let passed = "";
        await server.waitFor(name, () => test((passed = flat(visible()))), what, TRIES, INTERVAL);
        return passed;
      };
      /** Types `text` on the idle prompt and sends it. */
      const send = async (text: string) => {
        await server.waitFor(name, (s) => idle(s), `the idle prompt before "${text}"`, TRIES, INTERVAL);
        server.type(name, text);
        await server.waitFor(name, (s) => flat(s).includes(`› ${text}`), `"${text}" typed`, TRIES, INTERVAL);
        server.keys(name, "Enter");
      };
      const read = (file: string) => (existsSync(join(repo, file)) ? readFileSync(join(repo, file), "utf8") : undefined);

      await server.waitFor(name, (s) => s.includes("Ask Ink"), "the prompt", TRIES, INTERVAL);

      // (a) A worker child edits NOTES.md in the shared tree (turn 1), the main agent TODO.md (turn 2).
      await send("add a note to NOTES.md");
      await see((s) => s.includes("The workers have finished") && s.includes("Ask Ink"), "the worker's note");
      expect(read("NOTES.md")).toBe("# Notes\n- note 1 from a demo worker\n");
      await send("add a note to TODO.md yourself");
      await see((s) => s.includes('Appended "- note from the main agent" to TODO.md') && s.includes("Ask Ink"), "the main agent's note");
      expect(read("TODO.md")).toBe("- note from the main agent\n");

      // Esc Esc on the empty prompt lists the turns: both rows, with their files and agents, on screen.
      await server.waitFor(name, idle, "idle", TRIES, INTERVAL);
      server.keys(name, "Escape");
      await see((s) => s.includes("Esc again lists the turns"), "the first Esc's hint");
      server.keys(name, "Escape");
      const listing = await see((s) => s.includes("Turns (rewinding"), "the turn listing");
      expect(listing).toMatch(/turn 1 "add a note to NOTES\.md" — general · worker 1: NOTES\.md \[[0-9a-f]{6}\]: NOTES\.md \+1 −0/);
      expect(listing).toContain('turn 2 "add a note to TODO.md yourself" — main: TODO.md +1 −0');

      // Files only, one turn at a time: the main agent's note, then the child's.
      await send("/rewind 2 files");
      expect(await see((s) => s.includes("rewound to before turn 2"), "the files rewind of turn 2")).toContain("restored 1 file (TODO.md)");
      expect(read("TODO.md")).toBeUndefined();
      expect(read("NOTES.md")).toBe("# Notes\n- note 1 from a demo worker\n");
      await send("/rewind 1 files");
      expect(await see((s) => s.includes("rewound to before turn 1"), "the files rewind of turn 1")).toContain("restored 1 file (NOTES.md)");
      expect(read("NOTES.md")).toBe("# Notes\n");

      // The conversation only: the files stay; the model no longer sees turns 1 and 2 (the demo
      // shows its offline note again, as at a conversation's start).
      await send("/rewind 1 conversation");
      expect(await see((s) => s.includes("the conversation is back to before turn 1"), "the conversation rewind")).toContain("rewound to before turn 1: the conversation is back to before turn 1 (what follows");
      expect(read("NOTES.md")).toBe("# Notes\n");
      expect(read("TODO.md")).toBeUndefined();
      const sessionFile = readdirSync(join(home, ".ink", "sessions")).map((f) => join(home, ".ink", "sessions", f)).find((f) => f.endsWith(".jsonl") && readFileSync(f, "utf8").includes('"type":"rewind"'));
      expect(readFileSync(sessionFile!, "utf8")).toContain('"type":"rewind","keep":0,"turn":1');
      await send("add a note to TODO.md yourself");
      const again = await see((s) => s.includes('Appended "- note from the main agent" to TODO.md') && s.includes("Ask Ink"), "the note after the conversation rewind");
      const asked = again.lastIndexOf("› add a note to TODO.md yourself");
      expect(again.indexOf("(Offline demo model", asked)).toBeGreaterThan(asked);

      // (b) The person changes TODO.md between turns: named, not overwritten, until the force answer.
      writeFileSync(join(repo, "TODO.md"), "edited by hand\n");
      await send("/rewind 3 files");
      const refused = await see((s) => s.includes("not overwritten"), "the refusal");
      expect(refused).toContain("changed since by someone else, not overwritten: TODO.md");
      expect(refused).toContain("/rewind 3 files force overwrites");
      expect(read("TODO.md")).toBe("edited by hand\n");
      await send("/rewind 3 files force");
      expect(await see((s) => s.includes("rewound to before turn 3"), "the forced rewind")).toContain("restored 1 file (TODO.md)");
      expect(read("TODO.md")).toBeUndefined();

      // (c) Three worktree workers leave three branches (workers 1 and 3 both add to NOTES.md).
      await send("add notes to NOTES.md, TODO.md and NOTES.md in worktrees");
      await see((s) => s.includes("The workers have finished") && s.includes("/merge hand gives it back") && s.includes("Ask Ink"), "the three workers");
      expect(git(repo, "branch", "--list", "ink/*").trim().split("\n")).toHaveLength(3);
      expect(read("NOTES.md")).toBe("# Notes\n"); // the shared tree is untouched

      await send("/merge");
      const queue = await see((s) => s.includes("Kept worktree branches") && s.includes("Ask Ink"), "the merge listing");
      for (const n of [1, 2, 3]) expect(queue).toMatch(new RegExp(`${n}\\. ink/\\S+ — worker ${n}: (NOTES|TODO)\\.md · applies cleanly to HEAD`));
      expect(queue.match(/NOTES\.md \| 1 \+/g)).toHaveLength(2);
      expect(queue).toContain("TODO.md | 1 +");
      expect(queue.match(/also changed by another branch: NOTES\.md/g)).toHaveLength(2);

      await send("/merge all");
      const stopped = await see((s) => s.includes("stopped at") && s.includes("Ask Ink"), "the conflict");
      expect(stopped).toMatch(/\/merge: merged ink\/\S+, ink\/\S+ \(worktrees and branches removed\); stopped at ink\/\S+: it conflicts in NOTES\.md/);
      expect(stopped).toContain("CONFLICT (content): Merge conflict in NOTES.md");
      expect(stopped).toMatch(/<<<<<<< HEAD .*note 1 from a demo worker .*=======.*note 3 from a demo worker/);
      expect(stopped).toMatch(/→ \/merge hand resumes worker 3: NOTES\.md \[[^\]]+\] in its worktree/);
      expect(git(repo, "status", "--porcelain")).toBe(""); // the conflicting merge was undone

      await send("/merge hand");
      const handed = await see((s) => /\/merge: merged ink\/\S+ \(worktrees and branches removed\)(?!;)/.test(s) && s.includes("Ask Ink"), "the merge after the hand-off");
      expect(handed).toMatch(/✓ general · worker 3: NOTES\.md/);
      const notes = read("NOTES.md")!.split("\n");
      expect(notes[0]).toBe("# Notes");
      expect(notes.slice(1).filter(Boolean).sort()).toEqual(["- note 1 from a demo worker", "- note 3 from a demo worker"]);
      expect(read("TODO.md")).toBe("- note 2 from a demo worker\n");
      expect(git(repo, "worktree", "list").trim().split("\n")).toHaveLength(1);
      expect(git(repo, "branch", "--list", "ink/*").trim()).toBe("");
      expect(git(repo, "status", "--porcelain")).toBe("");

      server.keys(name, "C-c");
      server.keys(name, "C-c");
      await server.waitFor(name, (s) => s.includes("INK_EXITED=0"), "the CLI to exit", TRIES, INTERVAL);
    }, 400_000);
  }
});
