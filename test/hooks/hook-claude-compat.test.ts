/**
 * Hooks written for Claude Code: `async: true` runs in the background, CLAUDE_ENV_FILE reaches
 * later bash commands, `permission_mode` uses Claude Code's names, and the PostToolUseFailure and
 * PermissionRequest events fire. Real sh hook scripts, a real AgentSession over the scripted model.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

const script = (dir: string, name: string, body: string): string => {
  const path = join(dir, `${name}.sh`);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  return `sh '${path}'`;
};
const group = (command: string, extra: Record<string, unknown> = {}, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, ...extra }] }];
const lines = (path: string): any[] => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)) : []);
const lastResults = (messages: readonly unknown[]) => (messages.filter((m) => (m as { role: string }).role === "toolResult").at(-1) as ToolResultMessage).results;

describe("hooks written for Claude Code", () => {
  it("an async SessionStart hook does not hold the prompt and its JSON output is no context; permission_mode says bypassPermissions", async () => {
    const home = temp("ink-home-");
    const logs = temp("ink-logs-");
    const done = join(logs, "done");
    const seen = join(logs, "seen.jsonl");
    const slow = script(logs, "slow", `cat >> '${seen}'; printf '\\n' >> '${seen}'; sleep 2; touch '${done}'; echo '{"hookSpecificOutput":{"additionalContext":"BACKGROUND-CONTEXT"}}'`);
    writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { SessionStart: group(slow, { async: true }) } }));
    const provider = createScriptedProvider([{ text: "hi" }]);
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: { yolo: true } });
    await session.prompt("hello");
    expect(existsSync(done)).toBe(false);
    expect(JSON.stringify(provider.requests[0]!.messages[0])).not.toContain("BACKGROUND-CONTEXT");
    await vi.waitFor(() => expect(lines(seen)).toHaveLength(1), { timeout: 10_000 });
    expect(lines(seen)[0]).toMatchObject({ hook_event_name: "SessionStart", permission_mode: "bypassPermissions" });
    session.close();
  });

  it("a SessionStart hook's exports in CLAUDE_ENV_FILE reach later bash commands", async () => {
    const home = temp("ink-home-");
    const logs = temp("ink-logs-");
    const start = script(logs, "start", `cat >/dev/null; echo 'export GREETING="from the hook"' >> "$CLAUDE_ENV_FILE"; echo 'export PATH="$PATH:/opt/extra"' >> "$CLAUDE_ENV_FILE"`);
    writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { SessionStart: group(start) } }));
    const provider = createScriptedProvider([{ toolCalls: [{ id: "b", name: "bash", arguments: { command: 'echo "[$GREETING]"; echo "$PATH"' } }] }, { text: "ok" }]);
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: { yolo: true } });
    await session.prompt("greet");
    const out = String(lastResults(provider.requests[1]!.messages)[0]!.content);
    expect(out).toContain("[from the hook]");
    expect(out).toContain(":/opt/extra");
    session.close();
  });

  it("PostToolUseFailure fires for a failed call with the error, and its context joins the result", async () => {
    const home = temp("ink-home-");
    const logs = temp("ink-logs-");
    const seen = join(logs, "fail.jsonl");
    const fail = script(logs, "fail", `cat >> '${seen}'; printf '\\n' >> '${seen}'; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"look in docs/ instead"}}'`);
    writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { PostToolUseFailure: group(fail, {}, "Read") } }));
    const provider = createScriptedProvider([{ toolCalls: [{ id: "r", name: "read", arguments: { path: "missing.txt" } }] }, { text: "ok" }]);
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: { yolo: true } });
    await session.prompt("read it");
    const got = lines(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Read", tool_use_id: "r", is_interrupt: false, error: expect.stringContaining("missing.txt") });
    const result = lastResults(provider.requests[1]!.messages)[0]!;
    expect(result.isError).toBe(true);
    expect(result.content).toContain("[PostToolUseFailure hook context] look in docs/ instead");
    session.close();
  });

  it("a PermissionRequest hook answers for the person: deny refuses, allow runs, and the person is not asked", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    const logs = temp("ink-logs-");
    const seen = join(logs, "perm.jsonl");
    const decide = script(
      logs,
      "decide",
      `in=$(cat); printf '%s\\n' "$in" >> '${seen}'; case "$in" in *'"Bash"'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no shell today"}}}';; *) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}';; esac`,
    );
    writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { PermissionRequest: group(decide) } }));
    const provider = createScriptedProvider([{ toolCalls: [{ id: "b", name: "bash", arguments: { command: "echo hi" } }, { id: "w", name: "write", arguments: { path: "a.txt", content: "x" } }] }, { text: "ok" }]);
    const asked: string[] = [];
    const session = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: { ask: async (call) => (asked.push(call.name), { allow: false, reason: "person said no" }) } });
    await session.prompt("do it");
    expect(asked).toEqual([]);
    const results = lastResults(provider.requests[1]!.messages);
    expect(results[0]).toMatchObject({ isError: true, content: expect.stringContaining("no shell today") });
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("x");
    expect(lines(seen).map((s) => [s.hook_event_name, s.tool_name, s.permission_mode])).toEqual([
      ["PermissionRequest", "Bash", "default"],
      ["PermissionRequest", "Write", "default"],
    ]);
    session.close();
  });
});
