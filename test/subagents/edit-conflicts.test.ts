/**
 * Edit conflicts between children (issue #25 item 4): a child changing a file another running child
 * changed is refused with an error naming that child; the claim ends with the child; the main agent
 * is warned, not refused; kept worktree branches that changed the same files say so in the later result.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { editTool } from "../../src/tools/edit.js";
import { writeTool } from "../../src/tools/write.js";
import { conflictMessage, EditClaims } from "../../src/subagents/runtime/edit-claims.js";
import { firstPrompt, harness, isChild, type Harness } from "../helpers/subagent-harness.js";
import { git, tempDir } from "../helpers/temp-git.js";

let h: Harness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
});

/** A promise with its resolve function. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

const lastToolResult = (r: ModelRequest) => (r.messages.at(-1) as ToolResultMessage).results[0]!;
const overlaps = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === "subagent_event" && e.event.type === "edit_overlap" ? [{ childId: e.childId, ...(e.event as Extract<AgentEvent, { type: "edit_overlap" }>) }] : []));
const childIdOf = (events: AgentEvent[], description: string) =>
  events.find((e): e is Extract<AgentEvent, { type: "subagent_start" }> => e.type === "subagent_start" && e.description === description)!.childId;

/** The parent: `calls` task calls in its first turn, then "main done". */
function parent(calls: Array<Record<string, unknown>>) {
  return (r: ModelRequest): ScriptedTurn => (r.messages.at(-1)!.role === "user" ? { toolCalls: calls.map((c, i) => ({ id: `t${i}`, name: "task", arguments: c })) } : { text: "main done" });
}

describe("edit conflicts between running children of the shared tree", () => {
  it("a second child's edit of a file a running child wrote is refused, naming that child; the file keeps the first child's content; both panes get an overlap line", async () => {
    const dir = tempDir("ink-claims-");
    mkdirSync(join(dir, "src"));
    const aWrote = gate();
    const bRefused = gate();
    let bResult = "";
    h = harness(
      async (r) => {
        if (!isChild(r)) return parent([{ prompt: "CHILD-A", description: "fix login" }, { prompt: "CHILD-B", description: "tidy login" }])(r);
        const who = firstPrompt(r);
        if (who === "CHILD-A") {
          if (r.messages.length === 1) return { toolCalls: [{ name: "write", arguments: { path: "src/a.ts", content: "export const a = 1;\n" } }] };
          aWrote.open();
          await bRefused.wait; // still running while B tries
          return { text: "A done" };
        }
        if (r.messages.length === 1) {
          await aWrote.wait;
          return { toolCalls: [{ name: "edit", arguments: { path: join(dir, "src/a.ts"), oldText: "a = 1", newText: "a = 2" } }] };
        }
        bResult = lastToolResult(r).content;
        bRefused.open();
        return { text: "B done" };
      },
      { cwd: dir, extraTools: [writeTool, editTool], editClaims: new EditClaims() },
    );
    await h.run("go");
    const a = childIdOf(h.events, "fix login");
    const b = childIdOf(h.events, "tidy login");
    expect(bResult).toBe(conflictMessage("edit", "src/a.ts", `general · fix login [${a}]`));
    expect(bResult).toMatch(/^\[edit\] src\/a\.ts was changed by the running child general · fix login \[.+\]; .*task_wait.*worktree/);
    expect(readFileSync(join(dir, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(overlaps(h.events)).toEqual([
      { childId: b, type: "edit_overlap", path: "src/a.ts", other: `general · fix login [${a}]`, refused: true },
      { childId: a, type: "edit_overlap", path: "src/a.ts", other: `general · tidy login [${b}]`, refused: false },
    ]);
  });

  it("the claim ends with the child: a later child edits the same file; a child's own second edit is never refused", async () => {
    const dir = tempDir("ink-claims-");
    const claims = new EditClaims();
    h = harness(
      (r) => {
        if (!isChild(r)) return parent([{ prompt: firstPrompt(r), description: firstPrompt(r).toLowerCase() }])(r);
        const n = r.messages.length;
        if (firstPrompt(r) === "FIRST") {
          if (n === 1) return { toolCalls: [{ name: "write", arguments: { path: "a.txt", content: "one\n" } }] };
          if (n === 3) return { toolCalls: [{ name: "edit", arguments: { path: "a.txt", oldText: "one", newText: "two" } }] };
          return { text: "first done" };
        }
        if (n === 1) return { toolCalls: [{ name: "edit", arguments: { path: "a.txt", oldText: "two", newText: "three" } }] };
        return { text: `second saw: ${lastToolResult(r).isError ? "error" : "ok"}` };
      },
      { cwd: dir, extraTools: [writeTool, editTool], editClaims: claims },
    );
    await h.run("FIRST");
    const first = childIdOf(h.events, "first");
    expect(claims.filesOf(first)).toEqual([]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("two\n");
    h.history.length = 0;
    await h.run("SECOND");
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("three\n");
    expect(overlaps(h.events)).toEqual([]);
  });
});

describe("EditClaims", () => {
  const ctxFor = (cwd: string) => ({ cwd, signal: new AbortController().signal, toolCallId: "c1" });

  it("a failed write claims nothing; the same file named through a symlinked directory is the same claim", async () => {
    const dir = tempDir("ink-claims-");
    mkdirSync(join(dir, "real"));
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(dir, "real"), join(dir, "link"));
    const claims = new EditClaims();
    const [edit] = claims.enter({ childId: "c-a", title: "general · a [c-a]" }).guard([editTool]);
    const failed = await edit!.execute({ path: "real/missing.ts", oldText: "x", newText: "y" }, ctxFor(dir));
    expect(failed.isError).toBe(true);
    expect(claims.filesOf("c-a")).toEqual([]);
    const [write] = claims.enter({ childId: "c-b", title: "general · b [c-b]" }).guard([writeTool]);
    expect((await write!.execute({ path: "real/x.ts", content: "1" }, ctxFor(dir))).isError).toBe(false);
    const [writeA] = claims.enter({ childId: "c-a", title: "general · a [c-a]" }).guard([writeTool]);
    const refused = await writeA!.execute({ path: "link/x.ts", content: "2" }, ctxFor(dir));
    expect(refused).toEqual({ output: conflictMessage("write", "link/x.ts", "general · b [c-b]"), isError: true });
    expect(readFileSync(join(dir, "real/x.ts"), "utf8")).toBe("1");
  });

  it("the main agent's write of a file a running child changed runs, with a warning naming the child; the child's pane is told", async () => {
    const dir = tempDir("ink-claims-");
    const claims = new EditClaims();
    const told: AgentEvent[] = [];
    const child = claims.enter({ childId: "c-a", title: "general · fix login [c-a]", notify: (e) => told.push(e) });
    await child.guard([writeTool])[0]!.execute({ path: "a.ts", content: "child\n" }, ctxFor(dir));
    const [mainWrite] = claims.warnMain([writeTool]);
    const out = await mainWrite!.execute({ path: "a.ts", content: "main\n" }, ctxFor(dir));
    expect(out.isError).toBe(false);
    expect(String(out.output)).toContain('[write] warning: a.ts was also changed by the running child general · fix login [c-a]; its next edits may clash with yours — wait for it (task_wait) or tell it (task with resume: "c-a")');
    expect(readFileSync(join(dir, "a.ts"), "utf8")).toBe("main\n");
    expect(told).toEqual([{ type: "edit_overlap", path: "a.ts", other: "the main agent", refused: false }]);
    child.release();
    const after = await mainWrite!.execute({ path: "a.ts", content: "again\n" }, ctxFor(dir));
    expect(String(after.output)).not.toContain("warning");
  });
});

describe("kept worktree branches that changed the same files", () => {
  it("the later child's result names the earlier child, its branch and the shared files; worktree children are never refused", async () => {
    const repo = tempDir("ink-claims-repo-");
    git(repo, "init", "-q");
    writeFileSync(join(repo, "a.ts"), "base\n");
    writeFileSync(join(repo, "b.ts"), "base\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "init");
    const results: string[] = [];
    h = harness(
      (r) => {
        if (!isChild(r)) {
          if (r.messages.at(-1)!.role === "user") return { toolCalls: [{ id: "t", name: "task", arguments: { prompt: firstPrompt(r), description: firstPrompt(r).toLowerCase(), worktree: true } }] };
          results.push(lastToolResult(r).content);
          return { text: "main done" };
        }
        if (r.messages.length === 1) {
          const files = firstPrompt(r).endsWith("ONE") ? ["a.ts", "b.ts"] : ["b.ts", "c.ts"];
          return { toolCalls: files.map((f) => ({ name: "write", arguments: { path: f, content: `${firstPrompt(r)}\n` } })) };
        }
        return { text: "done" };
      },
      { cwd: repo, extraTools: [writeTool, editTool], editClaims: new EditClaims() },
    );
    await h.run("ONE");
    h.history.length = 0;
    await h.run("TWO");
    const one = childIdOf(h.events, "one");
    expect(results[0]).not.toContain("also changed by");
    expect(results[1]).not.toContain("refused");
    const branch = /kept on branch (\S+) at/.exec(results[0]!)![1];
    expect(results[1]).toContain(`[worktree] also changed by child general · one [${one}] (branch ${branch}): b.ts — merging both branches may conflict there`);
    // The user's checkout is untouched.
    expect(readFileSync(join(repo, "b.ts"), "utf8")).toBe("base\n");
  }, 30_000);
});
