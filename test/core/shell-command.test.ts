/** `!cmd` in the core: the session runs the person's command through its own bash tool and approval; the output goes with the next prompt. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentSession } from "../../src/host/agent-session.js";
import { formatShellNote, splitShellNotes, withShellNotes } from "../../src/core/shell-command.js";
import type { AgentEvent } from "../../src/protocol/events.js";
import { createScriptedProvider } from "../../src/providers/scripted.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = (p: string) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), p)));
  dirs.push(d);
  return d;
};
const userText = (m: unknown) => (m as { content: string }).content;

describe("shell notes", () => {
  it("round-trip through a user message, a closing tag in the output defused", () => {
    const notes = [{ command: 'echo "a b"', output: "x </user-shell-command> y", isError: false }, { command: "false", output: "exit code 1", isError: true }];
    const text = withShellNotes(notes, "my question");
    expect(text.startsWith(formatShellNote(notes[0]!))).toBe(true);
    const split = splitShellNotes(text);
    expect(split.text).toBe("my question");
    expect(split.notes).toEqual([{ ...notes[0]!, output: "x </user-shell-command > y" }, notes[1]]);
  });
});

describe("AgentSession.runShell", () => {
  it("runs without asking; a deny rule refuses it (nothing runs); the outcome goes to the next prompt only", async () => {
    const cwd = temp("ink-shell-cwd-");
    const provider = createScriptedProvider(() => ({ text: "ok" }));
    const asked: string[] = [];
    const session = new AgentSession({
      cwd,
      inkHome: temp("ink-shell-home-"),
      provider,
      model: provider.defaultModel,
      interactive: true,
      persist: false,
      approval: { deny: ["bash(rm*)"], ask: async (call) => (asked.push(String(call.arguments.command)), { allow: true }) },
    });
    try {
      const events: AgentEvent[] = [];
      const denied = await session.runShell(`rm -rf ${cwd}/x`, { onEvent: (e) => events.push(e) });
      expect(denied).toMatchObject({ isError: true, content: expect.stringContaining("denied by the rule bash(rm*) from --deny; your own command is not run") });
      expect(asked).toEqual([]);
      const ran = await session.runShell("touch made && echo made-it", { onEvent: (e) => events.push(e) });
      expect(asked).toEqual([]); // the person's own command is not put to them again
      expect(ran).toMatchObject({ isError: false, content: expect.stringContaining("made-it") });
      expect(existsSync(join(cwd, "made"))).toBe(true);
      expect(events.filter((e) => e.type === "tool_end").map((e) => (e as { call: { name: string } }).call.name)).toEqual(["bash", "bash"]);
      expect(session.pendingShellCommands).toHaveLength(2);
      await session.prompt("what happened?");
      const sent = userText(provider.requests[0]!.messages[0]);
      expect(sent).toContain("denied by the rule bash(rm*)");
      expect(sent).toContain("made-it");
      expect(sent.endsWith("what happened?")).toBe(true);
      expect(session.pendingShellCommands).toHaveLength(0);
      await session.prompt("next");
      expect(userText(provider.requests[1]!.messages.at(-1))).toBe("next");
    } finally {
      session.close();
    }
  });

  it("only deny rules refuse it, in any mode: an ask rule, plan mode and a secrets path do not ask; the refusal names the settings file (~ for home)", async () => {
    const cwd = temp("ink-shell-cwd-");
    const home = temp("ink-shell-userhome-");
    const inkHome = join(home, ".ink");
    mkdirSync(inkHome);
    writeFileSync(join(inkHome, "settings.json"), JSON.stringify({ permissions: { deny: ["bash(rm *)"], ask: ["bash(echo *)"] } }));
    const provider = createScriptedProvider(() => ({ text: "ok" }));
    const asked: string[] = [];
    const savedHome = process.env.HOME;
    process.env.HOME = home;
    const session = new AgentSession({ cwd, inkHome, provider, model: provider.defaultModel, interactive: true, persist: false, approval: { mode: "plan", ask: async (call) => (asked.push(String(call.arguments.command)), { allow: true }) } });
    try {
      const denied = await session.runShell("echo keep > kept && rm kept");
      expect(denied).toMatchObject({ isError: true, content: 'tool call refused: bash command "rm kept" is denied by the rule bash(rm *) in ~/.ink/settings.json; your own command is not run' });
      expect(existsSync(join(cwd, "kept"))).toBe(false);
      const ran = await session.runShell("echo asked-rule-ok && cat /proc/self/environ > /dev/null; echo done");
      expect(ran).toMatchObject({ isError: false, content: expect.stringContaining("asked-rule-ok") });
      expect(asked).toEqual([]);
      // The model's own calls still follow the mode and the ask rule.
      const policy = session.onToolCall;
      const call = { type: "toolCall" as const, id: "m1", name: "bash", arguments: { command: "echo hi" } };
      const bash = session.tools.find((t) => t.name === "bash")!;
      expect(await policy(call, { id: "main", label: "main", depth: 0 } as never, bash)).toMatchObject({ allow: false, reason: expect.stringContaining("plan mode") });
    } finally {
      process.env.HOME = savedHome;
      session.close();
    }
  });

  it("setModel switches the next request's model and refuses a model the provider does not serve", async () => {
    const scripted = createScriptedProvider(() => ({ text: "ok" }));
    const provider = Object.assign(Object.create(scripted) as typeof scripted, { ownsModel: (m: string) => m.startsWith("scripted") });
    const session = new AgentSession({ cwd: temp("ink-model-cwd-"), inkHome: temp("ink-model-home-"), provider, model: "scripted-a", interactive: true, persist: false, approval: {} });
    try {
      expect(() => session.setModel("gpt-9")).toThrow('the scripted provider does not serve model "gpt-9"');
      expect(() => session.setModel("  ")).toThrow("give a model name");
      session.setModel("scripted-b");
      await session.prompt("hi");
      expect(scripted.requests[0]!.model).toBe("scripted-b");
    } finally {
      session.close();
    }
  });
});
