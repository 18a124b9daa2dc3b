/** Agent files as Claude Code documents them (issue #38 item 1): unknown keys warn, isolation, list tools, permissionMode. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentMode, createApprovalPolicy } from "../../src/core/approval.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { loadProfiles } from "../../src/subagents/profiles/profiles.js";
import { writeTool } from "../../src/tools/write.js";
import { bashTool } from "../../src/tools/bash.js";
import { harness, isChild, profile, type Harness } from "../helpers/subagent-harness.js";

function dirs() {
  const cwd = mkdtempSync(join(tmpdir(), "ink-fm-cwd-"));
  const inkHome = mkdtempSync(join(tmpdir(), "ink-fm-home-"));
  const claudeHome = mkdtempSync(join(tmpdir(), "ink-fm-claude-"));
  return { cwd, inkHome, claudeHome };
}

function load(front: string, where: "claude" | "ink" = "claude") {
  const d = dirs();
  const dir = where === "claude" ? join(d.cwd, ".claude", "agents") : join(d.cwd, ".ink", "agents");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "a.md");
  writeFileSync(path, `---\nname: a\ndescription: does a\n${front}\n---\nBody.`);
  const result = loadProfiles({ ...d, trust: "trusted-by-flag" });
  return { ...result, path, profile: result.profiles.find((p) => p.name === "a") };
}

describe("agent front matter as Claude Code writes it", () => {
  it("a key Ink does not know is a warning naming the file and the key, never a rejection", () => {
    for (const where of ["claude", "ink"] as const) {
      const l = load("frobnicate: 3\ncolour: red\nmodel: inherit", where);
      expect(l.problems).toEqual([]);
      expect(l.profile?.body).toBe("Body.");
      expect(l.warnings.join("\n")).toContain(`${l.path}: unknown keys "frobnicate", "colour" (did you mean "color"?) were ignored`);
    }
  });

  it("isolation: worktree makes the agent's children worktree children; another value is a warning", () => {
    expect(load("isolation: worktree").profile?.worktree).toBe(true);
    const other = load("isolation: container");
    expect(other.profile?.worktree).toBeUndefined();
    expect(other.warnings.join("\n")).toContain(`${other.path}: isolation "container" is not one Ink has and was ignored`);
  });

  it("tools as a flow list, a block list, and a flow list in a file read line by line", () => {
    expect(load('tools: ["Read", "Grep"]').profile?.tools).toEqual(["read", "grep"]);
    expect(load("tools:\n  - Read\n  - Bash").profile?.tools).toEqual(["read", "bash"]);
    // An unquoted `: ` in the description is not YAML; the file is read line by line, the list stays a list.
    const d = dirs();
    const dir = join(d.cwd, ".claude", "agents");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "c.md"), '---\nname: c\ndescription: Use it when: <example>user: "hi"</example>\nmodel: inherit\ntools: ["Read", "Grep"]\n---\nx');
    const l = loadProfiles({ ...d, trust: "trusted-by-flag" });
    expect(l.problems).toEqual([]);
    expect(l.profiles.find((p) => p.name === "c")?.tools).toEqual(["read", "grep"]);
  });

  it("tools: [] means no tools, with no warning", () => {
    const l = load("tools: []");
    expect(l.problems).toEqual([]);
    expect(l.profile?.tools).toEqual([]);
    expect(l.warnings).toEqual([]);
  });

  it("permissionMode: Claude Code's names map to Ink's modes; an unknown one is a warning", () => {
    expect(load("permissionMode: acceptEdits").profile?.permissionMode).toBe("accept-edits");
    expect(load("permissionMode: bypassPermissions").profile?.permissionMode).toBe("yolo");
    expect(load("permissionMode: dontAsk").profile?.permissionMode).toBe("dont-ask");
    expect(load("permissionMode: plan").profile?.permissionMode).toBe("plan");
    expect(load("permissionMode: default").profile?.permissionMode).toBeUndefined();
    const odd = load("permissionMode: sometimes");
    expect(odd.profile?.permissionMode).toBeUndefined();
    expect(odd.warnings.join("\n")).toContain(`${odd.path}: permissionMode "sometimes" is not a mode Ink knows`);
  });
});

describe("an agent's permissionMode decides its children's calls", () => {
  let h: Harness | undefined;
  afterEach(() => h?.cleanup());

  it("the session's plan and yolo win; otherwise the agent's accept-edits or yolo applies", () => {
    expect(agentMode("plan", "yolo")).toBe("plan");
    expect(agentMode("yolo", "accept-edits")).toBe("yolo");
    expect(agentMode("default", "plan")).toBe("plan");
    expect(agentMode("default", "accept-edits")).toBe("accept-edits");
    expect(agentMode("accept-edits", "yolo")).toBe("yolo");
    expect(agentMode("default", "dont-ask")).toBe("default");
    expect(agentMode("accept-edits", undefined)).toBe("accept-edits");
  });

  /** A session in default mode that can ask; the child writes a file and runs a command; returns what was asked. */
  async function run(mode: "accept-edits" | "dont-ask" | undefined) {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "ink-fm-mode-")));
    const asked: string[] = [];
    const policy = createApprovalPolicy({
      cwd,
      ask: async (call) => {
        asked.push(call.name);
        return { allow: false, reason: "the person said no" };
      },
    });
    h = harness(
      (request) => {
        if (!isChild(request)) return request.messages.length === 1 ? { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "write", agent: "editor" } }] } : { text: "parent done" };
        const last = request.messages.at(-1)!;
        if (last.role === "user") return { toolCalls: [{ id: "w1", name: "write", arguments: { path: "out.txt", content: "hello" } }, { id: "b1", name: "bash", arguments: { command: `touch ${join(cwd, "ran")}` } }] };
        return { text: (last as ToolResultMessage).results.map((r) => r.content).join("\n") };
      },
      { extraTools: [writeTool, bashTool], onToolCall: policy, cwd, profiles: [profile("editor", mode ? { permissionMode: mode } : {})] },
    );
    await h.run("go");
    const childLast = h.provider.requests.filter(isChild).at(-1)!;
    const results = (childLast.messages.at(-1) as ToolResultMessage).results;
    return { cwd, asked, results };
  }

  it("acceptEdits: the child's write runs without a question; its bash is still asked", async () => {
    const r = await run("accept-edits");
    expect(readFileSync(join(r.cwd, "out.txt"), "utf8")).toBe("hello");
    expect(r.asked).toEqual(["bash"]);
    expect(existsSync(join(r.cwd, "ran"))).toBe(false);
  });

  it("without a permissionMode the same write is asked (the session's default mode)", async () => {
    const r = await run(undefined);
    expect(r.asked).toEqual(["write", "bash"]);
    expect(existsSync(join(r.cwd, "out.txt"))).toBe(false);
  });

  it("dontAsk: what would ask is refused without a question, naming the agent's mode", async () => {
    const r = await run("dont-ask");
    expect(r.asked).toEqual([]);
    expect(existsSync(join(r.cwd, "out.txt"))).toBe(false);
    expect(existsSync(join(r.cwd, "ran"))).toBe(false);
    expect(r.results.map((x) => x.isError)).toEqual([true, true]);
    expect(r.results[0]!.content).toContain('agent "editor" runs with permissionMode: dontAsk');
  });
});
