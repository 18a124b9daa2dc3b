/** Seed row L-5: a worktree child can run the project's tests — the checkout's node_modules is linked into its worktree. */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import type { ModelRequest } from "../../src/protocol/provider.js";
import { createWorktree, finishWorktree, formatWorktreeReport } from "../../src/subagents/worktrees/worktree.js";
import { harness, isChild, firstPrompt, type Harness } from "../helpers/subagent-harness.js";
import { git, tempDir } from "../helpers/temp-git.js";

let h: Harness | undefined;
afterEach(() => h?.cleanup());

/** A node project: package.json and a test committed, node_modules installed (ignored as `ignoreLine`). */
function nodeRepo(ignoreLine = "node_modules/"): { repo: string; inkHome: string } {
  const repo = tempDir("ink-deps-repo-");
  const inkHome = tempDir("ink-deps-home-");
  git(repo, "init", "-q");
  writeFileSync(join(repo, ".gitignore"), `${ignoreLine}\n`);
  writeFileSync(join(repo, "package.json"), '{"name":"shop","type":"module"}\n');
  writeFileSync(join(repo, "check.mjs"), 'import { add } from "adder";\nif (add(2, 3) !== 5) throw new Error("bad");\nconsole.log("tests pass");\n');
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "init");
  mkdirSync(join(repo, "node_modules", "adder"), { recursive: true });
  writeFileSync(join(repo, "node_modules", "adder", "package.json"), '{"name":"adder","type":"module","main":"index.js"}\n');
  writeFileSync(join(repo, "node_modules", "adder", "index.js"), "export const add = (a, b) => a + b;\n");
  return { repo, inkHome };
}

describe("L-5: the worktree gets the checkout's installed dependencies", () => {
  it.each(["node_modules/", "node_modules"])("with %j ignored: linked, the tests run in the worktree, an unchanged worktree is still removed and the checkout's node_modules stays", async (ignore) => {
    const { repo, inkHome } = nodeRepo(ignore);
    const wt = await createWorktree({ cwd: repo, inkHome, label: "c1" });
    expect(wt.links).toEqual(["node_modules"]);
    const link = join(wt.path, "node_modules");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(repo, "node_modules"));
    expect(execFileSync(process.execPath, ["check.mjs"], { cwd: wt.path, encoding: "utf8" })).toContain("tests pass");
    const report = await finishWorktree(wt);
    expect(report).toMatchObject({ kept: false });
    expect(existsSync(wt.path)).toBe(false);
    expect(readFileSync(join(repo, "node_modules", "adder", "index.js"), "utf8")).toContain("add");
    expect(formatWorktreeReport(report)).toContain(`[worktree] installed dependencies linked from the checkout so the project's tests run here: node_modules → ${join(repo, "node_modules")} (shared with the checkout`);
  });

  it("a worktree with the child's changes is kept, and the link is not listed as its work", async () => {
    const { repo, inkHome } = nodeRepo();
    const wt = await createWorktree({ cwd: repo, inkHome, label: "c2" });
    writeFileSync(join(wt.path, "new.txt"), "work\n");
    const report = await finishWorktree(wt);
    expect(report.kept).toBe(true);
    expect(report.diffstat).toContain("new.txt");
    expect(report.diffstat).not.toContain("node_modules");
  });

  it("no node_modules in the checkout, or one tracked in git: nothing is linked", async () => {
    const { repo, inkHome } = nodeRepo();
    const bare = tempDir("ink-deps-bare-");
    git(bare, "init", "-q");
    writeFileSync(join(bare, "a.txt"), "a\n");
    git(bare, "add", "-A");
    git(bare, "commit", "-q", "-m", "init");
    const none = await createWorktree({ cwd: bare, inkHome, label: "c3" });
    expect(none.links).toBeUndefined();
    await finishWorktree(none);
    writeFileSync(join(repo, ".gitignore"), "\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "vendor node_modules");
    const tracked = await createWorktree({ cwd: repo, inkHome, label: "c4" });
    expect(tracked.links).toBeUndefined();
    expect(lstatSync(join(tracked.path, "node_modules")).isSymbolicLink()).toBe(false);
    await finishWorktree(tracked);
  });

  it("through task: the child's brief and the task result say what was linked", async () => {
    const { repo } = nodeRepo();
    const parent = (r: ModelRequest) => (r.messages.at(-1)!.role === "user" ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "run the tests", worktree: true } }] } : { text: "ok" });
    h = harness((r) => (isChild(r) ? { text: "tests pass" } : parent(r)), { cwd: repo });
    await h.run("go", { cwd: repo });
    const brief = firstPrompt(h.provider.requests.find(isChild)!);
    expect(brief).toContain(`The installed dependencies linked from the checkout so the project's tests run here: node_modules → ${join(repo, "node_modules")}`);
    const result = (h.history.filter((m) => m.role === "toolResult").at(-1) as ToolResultMessage).results[0]!.content;
    expect(result).toContain("[worktree] no changes; worktree and branch");
    expect(result).toContain("[worktree] installed dependencies linked from the checkout");
  });
});
