/**
 * Command files as Claude Code runs them (issue #38 item 3): `` !`cmd` `` context commands run
 * through the approval rules and their output replaces them; a sub-folder file is `/name`; and
 * `-p "/name args"` runs the file as the TUI does.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { runPrintMode } from "../../src/cli/print-mode.js";
import { loadCommandFiles } from "../../src/commands/command-files.js";
import { findCommandInvocation } from "../../src/commands/command-run.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** A real git repository with one untracked file and a command file in Anthropic's commit-command shape. */
function repo() {
  const cwd = temp("ink-ctx-cwd-");
  const inkHome = temp("ink-ctx-home-");
  execFileSync("git", ["init", "-q"], { cwd });
  put(join(cwd, "UNTRACKED-FILE.txt"), "x\n");
  put(
    join(cwd, ".claude/commands/git/commit.md"),
    "---\nallowed-tools: Bash(git status:*)\ndescription: Create a git commit\n---\n## Context\n\n- Current git status: !`git status --short`\n- Echo: !`echo ARG-$1`\n- Gone: !`rm -f KEEP.txt`\n\n## Your task\n\nCommit $ARGUMENTS.\n",
  );
  put(join(cwd, "KEEP.txt"), "keep\n");
  return { cwd, inkHome };
}

describe("command files run their context and run everywhere", () => {
  it("each !`cmd` is run through the approval rules and its output replaces it; a refused one says so and does not run", async () => {
    const { cwd, inkHome } = repo();
    const provider = createScriptedProvider((r) => ({ text: `ANSWER ${firstPrompt(r).length}` }));
    // Headless, with rules that allow git status and echo but not rm: rm would ask, so it is refused.
    const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: { allow: ["bash(git status*)", "bash(echo *)"] }, trust: true, persist: false });
    const invocation = s.commandInvocation("/commit the fix")!;
    expect(invocation.command.name).toBe("/commit");
    const events: AgentEvent[] = [];
    const ran = await s.runCommandFile(invocation, { onEvent: (e) => events.push(e) });
    expect(ran.kind).toBe("prompt");
    const prompt = firstPrompt(provider.requests[0]!);
    expect(prompt).toMatch(/- Current git status: \?\? \.claude\/\n\?\? KEEP\.txt\n\?\? UNTRACKED-FILE\.txt\n- Echo/);
    expect(prompt).toContain("- Echo: ARG-the");
    expect(prompt).toMatch(/- Gone: \(`rm -f KEEP\.txt` did not run cleanly: tool call refused: bash needs approval/);
    expect(prompt).toContain("Commit the fix.");
    expect(prompt).not.toContain("!`");
    expect(existsSync(join(cwd, "KEEP.txt"))).toBe(true);
    // The context commands show as the main agent's bash calls.
    expect(events.filter((e) => e.type === "tool_end").map((e) => (e as Extract<AgentEvent, { type: "tool_end" }>).call.arguments.command)).toEqual(["git status --short", "echo ARG-the", "rm -f KEEP.txt"]);
    s.close();
  });

  it("output is not searched again: a $ARGUMENTS a command prints stays as printed", async () => {
    const { cwd, inkHome } = repo();
    put(join(cwd, ".ink/commands/raw.md"), "Out: !`printf '%s%s' '$' 'ARGUMENTS'` for $ARGUMENTS\n");
    const provider = createScriptedProvider(() => ({ text: "ok" }));
    const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: { allow: ["bash(printf *)"] }, trust: true, persist: false });
    await s.runCommandFile(s.commandInvocation("/raw XYZ")!);
    expect(firstPrompt(provider.requests[0]!)).toBe("Out: $ARGUMENTS for XYZ");
    s.close();
  });

  it("ink -p \"/commit the fix\" runs the command file (it was sent to the model as typed)", async () => {
    const { cwd, inkHome } = repo();
    const provider = createScriptedProvider(() => ({ text: "COMMITTED" }));
    const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: { allow: ["bash(git status*)", "bash(echo *)"] }, trust: true, persist: false });
    const out: string[] = [];
    const code = await runPrintMode(s, "/commit the fix", { json: false, signal: new AbortController().signal, io: { stdout: (t) => out.push(t), stderr: () => {} } });
    expect(code).toBe(0);
    expect(out.join("")).toBe("COMMITTED\n");
    expect(firstPrompt(provider.requests[0]!)).toMatch(/^## Context\n\n- Current git status: \?\? \.claude\/\n[\s\S]*UNTRACKED-FILE\.txt\n- Echo: ARG-the/);
    s.close();
  });

  it("ink -p with a forked command runs it as a child and prints its report", async () => {
    const { cwd, inkHome } = repo();
    put(join(cwd, ".claude/commands/audit.md"), "---\ncontext: fork\n---\nAudit $ARGUMENTS.\n");
    const provider = createScriptedProvider((r) => (isChild(r) ? { text: `AUDIT-REPORT on ${firstPrompt(r)}` } : { text: "main" }));
    const s = new AgentSession({ cwd, inkHome, provider, model: "m", interactive: false, approval: {}, trust: true, persist: false });
    const out: string[] = [];
    const code = await runPrintMode(s, "/audit src", { json: false, signal: new AbortController().signal, io: { stdout: (t) => out.push(t), stderr: () => {} } });
    expect(code).toBe(0);
    expect(out.join("")).toContain("AUDIT-REPORT on Audit src.");
    expect(provider.requests.filter((r) => !isChild(r))).toHaveLength(0);
    s.close();
  });

  it("a text that names no command file is not one: built-ins, unknown names, plain prompts", () => {
    const { cwd, inkHome } = repo();
    const load = loadCommandFiles({ cwd, inkHome, claudeHome: temp("ink-ctx-claude-"), trusted: true });
    expect(findCommandInvocation("/nope x", load.commands)).toBeUndefined();
    expect(findCommandInvocation("commit this", load.commands)).toBeUndefined();
    expect(findCommandInvocation("/COMMIT a b", load.commands)).toMatchObject({ args: "a b" });
    expect(findCommandInvocation("/git:commit", load.commands)?.command.name).toBe("/commit");
  });

  it("sub-folder names: a clash inside one folder keeps both (the sub-folder one as /folder:name); a built-in name runs by its folder", () => {
    const cwd = temp("ink-ctx-names-");
    const inkHome = temp("ink-ctx-nh-");
    put(join(cwd, ".claude/commands/frontend/test.md"), "front\n");
    put(join(cwd, ".claude/commands/test.md"), "top\n");
    put(join(cwd, ".claude/commands/backend/build.md"), "back\n");
    put(join(cwd, ".claude/commands/frontend/build.md"), "front build\n");
    put(join(cwd, ".claude/commands/git/help.md"), "git help\n");
    const load = loadCommandFiles({ cwd, inkHome, claudeHome: temp("ink-ctx-c-"), trusted: true });
    const names = Object.fromEntries(load.commands.map((c) => [c.name, c.body]));
    expect(names).toEqual({ "/test": "top", "/frontend:test": "front", "/build": "back", "/frontend:build": "front build", "/git:help": "git help" });
    expect(load.notices.join("\n")).toContain(`${join(cwd, ".claude/commands/frontend/test.md")} runs as /frontend:test`);
    expect(load.notices.join("\n")).toContain("is named /help, a built-in command; run it as /git:help");
  });
});
