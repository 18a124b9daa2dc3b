import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import type { ScriptedTurn } from "../../src/providers/scripted.js";
import { isHistoryValid } from "../../src/session/repair.js";
import { harness, type Harness, idOf, isChild, lastResult, parentOnce, profile } from "../helpers/subagent-harness.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

describe("task resume", () => {
  it("continues a finished child with its own history and a new prompt", async () => {
    let args: Record<string, unknown> = { prompt: "find the login" };
    const childTurn = (r: ModelRequest): ScriptedTurn => ({ text: `answer to: ${JSON.stringify(r.messages.at(-1))}` });
    h = harness((r) => (isChild(r) ? childTurn(r) : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "now the tests", resume: id };
    await h.run("second");
    const res = lastResult(h);
    expect(res.isError).toBe(false);
    expect(res.content).toContain("now the tests");
    const resumedReq = h.provider.requests.filter(isChild).at(-1)!;
    // the resumed child saw its earlier exchange, then the new prompt
    expect(resumedReq.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(resumedReq.messages[0]).toEqual({ role: "user", content: "find the login" });
    expect(resumedReq.messages[2]).toEqual({ role: "user", content: "now the tests" }); // a clean transcript: no repair note
    const saved = h.store.load(id);
    expect(saved.messages).toHaveLength(4);
    const start = h.events.filter((e) => e.type === "subagent_start").at(-1);
    expect(start).toMatchObject({ resumed: true, childId: id });
  });

  it("refuses agent or worktree together with resume", async () => {
    h = harness(parentOnce(() => ({ prompt: "x", resume: "20261202-000000-abcdef", agent: "scout", worktree: true })));
    await h.run("go");
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringContaining("agent and worktree cannot be combined with resume") });
  });

  it("refuses an unknown id, naming the sessions directory and listing this session's children with their status", async () => {
    let args: Record<string, unknown> = { prompt: "find the login handler" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "x", resume: "20261202-000000-abcdef" };
    await h.run("again");
    const content = lastResult(h).content;
    expect(lastResult(h).isError).toBe(true);
    expect(content).toMatch(/^cannot resume child 20261202-000000-abcdef:\n- there is no child session with this id in .*sessions/);
    expect(content).toContain(`This session's children:\n- ${id} · ok · general · "find the login handler"`);
    expect(content).toMatch(/Start a new task instead/);
  });

  it("refuses a whitespace-only resume prompt", async () => {
    h = harness(parentOnce(() => ({ prompt: "   \n ", resume: "20261202-000000-abcdef" })));
    await h.run("go");
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringMatching(/prompt is empty/) });
  });

  it("refuses when the tool set, profile or system prompt differs, naming what differs", async () => {
    let args: Record<string, unknown> = { prompt: "look", agent: "scout" };
    const scout = profile("scout", { tools: ["echo"] });
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)), { profiles: [scout] });
    await h.run("first");
    const id = idOf(lastResult(h).content);
    args = { prompt: "more", resume: id };
    // profile body edited → the child's system prompt differs
    scout.body = "You are a different scout.";
    await h.run("second");
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringContaining("system prompt differs") });
    // profile restored → resumable again
    scout.body = "You are scout.";
    await h.run("third");
    expect(lastResult(h).isError).toBe(false);
  });

  it("refuses when the tool set differs, naming the missing tool", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    expect(h.store.readHeader(id).toolNames).toEqual(["echo"]);
    h.tools.splice(0, 1); // the parent no longer has echo
    args = { prompt: "more", resume: id };
    await h.run("second");
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringContaining("tool set differs (missing now: echo)") });
  });

  it("a refusal lists every reason at once: lock held, tool set and working directory", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    const other = mkdtempSync(join(tmpdir(), "ink-other-"));
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    const held = h.store.lock(id, "someone else");
    h.tools.splice(0, 1); // the parent no longer has echo
    args = { prompt: "more", resume: id };
    await h.run("second", { cwd: other });
    const res = lastResult(h);
    expect(res.isError).toBe(true);
    const reasons = res.content.split("\n").filter((l) => l.startsWith("- "));
    expect(res.content.startsWith(`cannot resume child ${id}:\n- `)).toBe(true);
    expect(reasons).toEqual([expect.stringMatching(/in use by process \d+/), expect.stringContaining("tool set differs (missing now: echo)"), expect.stringContaining("working directory differs")]);
    expect(res.content.endsWith("Start a new task instead (without resume), giving it the context it needs.")).toBe(true);
    held.release();
    rmSync(other, { recursive: true, force: true });
  });

  it("refuses a child whose working directory differs", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    const other = mkdtempSync(join(tmpdir(), "ink-other-"));
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    args = { prompt: "more", resume: idOf(lastResult(h).content) };
    await h.run("second", { cwd: other });
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringContaining("working directory differs") });
    rmSync(other, { recursive: true, force: true });
  });

  it("refuses while another live process holds the child's lock, and takes over a stale one", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    h = harness((r) => (isChild(r) ? { text: "done" } : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    const lockPath = `${h.store.path(id)}.lock`;
    const held = h.store.lock(id, "someone else");
    args = { prompt: "more", resume: id };
    await h.run("second");
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringMatching(/in use by process \d+/) });
    held.release();
    // a lock left by a dead process is taken over
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(lockPath, JSON.stringify({ pid: Number(dead.stdout), hostname: (await import("node:os")).hostname(), startedAt: new Date().toISOString() }));
    await h.run("third");
    expect(lastResult(h).isError).toBe(false);
  });

  it("two resumes of one child in one message: one runs, the other is refused (never a stale history)", async () => {
    let first = true;
    let id = "";
    h = harness((r) => {
      if (isChild(r)) return { text: `saw ${r.messages.length}` };
      if (r.messages.at(-1)!.role !== "user") return { text: "ok" };
      if (first) {
        first = false;
        return { toolCalls: [{ id: "t0", name: "task", arguments: { prompt: "P0" } }] };
      }
      return { toolCalls: [{ id: "a", name: "task", arguments: { prompt: "R1", resume: id } }, { id: "b", name: "task", arguments: { prompt: "R2", resume: id } }] };
    }, { maxConcurrent: 1 });
    await h.run("first");
    id = idOf(lastResult(h).content);
    await h.run("second");
    const results = (h.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results;
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(results.filter((r) => r.isError)[0]!.content).toMatch(/cannot resume child .*:\n- session .* is in use by process \d+ \(resume from .*\) since /);
    expect(h.store.load(id).messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual(["P0", "assistant", "R1", "assistant"]);
  });

  it("repairs a history torn by a crash before continuing", async () => {
    let args: Record<string, unknown> = { prompt: "look" };
    h = harness((r) => (isChild(r) ? (r.messages.length === 1 ? { toolCalls: [{ id: "c1", name: "echo", arguments: { text: "a" } }] } : { text: "done" }) : parentOnce(() => args)(r)));
    await h.run("first");
    const id = idOf(lastResult(h).content);
    // simulate a crash: an assistant tool call with no result, then half a line
    const path = h.store.path(id);
    appendFileSync(path, `${JSON.stringify({ type: "message", at: new Date().toISOString(), message: { role: "assistant", content: [{ type: "toolCall", id: "c9", name: "echo", arguments: { text: "b" } }], stopReason: "tool_use", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } })}\n{"type":"mess`);
    args = { prompt: "continue", resume: id };
    await h.run("second");
    expect(lastResult(h).isError).toBe(false);
    const req = h.provider.requests.filter(isChild).at(-1)!;
    expect(isHistoryValid(req.messages)).toBe(true);
    expect(JSON.stringify(req.messages)).toContain("interrupted");
    expect(isHistoryValid(h.store.load(id).messages)).toBe(true);
  });
});

describe("task with worktree: true", () => {
  function repo(): string {
    const dir = mkdtempSync(join(tmpdir(), "ink-wt-repo-"));
    const git = (...a: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...a], { cwd: dir });
    git("init", "-q");
    writeFileSync(join(dir, "a.txt"), "a\n");
    git("add", "-A");
    git("commit", "-qm", "init");
    return dir;
  }

  it("runs the child in a worktree; keeps it with the child's change and reports branch + diffstat", async () => {
    const dir = repo();
    const { writeTool } = await import("../../src/tools/write.js");
    let firstMessage = "";
    let refusal = "";
    h = harness(
      (r) => {
        if (!isChild(r)) return parentOnce(() => ({ prompt: "add b", worktree: true }))(r);
        if (r.messages.length === 1) {
          firstMessage = JSON.stringify(r.messages[0]);
          // one write into the user's checkout by absolute path (refused), one relative (lands in the worktree)
          return { toolCalls: [{ name: "write", arguments: { path: join(dir, "escape.txt"), content: "no\n" } }, { name: "write", arguments: { path: "b.txt", content: "b\n" } }] };
        }
        refusal = JSON.stringify(r.messages.at(-1));
        return { text: "added b.txt" };
      },
      { extraTools: [writeTool], cwd: dir },
    );
    await h.run("go");
    const res = lastResult(h);
    expect(res.isError).toBe(false);
    const kept = /\[worktree\] changes kept on branch (ink\/\S+) at (\S+)/.exec(res.content);
    expect(kept).not.toBeNull();
    expect(res.content).toContain("b.txt");
    // the child's write landed in the worktree, outside the user's checkout, which was not touched
    expect(existsSync(join(kept![2]!, "b.txt"))).toBe(true);
    expect(kept![2]!.startsWith(h.inkHome)).toBe(true);
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    // the child was told where it works, and its write into the user's checkout was refused
    expect(firstMessage).toContain(`isolated git worktree at ${kept![2]!}`);
    expect(existsSync(join(dir, "escape.txt"))).toBe(false);
    expect(refusal).toContain("write refused:");
    expect(refusal).toContain("Use the relative path escape.txt instead");
    expect(spawnSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8" }).stdout).toBe("");
    expect(spawnSync("git", ["branch", "--list", kept![1]!], { cwd: dir, encoding: "utf8" }).stdout).toContain(kept![1]!);
    spawnSync("git", ["worktree", "remove", "--force", kept![2]!], { cwd: dir });
    rmSync(dir, { recursive: true, force: true });
  });

  it("a resumed worktree child runs in its kept worktree again, and the result names it", async () => {
    const dir = repo();
    const { writeTool } = await import("../../src/tools/write.js");
    let args: Record<string, unknown> = { prompt: "add b", worktree: true };
    h = harness(
      (r) => {
        if (!isChild(r)) return parentOnce(() => args)(r);
        if (r.messages.at(-1)!.role === "user") return { toolCalls: [{ name: "write", arguments: { path: r.messages.length === 1 ? "b.txt" : "c.txt", content: "x\n" } }] };
        return { text: "written" };
      },
      { extraTools: [writeTool], cwd: dir },
    );
    await h.run("first");
    const kept = /\[worktree\] changes kept on branch (ink\/\S+) at (\S+)/.exec(lastResult(h).content)!;
    args = { prompt: "add c as well", resume: idOf(lastResult(h).content) };
    await h.run("second");
    const res = lastResult(h);
    expect(res.isError).toBe(false);
    expect(res.content).toContain(`[task] resumed in its kept worktree ${kept[2]} (branch ${kept[1]}).`);
    expect(existsSync(join(kept[2]!, "c.txt"))).toBe(true);
    expect(existsSync(join(dir, "c.txt"))).toBe(false);
    spawnSync("git", ["worktree", "remove", "--force", kept[2]!], { cwd: dir });
    rmSync(dir, { recursive: true, force: true });
  });

  it("removes the worktree when the child changed nothing, and refuses outside a git repo", async () => {
    const dir = repo();
    h = harness((r) => (isChild(r) ? { text: "nothing to do" } : parentOnce(() => ({ prompt: "look", worktree: true }))(r)), { cwd: dir });
    await h.run("go");
    expect(lastResult(h).content).toContain("[worktree] no changes; worktree and branch");
    expect(spawnSync("git", ["branch", "--list", "ink/*"], { cwd: dir, encoding: "utf8" }).stdout.trim()).toBe("");
    const plain = mkdtempSync(join(tmpdir(), "ink-plain-"));
    await h.run("again", { cwd: plain });
    expect(lastResult(h)).toMatchObject({ isError: true, content: expect.stringContaining("is not a git repository") });
    rmSync(dir, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  });
});
