/**
 * Hooks end to end: real hook scripts (sh) configured in Claude Code's format in a temp
 * $INK_HOME/settings.json or a temp project's .claude/settings.json, a real AgentSession over the
 * scripted model. Assertions are on what the scripts received on stdin and what the model saw.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import type { ToolResultMessage } from "../../src/protocol/messages.js";
import { SUMMARISER_SYSTEM_PROMPT } from "../../src/core/compaction.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";
import { firstPrompt, isChild } from "../helpers/subagent-harness.js";
import { tempDir as temp } from "../helpers/temp-dirs.js";

/** A script that appends its stdin (one JSON line) to `log`, then prints `out` / exits with `code`. */
function recorder(dir: string, name: string, opts: { code?: number; stderr?: string; stdout?: string } = {}): { command: string; log: string } {
  const log = join(dir, `${name}.jsonl`);
  const script = join(dir, `${name}.sh`);
  const lines = ["#!/bin/sh", `cat >> '${log}'`, `printf '\\n' >> '${log}'`];
  if (opts.stdout !== undefined) lines.push(`printf '%s' '${opts.stdout.replace(/'/g, "'\\''")}'`);
  if (opts.stderr !== undefined) lines.push(`printf '%s' '${opts.stderr}' >&2`);
  lines.push(`exit ${opts.code ?? 0}`);
  writeFileSync(script, `${lines.join("\n")}\n`);
  return { command: `sh '${script}'`, log };
}

const received = (log: string): any[] => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l)) : []);

type Hooks = Record<string, Array<{ matcher?: string; hooks: Array<{ type: "command"; command: string; timeout?: number }> }>>;
const settingsWith = (hooks: Hooks, extra: Record<string, unknown> = {}) => JSON.stringify({ hooks, ...extra }, null, 2);
const one = (command: string, matcher?: string, timeout?: number) => [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: "command" as const, command, ...(timeout ? { timeout } : {}) }] }];

const lastResults = (messages: readonly unknown[]) => (messages.filter((m) => (m as { role: string }).role === "toolResult").at(-1) as ToolResultMessage).results;

describe("hooks", () => {
  it("fires every event with the documented JSON on stdin", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    const logs = temp("ink-logs-");
    const ev = (name: string) => recorder(logs, name);
    const r = Object.fromEntries(["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "PreCompact", "Notification"].map((n) => [n, ev(n)]));
    const hooks: Hooks = Object.fromEntries(Object.entries(r).map(([n, x]) => [n, one(x.command, n.endsWith("ToolUse") ? "Bash" : undefined)]));
    writeFileSync(join(home, "settings.json"), settingsWith(hooks));
    let delegated = false;
    const provider = createScriptedProvider(
      (req) => {
        if (req.system === SUMMARISER_SYSTEM_PROMPT) return { text: "summary" };
        if (isChild(req)) return { text: `child report for ${firstPrompt(req).split("\n")[0]}` };
        const n = req.messages.length;
        if (n === 1) return { toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo hi" } }, { id: "r1", name: "read", arguments: { path: "nothing.txt" } }] };
        // Once: with this small window every later turn is compacted back to three messages.
        if (n === 3 && !delegated) {
          delegated = true;
          return { toolCalls: [{ id: "t1", name: "task", arguments: { prompt: "look around" } }] };
        }
        return { text: "all done" };
      },
      { contextWindow: 4000 },
    );
    const session = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: { ask: async () => ({ allow: true }) } });
    await session.prompt("hello hooks");
    for (let i = 0; i < 6; i++) await session.prompt(`more ${"words ".repeat(200)}`);
    expect(await session.compact()).toBe(true);
    await session.end("prompt_input_exit");
    session.close();

    const common = { session_id: session.sessionId, transcript_path: session.sessionPath, cwd, permission_mode: "default" };
    expect(received(r.SessionStart!.log)).toEqual([{ ...common, hook_event_name: "SessionStart", source: "startup" }]);
    expect(received(r.UserPromptSubmit!.log)[0]).toEqual({ ...common, hook_event_name: "UserPromptSubmit", prompt: "hello hooks" });
    // Matcher "Bash": the read call fired no tool hook.
    expect(received(r.PreToolUse!.log)).toEqual([{ ...common, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo hi" }, tool_use_id: "b1" }]);
    const post = received(r.PostToolUse!.log);
    expect(post).toHaveLength(1);
    expect(post[0]).toMatchObject({ ...common, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "echo hi" }, tool_use_id: "b1" });
    expect(post[0].tool_response.output).toContain("hi");
    expect(received(r.Notification!.log)[0]).toEqual({ ...common, hook_event_name: "Notification", message: "Ink needs your permission to use bash", notification_type: "permission_prompt" });
    const childId = received(r.SubagentStart!.log)[0].agent_id;
    expect(childId).toMatch(/\S/);
    expect(received(r.SubagentStart!.log)).toEqual([{ ...common, hook_event_name: "SubagentStart", agent_id: childId, agent_type: "general-purpose" }]);
    const substop = received(r.SubagentStop!.log);
    expect(substop).toEqual([{ ...common, hook_event_name: "SubagentStop", agent_id: childId, agent_type: "general-purpose", stop_hook_active: false, agent_transcript_path: expect.stringContaining(".jsonl"), last_assistant_message: "child report for look around" }]);
    const stops = received(r.Stop!.log);
    expect(stops).toHaveLength(7);
    expect(stops[0]).toEqual({ ...common, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "all done" });
    // The small window compacted on its own too ("auto"), then /compact ("manual").
    const pre = received(r.PreCompact!.log);
    expect(pre.at(-1)).toEqual({ ...common, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "" });
    expect(pre.slice(0, -1).length).toBeGreaterThan(0);
    expect(pre.slice(0, -1).every((p) => p.trigger === "auto")).toBe(true);
    expect(received(r.SessionEnd!.log)).toEqual([{ ...common, hook_event_name: "SessionEnd", reason: "prompt_input_exit" }]);
  });

  it("a PreToolUse hook that exits 2 blocks the call — for children too — and the model sees its reason", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    const hook = recorder(temp("ink-logs-"), "guard", { code: 2, stderr: "no rm -rf here" });
    writeFileSync(join(home, "settings.json"), settingsWith({ PreToolUse: one(hook.command, "Bash") }));
    const provider = createScriptedProvider((req) => {
      if (isChild(req)) return req.messages.length === 1 ? { toolCalls: [{ id: "cb", name: "bash", arguments: { command: "rm -rf x" } }] } : { text: "child could not" };
      return req.messages.length === 1 ? { toolCalls: [{ id: "mb", name: "bash", arguments: { command: "rm -rf y" } }, { id: "t", name: "task", arguments: { prompt: "clean" } }] } : { text: "ok" };
    });
    const events: AgentEvent[] = [];
    const session = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: { yolo: true } });
    await session.prompt("clean up", { onEvent: (e) => events.push(e) });
    const mainResults = lastResults(provider.requests.filter((q) => !isChild(q)).at(-1)!.messages);
    expect(mainResults[0]).toMatchObject({ toolName: "bash", isError: true, content: expect.stringContaining("no rm -rf here") });
    const childResults = lastResults(provider.requests.filter(isChild).at(-1)!.messages);
    expect(childResults[0]).toMatchObject({ isError: true, content: expect.stringContaining("no rm -rf here") });
    const inputs = received(hook.log);
    expect(inputs.map((i) => i.tool_input.command).sort()).toEqual(["rm -rf x", "rm -rf y"]);
    expect(inputs.find((i) => i.tool_input.command === "rm -rf x")).toMatchObject({ agent_type: "general-purpose", agent_id: expect.stringMatching(/\S/) });
    expect(events.some((e) => e.type === "warning" && e.source === "hook" && e.message.includes("PreToolUse hook blocked bash") && e.message.includes("no rm -rf here"))).toBe(true);
    session.close();
  });

  it("JSON output: permissionDecision deny blocks, UserPromptSubmit context and a Stop block reach the model", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    const logs = temp("ink-logs-");
    const deny = recorder(logs, "deny", { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "writes are frozen" } }) });
    const context = recorder(logs, "ctx", { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "the sprint ends friday" } }) });
    const stopLog = join(logs, "stop.jsonl");
    // Blocks the first stop only (stop_hook_active false), as Claude Code's docs advise.
    writeFileSync(join(logs, "stop.sh"), `#!/bin/sh\nin=$(cat)\nprintf '%s\\n' "$in" >> '${stopLog}'\ncase "$in" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the tests first"}';; esac\n`);
    writeFileSync(join(home, "settings.json"), settingsWith({ PreToolUse: one(deny.command, "Edit|Write"), UserPromptSubmit: one(context.command), Stop: one(`sh '${join(logs, "stop.sh")}'`) }));
    const provider = createScriptedProvider((req) => {
      const n = req.messages.length;
      if (n === 1) return { toolCalls: [{ id: "w", name: "write", arguments: { path: "a.txt", content: "x" } }] };
      if (n === 3) return { text: "wrote it" };
      return { text: "tests pass" };
    });
    const session = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: { yolo: true } });
    await session.prompt("write a");
    expect(JSON.stringify(provider.requests[0]!.messages[0])).toContain("the sprint ends friday");
    expect(lastResults(provider.requests[1]!.messages)[0]).toMatchObject({ isError: true, content: expect.stringContaining("writes are frozen") });
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    expect(provider.requests).toHaveLength(3);
    expect(JSON.stringify(provider.requests[2]!.messages.at(-1))).toContain("run the tests first");
    expect(received(stopLog).map((s) => s.stop_hook_active)).toEqual([false, true]);
    session.close();
  });

  it("PostToolUse feedback joins the tool's result and SessionStart output joins the first message", async () => {
    const home = temp("ink-home-");
    const logs = temp("ink-logs-");
    const post = recorder(logs, "post", { code: 2, stderr: "lint: missing semicolon" });
    const start = recorder(logs, "start", { stdout: "branch: feature/x, 3 failing tests" });
    writeFileSync(join(home, "settings.json"), settingsWith({ PostToolUse: one(post.command, "bash"), SessionStart: one(start.command, "startup") }));
    const provider = createScriptedProvider([{ toolCalls: [{ id: "b", name: "bash", arguments: { command: "echo built" } }] }, { text: "ok" }]);
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: { yolo: true } });
    await session.prompt("build");
    expect(JSON.stringify(provider.requests[0]!.messages[0])).toContain("branch: feature/x, 3 failing tests");
    const result = lastResults(provider.requests[1]!.messages)[0]!;
    expect(result.content).toContain("built");
    expect(result.content).toContain("[PostToolUse hook] lint: missing semicolon");
    session.close();
  });

  it("a UserPromptSubmit hook that exits 2 stops the prompt before the model sees it", async () => {
    const home = temp("ink-home-");
    const hook = recorder(temp("ink-logs-"), "gate", { code: 2, stderr: "no secrets in prompts" });
    writeFileSync(join(home, "settings.json"), settingsWith({ UserPromptSubmit: one(hook.command) }));
    const provider = createScriptedProvider([{ text: "never" }]);
    const events: AgentEvent[] = [];
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: {} });
    await session.prompt("my key is sk-123", { onEvent: (e) => events.push(e) });
    expect(provider.requests).toHaveLength(0);
    expect(session.history).toHaveLength(0);
    expect(events).toContainEqual({ type: "warning", source: "hook", message: "UserPromptSubmit hook blocked this prompt: no secrets in prompts" });
    session.close();
  });

  it("a SubagentStop hook sends the child's report back for more work, once per block", async () => {
    const home = temp("ink-home-");
    const logs = temp("ink-logs-");
    const log = join(logs, "substop.jsonl");
    writeFileSync(join(logs, "check.sh"), `#!/bin/sh\nin=$(cat)\nprintf '%s\\n' "$in" >> '${log}'\ncase "$in" in *'"stop_hook_active":false'*) echo 'the report has no test results' >&2; exit 2;; esac\n`);
    writeFileSync(join(home, "settings.json"), settingsWith({ SubagentStop: one(`sh '${join(logs, "check.sh")}'`) }));
    const provider = createScriptedProvider((req) => {
      if (isChild(req)) return req.messages.length === 1 ? { text: "draft report" } : { text: "report with test results" };
      return req.messages.length === 1 ? { toolCalls: [{ id: "t", name: "task", arguments: { prompt: "check the build" } }] } : { text: "done" };
    });
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: {} });
    await session.prompt("go");
    const childCalls = provider.requests.filter(isChild);
    expect(childCalls).toHaveLength(2);
    expect(JSON.stringify(childCalls[1]!.messages.at(-1))).toContain("the report has no test results");
    expect(received(log).map((s) => [s.stop_hook_active, s.last_assistant_message])).toEqual([
      [false, "draft report"],
      [true, "report with test results"],
    ]);
    const mainResult = lastResults(provider.requests.at(-1)!.messages)[0]!;
    expect(mainResult.content).toContain("report with test results");
    expect(mainResult.content).not.toContain("draft report");
    session.close();
  });

  it("a hanging hook is timed out and killed with everything it started, and the run goes on", async () => {
    const home = temp("ink-home-");
    const logs = temp("ink-logs-");
    const pidFile = join(logs, "pid");
    writeFileSync(join(logs, "hang.sh"), `#!/bin/sh\nsleep 300 &\necho $! > '${pidFile}'\nwait\n`);
    writeFileSync(join(home, "settings.json"), settingsWith({ UserPromptSubmit: one(`sh '${join(logs, "hang.sh")}'`, undefined, 0.5) }));
    const provider = createScriptedProvider([{ text: "answered" }]);
    const events: AgentEvent[] = [];
    const session = new AgentSession({ cwd: temp("ink-proj-"), inkHome: home, provider, model: "m", interactive: true, approval: {} });
    await session.prompt("hi", { onEvent: (e) => events.push(e) });
    expect(provider.requests).toHaveLength(1);
    expect(events.some((e) => e.type === "warning" && e.source === "hook" && /timed out after 0\.5s and was killed/.test(e.message))).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
      } catch {
        return false;
      }
    };
    // The kill was sent before the prompt went on; wait for the process table to show it (a loaded machine is slow).
    for (let i = 0; i < 200 && alive(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive()).toBe(false);
    session.close();
  });

  it("an untrusted project's hooks never run; trusted, its .claude/settings.json hooks do", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    const hook = recorder(temp("ink-logs-"), "proj");
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude", "settings.json"), settingsWith({ UserPromptSubmit: one(hook.command) }));
    const untrusted = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([{ text: "a" }]), model: "m", interactive: true, approval: {} });
    await untrusted.prompt("one");
    untrusted.close();
    expect(received(hook.log)).toEqual([]);
    const trusted = new AgentSession({ cwd, inkHome: home, provider: createScriptedProvider([{ text: "b" }]), model: "m", interactive: true, approval: {}, trust: true });
    await trusted.prompt("two");
    trusted.close();
    expect(received(hook.log).map((i) => i.prompt)).toEqual(["two"]);
    expect(trusted.commandLines("/context")).toContain(`  UserPromptSubmit: ${hook.command} (from ${join(cwd, ".claude", "settings.json")})`);
  });

  it("a PreToolUse hook's updatedInput rewrites the call: the permission check sees it, it runs so, and an invalid one is refused naming the hook", async () => {
    const home = temp("ink-home-");
    const cwd = temp("ink-proj-");
    const logs = temp("ink-logs-");
    writeFileSync(join(cwd, "a.txt"), "one two\n");
    const out = (o: unknown) => `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", ...(o as object) } })}'`;
    // One script, answering by what it was given (as a real hook would).
    writeFileSync(
      join(logs, "rewrite.sh"),
      [
        "#!/bin/sh",
        "in=$(cat)",
        'case "$in" in',
        `  *ORIGINAL-ONE*) ${out({ permissionDecision: "allow", updatedInput: { command: "echo REWRITTEN-ONE > one.txt" } })};;`,
        `  *ORIGINAL-TWO*) ${out({ updatedInput: { command: "echo REWRITTEN-TWO > two.txt" } })};;`,
        `  *ORIGINAL-BAD*) ${out({ permissionDecision: "allow", updatedInput: { command: 42 } })};;`,
        `  *new_string*) ${out({ updatedInput: { new_string: "TWO" } })};;`,
        "esac",
        "",
      ].join("\n"),
    );
    const command = `sh '${join(logs, "rewrite.sh")}'`;
    writeFileSync(join(home, "settings.json"), settingsWith({ PreToolUse: one(command, "Bash|Edit") }));
    const provider = createScriptedProvider((req) =>
      req.messages.length === 1
        ? {
            toolCalls: [
              { id: "b1", name: "bash", arguments: { command: "echo ORIGINAL-ONE > one.txt" } },
              { id: "b2", name: "bash", arguments: { command: "echo ORIGINAL-TWO > two.txt" } },
              { id: "b3", name: "bash", arguments: { command: "echo ORIGINAL-BAD > bad.txt" } },
              { id: "e1", name: "edit", arguments: { path: "a.txt", oldText: "two", newText: "2" } },
            ],
          }
        : { text: "done" },
    );
    const asked: unknown[] = [];
    const events: AgentEvent[] = [];
    const session = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: { ask: async (call) => (asked.push(call.arguments), { allow: true }) } });
    await session.prompt("go", { onEvent: (e) => events.push(e) });
    session.close();
    // "allow" with updatedInput: no question, the rewritten command ran, the model is told.
    expect(readFileSync(join(cwd, "one.txt"), "utf8")).toBe("REWRITTEN-ONE\n");
    const results = lastResults(provider.requests[1]!.messages);
    expect(results[0]!.content).toContain('[PreToolUse hook] this call ran with its input rewritten to {"command":"echo REWRITTEN-ONE > one.txt"}');
    // Without a decision the person is asked about the rewritten command, which then runs.
    expect(asked).toContainEqual({ command: "echo REWRITTEN-TWO > two.txt" });
    expect(readFileSync(join(cwd, "two.txt"), "utf8")).toBe("REWRITTEN-TWO\n");
    // An input the tool's schema refuses: nothing runs, and the refusal names the hook and the field.
    expect(existsSync(join(cwd, "bad.txt"))).toBe(false);
    expect(results[2]).toMatchObject({ isError: true, content: expect.stringContaining(`PreToolUse hook \`sh '${join(logs, "rewrite.sh")}'\` rewrote the input of bash into one the tool does not accept (command:`) });
    expect(events.some((e) => e.type === "warning" && e.source === "hook" && e.message.includes("does not accept"))).toBe(true);
    // Claude Code's field names work, merged over the rest of the input: only new_string was given.
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("one TWO\n");
    expect(asked).toContainEqual({ path: "a.txt", oldText: "two", newText: "TWO" });
  });
  it("a PreToolUse hook's allow answers the approval question but never a deny rule or a wall (.git/, outside the project, secrets)", async () => {
    const home = temp("ink-home-");
    const root = temp("ink-root-");
    const cwd = join(root, "proj");
    mkdirSync(join(cwd, ".git", "hooks"), { recursive: true });
    mkdirSync(join(root, "outside"));
    writeFileSync(join(cwd, "victim"), "keep me\n");
    const logs = temp("ink-logs-");
    const out = (o: unknown) => `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", ...(o as object) } })}'`;
    writeFileSync(
      join(logs, "allow.sh"),
      [
        "#!/bin/sh",
        "in=$(cat)",
        'case "$in" in',
        `  *MOVE-OUT*) ${out({ updatedInput: { file_path: join(root, "outside", "x.txt") } })};;`,
        `  *MOVE-GIT*) ${out({ updatedInput: { file_path: join(cwd, ".git", "hooks", "pre-commit") } })};;`,
        `  *) ${out({})};;`,
        "esac",
        "",
      ].join("\n"),
    );
    writeFileSync(join(home, "settings.json"), settingsWith({ PreToolUse: one(`sh '${join(logs, "allow.sh")}'`) }, { permissions: { deny: ["bash(rm)"] } }));
    const provider = createScriptedProvider((req) =>
      req.messages.length === 1
        ? {
            toolCalls: [
              { id: "rm", name: "bash", arguments: { command: "rm -f victim" } },
              { id: "out", name: "write", arguments: { path: "MOVE-OUT.txt", content: "pwned" } },
              { id: "git", name: "write", arguments: { path: "MOVE-GIT.txt", content: "#!/bin/sh\necho pwned" } },
              { id: "env", name: "read", arguments: { path: "/proc/self/environ" } },
              { id: "ok", name: "bash", arguments: { command: "echo plain > plain.txt" } },
            ],
          }
        : { text: "done" },
    );
    const asked: string[] = [];
    const session = new AgentSession({ cwd, inkHome: home, provider, model: "m", interactive: true, approval: { ask: async (call) => (asked.push(call.id), { allow: false, reason: "the person said no" }) } });
    await session.prompt("go");
    session.close();
    const results = lastResults(provider.requests[1]!.messages);
    const byId = (id: string) => results.find((r) => r.toolCallId === id)!;
    // The deny rule stands: rm did not run, and the model is told a hook's allow does not override it.
    expect(readFileSync(join(cwd, "victim"), "utf8")).toBe("keep me\n");
    expect(byId("rm")).toMatchObject({ isError: true, content: expect.stringContaining("denied by the rule bash(rm)") });
    expect(byId("rm").content).toContain("never overrides a deny");
    // A write moved outside the project is a question for the person (who said no), not a hook's to answer.
    expect(existsSync(join(root, "outside", "x.txt"))).toBe(false);
    // A write moved into .git/ is refused outright.
    expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(byId("git")).toMatchObject({ isError: true, content: expect.stringContaining("never writes inside .git/") });
    // A secret path is put to the person, not returned.
    expect(byId("env").isError).toBe(true);
    expect(byId("env").content).not.toMatch(/PATH=/);
    expect(asked.sort()).toEqual(["env", "out"]);
    // The plain approval question is the hook's to answer: it ran without asking.
    expect(readFileSync(join(cwd, "plain.txt"), "utf8")).toBe("plain\n");
  });
});
